#include "semantics/ptx_semantics.hpp"

#include "semantics/ptx_semantics_bits.hpp"

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

// a + b + cin (or a - b - cin) and, with .cc, the carry out of the unsigned
// sum (the borrow of the difference), without a wider intermediate: the
// carry is a wrap-around of either step (9.7.2: CC.CF).
static std::vector<BV> withCarry(const ptx::Form &f, bool add, const BV &a, const BV &b, const BV *cin) {
  BV r = add ? a + b : a - b;
  BV carry = add ? r.ult(a) : a.ult(b);
  if (cin) {
    const BV c = cin->zext(a.width());
    const BV r2 = add ? r + c : r - c;
    carry = carry | (add ? r2.ult(r) : r.ult(c));
    r = r2;
  }
  if (!f.carryOut)
    return {r};
  return {r, carry};
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
  case Opcode::Prmt: return {bits::prmt(f.prmt, s[0], s[1], s[2])};
  case Opcode::Bfe: return {bits::bfe(f.type == TypeClass::S, s[0], s[1], s[2])};
  case Opcode::Bfi: return {bits::bfi(s[0], s[1], s[2], s[3])};
  case Opcode::Brev: return {bits::brev(s[0])};
  case Opcode::Popc: return {bits::popc(s[0])};
  case Opcode::Clz: return {bits::clz(s[0])};
  case Opcode::Bfind: return {bits::bfind(f.type == TypeClass::S, f.shiftamt, s[0])};
  case Opcode::Fns: return {bits::fns(s[0], s[1], s[2])};
  case Opcode::Bmsk: return {bits::bmsk(f.mode == ShfMode::Clamp, s[0], s[1])};
  case Opcode::Szext: return {bits::szext(f.mode == ShfMode::Clamp, f.type == TypeClass::S, s[0], s[1])};
  case Opcode::Vshl:
  case Opcode::Vshr:
  case Opcode::Vadd:
  case Opcode::Vsub:
  case Opcode::Vabsdiff:
  case Opcode::Vmin:
  case Opcode::Vmax: {
    const BV *c = f.videoOp2 == ptx::Form::VideoOp2::None ? nullptr : &s[2];
    return {f.opcode == Opcode::Vshl || f.opcode == Opcode::Vshr ? bits::videoShift(f, s[0], s[1], c)
                                                                  : bits::videoArith(f, s[0], s[1], c)};
  }
  case Opcode::Vmad: return {bits::videoMad(f, s[0], s[1], s[2])};
  case Opcode::Vset: return {bits::videoSet(f, s[0], s[1], f.videoOp2 == ptx::Form::VideoOp2::None ? nullptr : &s[2])};
  case Opcode::Mov: return {s[0]};          // 9.7.9.3
  case Opcode::Add:
  case Opcode::Sub: {
    // 9.7.1.1/9.7.1.2 (wraps); with the condition code, 9.7.2.1-9.7.2.4:
    // addc d = a + b + CC.CF, subc d = a - (b + CC.CF); .cc writes the carry
    // out of the unsigned sum (the borrow of the difference) to CC.CF.
    const unsigned w = f.width;
    if (!f.carryIn && !f.carryOut)
      return {f.opcode == Opcode::Add ? s[0] + s[1] : s[0] - s[1]};
    if (w == 64) // (concrete values have at most 64 bits: the carry from compares)
      return withCarry(f, f.opcode == Opcode::Add, s[0], s[1], f.carryIn ? &s[2] : nullptr);
    BV wide = f.opcode == Opcode::Add ? s[0].zext(w + 1) + s[1].zext(w + 1) : s[0].zext(w + 1) - s[1].zext(w + 1);
    if (f.carryIn)
      wide = f.opcode == Opcode::Add ? wide + s[2].zext(w + 1) : wide - s[2].zext(w + 1);
    if (!f.carryOut)
      return {wide.trunc(w)};
    return {wide.trunc(w), wide.extract(w, w)};
  }
  case Opcode::MulLo:                       // 9.7.1.3: the low half of the product
    return {mulLow(s[0], s[1])};
  case Opcode::MulHi: // 9.7.1.3: the high half of the (signed or unsigned) product
    return {mulHigh(s[0], s[1], f.type == TypeClass::S)};
  case Opcode::MulWide: return {mulWide(s[0], s[1], f.type == TypeClass::S)}; // 9.7.1.3
  case Opcode::MadLo: // 9.7.1.4; with the condition code 9.7.2.5 mad.cc / 9.7.2.6 madc
  case Opcode::MadHi: {
    const unsigned w = f.width;
    const BV product = f.opcode == Opcode::MadLo ? mulLow(s[0], s[1]) : mulHigh(s[0], s[1], f.type == TypeClass::S);
    if (!f.carryIn && !f.carryOut)
      return {product + s[2]};
    if (w == 64)
      return withCarry(f, true, product, s[2], f.carryIn ? &s[3] : nullptr);
    BV wide = product.zext(w + 1) + s[2].zext(w + 1);
    if (f.carryIn)
      wide = wide + s[3].zext(w + 1);
    if (!f.carryOut)
      return {wide.trunc(w)};
    return {wide.trunc(w), wide.extract(w, w)};
  }
  case Opcode::Setp: { // 9.7.3.1: p = (a cmp b) [BoolOp c]
    BV p = compare(f.cmp, f.type == TypeClass::S, s[0], s[1]);
    if (f.boolop == BoolOp::And)
      p = p & s[2];
    else if (f.boolop == BoolOp::Or)
      p = p | s[2];
    else if (f.boolop == BoolOp::Xor)
      p = p ^ s[2];
    return {p};
  }
  case Opcode::MadWide: // 9.7.1.4: the whole product, plus a c as wide as it
    return {mulWide(s[0], s[1], f.type == TypeClass::S) + s[2]};
  case Opcode::Mul24Lo:
  case Opcode::Mul24Hi:
  case Opcode::Mad24Lo:
  case Opcode::Mad24Hi: {
    // 9.7.1.5/9.7.1.6: a and b are 24-bit values (their top 8 bits are
    // ignored); .lo is bits 31..0 of the 48-bit product, .hi bits 47..16.
    const bool sgn = f.type == TypeClass::S;
    const BV a = sgn ? s[0].trunc(24).sext(32) : s[0].trunc(24).zext(32);
    const BV b = sgn ? s[1].trunc(24).sext(32) : s[1].trunc(24).zext(32);
    const BV p = mulWide(a, b, sgn);
    const bool hi = f.opcode == Opcode::Mul24Hi || f.opcode == Opcode::Mad24Hi;
    BV d = hi ? p.extract(47, 16) : p.extract(31, 0);
    if (f.opcode == Opcode::Mad24Lo || f.opcode == Opcode::Mad24Hi)
      d = d + s[2];
    return {d};
  }
  case Opcode::Add3: return {s[0] + s[1] + s[2]};   // add.u32 d, (add.u32 t, a, b), c
  case Opcode::Xad: return {(s[0] ^ s[1]) + s[2]};  // add.u32 d, (xor.b32 t, a, b), c
  case Opcode::Rotl: { // fused rotate: (a << k) + (a >> (64 - k)), disjoint bits, for k = b mod 64
    const BV k = (s[1] & s[1].lit(63)).zext(f.width);
    return {s[0].shl(k) | s[0].lshr((k.lit(f.width) - k) & k.lit(f.width - 1))};
  }
  case Opcode::MovPack: return {BV::concat(s[1], s[0])}; // 9.7.9.3: d = {lo, hi}, lo in the low bits
  case Opcode::MovUnpack: {
    const unsigned h = f.width / 2;
    return {s[0].extract(h - 1, 0), s[0].extract(f.width - 1, h)};
  }
  case Opcode::Selp: return {BV::ite(s[2], s[0], s[1])}; // 9.7.3.3: d = c ? a : b
  case Opcode::Min: // 9.7.1.10
    return {BV::ite(compare(ptx::CmpOp::Lt, f.type == TypeClass::S, s[0], s[1]), s[0], s[1])};
  case Opcode::Max: // 9.7.1.11
    return {BV::ite(compare(ptx::CmpOp::Gt, f.type == TypeClass::S, s[0], s[1]), s[0], s[1])};
  case Opcode::Abs: // 9.7.1.8: |a|; the most negative value stays itself (two's complement)
    return {BV::ite(compare(ptx::CmpOp::Lt, true, s[0], s[0].lit(0)), s[0].lit(0) - s[0], s[0])};
  case Opcode::Neg: return {s[0].lit(0) - s[0]}; // 9.7.1.9
  case Opcode::Div: // 9.7.1.6: the quotient, truncated toward zero
  case Opcode::Rem: { // 9.7.1.7: the remainder, with the dividend's sign
    if (f.type != TypeClass::S) {
      const sem::UnsignedDivision qr = sem::divideUnsigned(s[0], s[1]);
      return {f.opcode == Opcode::Div ? qr.quotient : qr.remainder};
    }
    // Signed: the magnitudes divide; x's sign mask m = x >> 31 (arithmetic)
    // gives |x| = (x ^ m) - m and negates back the same way (the rules
    // compute exactly these terms).
    if (f.width == 64) { // the magnitudes on halves, as the rules compute them
      const auto [nLo, nHi, mN] = sem::magnitudeHalves(s[0].extract(31, 0), s[0].extract(63, 32));
      const auto [dLo, dHi, mD] = sem::magnitudeHalves(s[1].extract(31, 0), s[1].extract(63, 32));
      const sem::UnsignedDivision qr = sem::divideUnsignedHalves(nLo, nHi, dLo, dHi);
      const BV signN = BV::concat(mN, mN), signQ = BV::concat(mN ^ mD, mN ^ mD);
      if (f.opcode == Opcode::Rem)
        return {(qr.remainder ^ signN) - signN};
      return {(qr.quotient ^ signQ) - signQ};
    }
    if (f.width == 16) { // in 32-bit registers, as the rules compute it: sign-extended, magnitudes, 16 steps
      const BV n = s[0].sext(32), d = s[1].sext(32);
      const BV signN = n.ashr(n.lit(31)), signD = d.ashr(d.lit(31));
      const sem::UnsignedDivision qr = sem::divideUnsigned16In32((n ^ signN) - signN, (d ^ signD) - signD);
      const BV sign = f.opcode == Opcode::Rem ? signN : signN ^ signD;
      return {(((f.opcode == Opcode::Rem ? qr.remainder : qr.quotient) ^ sign) - sign).extract(15, 0)};
    }
    const BV signN = s[0].ashr(s[0].lit(31)), signD = s[1].ashr(s[1].lit(31));
    const sem::UnsignedDivision qr = sem::divideUnsigned((s[0] ^ signN) - signN, (s[1] ^ signD) - signD);
    if (f.opcode == Opcode::Rem)
      return {(qr.remainder ^ signN) - signN};
    const BV signQ = signN ^ signD;
    return {(qr.quotient ^ signQ) - signQ};
  }
  case Opcode::Cvt: { // 9.7.9.21: integer widening extends by the source type, narrowing truncates
    // An 8-bit source is the low byte of its 16-bit register (PTX ISA 6.4.1:
    // a source register wider than the type is truncated to it). An 8-bit
    // result fills its 16-bit register extended by the destination type
    // (5.2.4, destinations wider than the type).
    const BV a = s[0].width() > f.fromWidth ? s[0].trunc(f.fromWidth) : s[0];
    const unsigned regWidth = f.dstWidth(0);
    if (f.saturate) { // the source value clamped to the destination type's range
      // In 64 bits, compared as the source is signed; a bound that no
      // source value passes is left out (a 64-bit one, or 0 below an
      // unsigned source).
      const bool srcSigned = f.fromType == TypeClass::S, dstSigned = f.type == TypeClass::S;
      const BV x = srcSigned ? a.sext(64) : a.zext(64);
      BV v = x;
      const ptx::IntegerRange range = ptx::integerRange(f.type, f.width);
      if (!(srcSigned && range.max >= (uint64_t(1) << 63))) // a signed 64-bit value never exceeds 2^63 - 1
        v = BV::ite(compare(ptx::CmpOp::Gt, srcSigned, x, x.lit(range.max)), x.lit(range.max), v);
      if (srcSigned && (!dstSigned || f.width < 64))
        v = BV::ite(compare(ptx::CmpOp::Lt, true, x, x.lit(range.min)), x.lit(range.min), v);
      return {v.trunc(regWidth)}; // in range, so the truncation is the extension by the type
    }
    if (f.width < 16) { // the low byte, extended by the destination type
      const BV low = a.trunc(f.width);
      return {f.type == TypeClass::S ? low.sext(regWidth) : low.zext(regWidth)};
    }
    if (f.width > f.fromWidth)
      return {f.fromType == TypeClass::S ? a.sext(f.width) : a.zext(f.width)};
    return {a.trunc(f.width)};
  }
  }
  throw std::logic_error("evalPtx: unknown form");
}

