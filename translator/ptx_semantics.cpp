#include "translator/ptx_semantics.hpp"

#include <stdexcept>

namespace p2a::sem {

using ptx::BoolOp;
using ptx::Opcode;
using ptx::ShfDir;
using ptx::ShfMode;
using ptx::TypeClass;

// lop3 (9.7.8.6): result bit i = immLut[(a_i << 2) | (b_i << 1) | c_i]. Written
// as the OR of the eight minterms selected by the LUT bits, so that it is the
// same formula whether the LUT is concrete or symbolic.
static BV lop3(const BV &a, const BV &b, const BV &c, const BV &lut) {
  BV result = a.lit(0);
  for (unsigned m = 0; m < 8; ++m) {
    BV term = ((m & 4) ? a : ~a) & ((m & 2) ? b : ~b) & ((m & 1) ? c : ~c);
    BV selected = lut.extract(m, m).sext(a.width());
    result = result | (term & selected);
  }
  return result;
}

// shf (9.7.8.7): n = .clamp ? min(c, 32) : c & 0x1f; .l gives the upper 32
// bits of {b,a} << n, .r the lower 32 bits of {b,a} >> n.
static BV shf(ShfDir dir, ShfMode mode, const BV &a, const BV &b, const BV &c) {
  BV n = mode == ShfMode::Clamp ? c.umin(c.lit(32)) : (c & c.lit(31));
  BV pair = BV::concat(b, a);
  BV n64 = n.zext(64);
  if (dir == ShfDir::Left)
    return pair.shl(n64).extract(63, 32);
  return pair.lshr(n64).extract(31, 0);
}

// shl / shr (9.7.8.8, 9.7.8.9): "Shift amounts greater than the register width
// N are clamped to N." The amount is an unsigned 32-bit value.
static BV shiftAmount(const BV &c, unsigned width) {
  BV clamped = c.umin(c.lit(width));
  return width >= 32 ? clamped.zext(width) : clamped.trunc(width == 16 ? 16 : width);
}

std::vector<BV> evalPtx(const ptx::Form &f, const std::vector<BV> &s) {
  if (s.size() != f.numSrcs())
    throw std::logic_error("evalPtx: wrong number of sources for " + f.name());
  switch (f.opcode) {
  case Opcode::And: return {s[0] & s[1]}; // 9.7.8.1
  case Opcode::Or: return {s[0] | s[1]};  // 9.7.8.2
  case Opcode::Xor: return {s[0] ^ s[1]}; // 9.7.8.3
  case Opcode::Not: return {~s[0]};       // 9.7.8.4
  case Opcode::Cnot:                      // 9.7.8.5: d = (a == 0) ? 1 : 0
    return {BV::ite(s[0].eq(s[0].lit(0)), s[0].lit(1), s[0].lit(0))};
  case Opcode::Lop3: {
    BV d = lop3(s[0], s[1], s[2], s[3]);
    if (f.boolop == BoolOp::None)
      return {d};
    // PTX 8.2: p = (d != 0) BoolOp q
    BV nz = d.ne(d.lit(0));
    BV p = f.boolop == BoolOp::And ? (nz & s[4]) : (nz | s[4]);
    return {d, p};
  }
  case Opcode::Shf: return {shf(f.dir, f.mode, s[0], s[1], s[2])};
  case Opcode::Shl: return {s[0].shl(shiftAmount(s[1], f.width))};
  case Opcode::Shr: {
    BV n = shiftAmount(s[1], f.width);
    return {f.type == TypeClass::S ? s[0].ashr(n) : s[0].lshr(n)};
  }
  }
  throw std::logic_error("evalPtx: unknown form");
}

} // namespace p2a::sem