BV compare(ptx::CmpOp op, bool isSigned, const BV &a, const BV &b) {
  // Signed order: flip the sign bits, then compare unsigned.
  const BV sign = a.lit(1).shl(a.lit(a.width() - 1));
  const BV x = isSigned ? a ^ sign : a, y = isSigned ? b ^ sign : b;
  switch (op) {
  case ptx::CmpOp::Eq: return a.eq(b);
  case ptx::CmpOp::Ne: return a.ne(b);
  case ptx::CmpOp::Lt: return x.ult(y);
  case ptx::CmpOp::Le: return x.ule(y);
  case ptx::CmpOp::Gt: return y.ult(x);
  case ptx::CmpOp::Ge: return y.ule(x);
  }
  throw std::logic_error("compare: unknown op");
}

std::vector<BV> ptxPreconditions(const ptx::Form &f, const std::vector<BV> &s) {
  // fns (9.7.1.11): "base must be <= 31, otherwise behavior is undefined".
  if (f.opcode == Opcode::Fns)
    return {s[1].ule(s[1].lit(31))};
  // div, rem (9.7.1.6-7): "Division by zero yields an unspecified, machine-specific value".
  if (f.opcode == Opcode::Div || f.opcode == Opcode::Rem)
    return {s[1].ne(s[1].lit(0))};
  return {};
}

} // namespace p2a::sem
