// Semantics of the bit-manipulation neighbours: prmt (PTX ISA 9.7.9.7) and
// bfe bfi brev popc clz bfind fns bmsk szext (PTX ISA 9.7.1, integer
// arithmetic). Written over sem::BV like the Logic and Shift family, so the
// same definitions drive concrete tests and Z3 proofs.
#include "semantics/ptx_semantics_bits.hpp"

#include "semantics/ptx_semantics.hpp"

#include <stdexcept>

namespace p2a::sem::bits {

using ptx::PrmtMode;

// Rows list d.b3 d.b2 d.b1 d.b0 (PTX ISA 9.7.9.7, table "prmt modes"),
// indexed by c[1:0]; one row set per mode f4e b4e rc8 ecl ecr rc16.
const unsigned char (&prmtModeRows(PrmtMode mode))[4][4] {
  static const unsigned char rows[6][4][4] = {
      {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}, // f4e
      {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}, // ecr
      {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}, // rc16
  };
  return rows[static_cast<int>(mode) - 1];
}

namespace {

BV bitAt(const BV &v, unsigned i) { return v.extract(i, i); }

// Bit `idx` (a symbolic index of v's width) of v, as 1 bit.
BV bitAtIndex(const BV &v, const BV &idx) { return v.lshr(idx).extract(0, 0); }

BV fill(const BV &bit1, unsigned width) { return bit1.sext(width); }

// A value of `width` bits with the low n bits set; n (width bits) may equal width.
BV lowMask(const BV &n) { return n.lit(1).shl(n) - n.lit(1); }

} // namespace

// prmt (9.7.9.7): the bytes of {b,a} are numbered 0..7 (a = 0..3). In the
// default mode each nibble of c picks a byte for the result byte at its
// position, and its bit 3 replicates that byte's sign instead. The other modes
// take a row, c[1:0], of a fixed table of byte indices.
BV prmt(PrmtMode mode, const BV &a, const BV &b, const BV &c) {
  BV bytes[8] = {a.extract(7, 0),   a.extract(15, 8),  a.extract(23, 16), a.extract(31, 24),
                 b.extract(7, 0),   b.extract(15, 8),  b.extract(23, 16), b.extract(31, 24)};
  BV out[4] = {bytes[0], bytes[0], bytes[0], bytes[0]};
  if (mode == PrmtMode::None) {
    for (unsigned i = 0; i < 4; ++i) {
      BV nib = c.extract(4 * i + 3, 4 * i);
      BV idx = nib.extract(2, 0);
      BV chosen = bytes[7];
      for (int k = 6; k >= 0; --k)
        chosen = BV::ite(idx.eq(idx.lit(k)), bytes[k], chosen);
      out[i] = BV::ite(bitAt(nib, 3), fill(bitAt(chosen, 7), 8), chosen);
    }
  } else {
    const auto &table = prmtModeRows(mode);
    BV row = c.extract(1, 0);
    for (unsigned i = 0; i < 4; ++i) {
      BV v = bytes[table[3][3 - i]];
      for (int r = 2; r >= 0; --r)
        v = BV::ite(row.eq(row.lit(r)), bytes[table[r][3 - i]], v);
      out[i] = v;
    }
  }
  return BV::concat(BV::concat(out[3], out[2]), BV::concat(out[1], out[0]));
}

// bfe (9.7.1.13): pos = b & 0xff, len = c & 0xff for the 32-bit forms.
// NVIDIA hardware reads all 32 bits of pos and len for the 64-bit forms
// (measured by the public ptx_tests suite; ZLUDA matches it), and so do we.
BV bfe(bool isSigned, const BV &a, const BV &b, const BV &c) {
  const unsigned w = a.width();
  BV pos = w == 32 ? (b & b.lit(0xff)) : b;
  BV len = w == 32 ? (c & c.lit(0xff)) : c;
  BV P = pos.zext(64), L = len.zext(64), W = P.lit(w);
  // Bits i < len with pos+i <= msb come from a; the rest are the sign bit.
  BV count = BV::ite(W.ule(P), P.lit(0), L.umin(W - P));
  BV mask = lowMask(count.trunc(w));
  BV field = a.lshr(P.trunc(w)) & mask;
  if (!isSigned)
    return field;
  BV signIndex = (P + L - P.lit(1)).umin(W - P.lit(1));
  BV sbit = BV::ite(L.eq(L.lit(0)), BV::constant(1, 0), bitAtIndex(a, signIndex.trunc(w)));
  return field | (fill(sbit, w) & ~mask);
}

// bfi (9.7.1.14): insert len bits of a into b at pos; bits past the msb are
// dropped. 8-bit pos/len for .b32, all 32 bits for .b64 (hardware, as bfe).
BV bfi(const BV &a, const BV &b, const BV &c, const BV &d) {
  const unsigned w = a.width();
  BV pos = w == 32 ? (c & c.lit(0xff)) : c;
  BV len = w == 32 ? (d & d.lit(0xff)) : d;
  BV P = pos.zext(64), L = len.zext(64);
  BV count = L.umin(P.lit(w)).trunc(w);
  BV shift = P.trunc(w);
  BV m = lowMask(count).shl(shift);
  return (b & ~m) | (a.shl(shift) & m);
}

// brev (9.7.1.12)
BV brev(const BV &a) {
  BV r = bitAt(a, 0);
  for (unsigned i = 1; i < a.width(); ++i)
    r = BV::concat(r, bitAt(a, i));
  return r;
}

// popc (9.7.1.8): the number of set bits, as .u32.
BV popc(const BV &a) { return popcount(a); }

// clz (9.7.1.9): leading zeros from the msb; the width for 0. .u32 result.
BV clz(const BV &a) {
  const unsigned w = a.width();
  BV r = BV::constant(32, w);
  for (unsigned i = 0; i < w; ++i) // the highest set bit decides
    r = BV::ite(bitAt(a, i), r.lit(w - 1 - i), r);
  return r;
}

// bfind (9.7.1.10): position of the most significant non-sign bit (signed
// inputs are inverted when negative), 0xffffffff if none; .shiftamt gives
// msb - position instead.
BV bfind(bool isSigned, bool shiftamt, const BV &in) {
  const unsigned w = in.width(), msb = w - 1;
  BV a = isSigned ? BV::ite(bitAt(in, msb), ~in, in) : in;
  BV none = BV::constant(32, 0xffffffffu);
  BV r = none;
  for (unsigned i = 0; i < w; ++i)
    r = BV::ite(bitAt(a, i), r.lit(shiftamt ? msb - i : i), r);
  return r;
}

// fns (9.7.1.11): the offset-th set bit of mask counting up (offset > 0) or
// down (offset < 0) from base, base itself if set when offset == 0, else
// 0xffffffff. base must be <= 31 (a precondition, see below).
//
// Written relative to base: X[i] is the bit i steps from base in the search
// direction (X = mask >> base upward, brev(mask) >> (31 - base) downward), and
// the n-th set bit (n = |offset|) is at the i where X[i] is set and exactly
// n - 1 set bits of X lie below it; the result is base + i or base - i. (The
// semantics tests check this against a direct walk over the mask.)
BV fns(const BV &mask, const BV &base, const BV &offset) {
  BV notFound = mask.lit(0xffffffffu);
  BV atBase = BV::ite(bitAtIndex(mask, base & base.lit(31)), base, notFound); // offset == 0
  BV down = bitAt(offset, 31);                                                // offset < 0
  // The shifts by base[4:0] and by 31 - base[4:0] (its 5-bit complement) are
  // written as AMD's shift amounts are (amd_ops.cpp, S0[4:0]), so that the
  // proof of fns.b32/bcnt-search (rules_fns.cpp) finds the same X terms on
  // both sides: half its solving time.
  BV x = BV::ite(down, brev(mask).lshr((~base).extract(4, 0).zext(32)), mask.lshr(base.extract(4, 0).zext(32)));
  BV n = BV::ite(down, offset.lit(0) - offset, offset); // |offset|; 0x80000000 stays 2^31
  BV result = notFound;
  for (unsigned i = 0; i < 32; ++i) {
    BV below = popc(x & lowMask(x.lit(i)));
    BV found = bitAt(x, i) & below.eq(n - n.lit(1));
    result = BV::ite(found, BV::ite(down, base - base.lit(i), base + base.lit(i)), result);
  }
  // offset = INT_MIN, whose |offset| is no .s32: NVIDIA hardware gives 0
  // (measured on sm_90; ptxas's sequence negates the offset, finds the
  // negated count INT_MIN "not above" the popcount in a signed compare, and
  // its search then ends at bit 31 of the reversed mask, position 0).
  const BV intMin = offset.eq(offset.lit(0x80000000u));
  return BV::ite(offset.eq(offset.lit(0)), atBase, BV::ite(intMin, offset.lit(0), result));
}

// bmsk (9.7.1.x, PTX 7.6): a mask of b bits starting at bit a.
BV bmsk(bool clamp, const BV &a, const BV &b) {
  BV a1 = a & a.lit(31), b1 = b & b.lit(31);
  BV sum = a1 + b1;
  BV ones = a.lit(~0u);
  BV posOverflow = clamp ? a.lit(32).ule(a) : BV::constant(1, 0);
  BV widthOverflow = clamp ? b.lit(32).ule(b) : BV::constant(1, 0);
  BV mask0 = BV::ite(posOverflow, a.lit(0), ones.shl(a1));
  BV sumOverflow = a.lit(32).ule(sum);
  BV mask1 = BV::ite(sumOverflow | posOverflow | widthOverflow, a.lit(0),
                     BV::ite(b1.eq(b1.lit(0)), ones, ones.shl(sum)));
  return mask0 & ~mask1;
}

// szext (9.7.1.x, PTX 7.6): keep the low N = b bits of a (N & 31 with .wrap;
// .clamp with b >= 32 keeps all of a), zero- or sign-extended.
BV szext(bool clamp, bool isSigned, const BV &a, const BV &b) {
  BV b1 = b & b.lit(31);
  BV tooLarge = clamp ? b.lit(32).ule(b) : BV::constant(1, 0);
  BV mask = BV::ite(tooLarge, a.lit(0), a.lit(~0u).shl(b1));
  BV signPos = (b1 - b1.lit(1)) & b1.lit(31);
  BV signBit = isSigned ? (~(b1.eq(b1.lit(0)) | tooLarge) & bitAtIndex(a, signPos)) : BV::constant(1, 0);
  return (a & ~mask) | (fill(signBit, 32) & mask);
}

namespace {
BV signedLess(const BV &a, const BV &b) { return sem::compare(ptx::CmpOp::Lt, true, a, b); }
BV clampSigned(const BV &v, uint64_t lo, uint64_t hi) {
  return BV::ite(signedLess(v.lit(hi), v), v.lit(hi), BV::ite(signedLess(v, v.lit(lo)), v.lit(lo), v));
}

// What NVIDIA hardware computes for the video instructions. Since sm_50
// they are emulated by instruction sequences that ptxas writes, and those
// depart from the stages of PTX ISA 9.7.18.1 (an .s34 intermediate,
// optSaturate, optSecOp). Measured on an H200 (sm_90, CUDA 13.0) over every
// operand-type combination and edge-heavy inputs, and read in the SASS that
// ptxas 13.0 writes (tests/hardware/README.md); tests/hardware_test.cpp holds
// the interpreter to that record.
//
// The secondary operation: d = low32(v) + c (.add), or .min/.max of the
// value `w` against c, both extended and compared as the destination type
// is signed or not (an unsigned compare of 64-bit values: a negative w is
// above every c). d's bits come from v where v wins.
BV combine(const ptx::Form &f, const BV &vLow, const BV &w, const BV *c, bool signedCompare) {
  if (!c)
    return vLow;
  using VideoOp2 = ptx::Form::VideoOp2;
  if (f.videoOp2 == VideoOp2::Add)
    return vLow + *c;
  if (f.videoOp2 == VideoOp2::None)
    return vLow;
  const BV tc = signedCompare ? c->sext(64) : c->zext(64);
  const BV less = signedCompare ? signedLess(w, tc) : w.ult(tc);
  return f.videoOp2 == VideoOp2::Min ? BV::ite(less, vLow, *c) : BV::ite(less, *c, vLow);
}
} // namespace

// vshl / vshr (PTX ISA 9.7.18.1.2), as measured (see combine): a extended
// by its type and shifted by b (.clamp: min(b, 32), .wrap: b & 31) in 64
// bits. Without .sat, .min/.max compare that 64-bit value (an unsigned a
// shifted left by 32 can set bit 63: it then compares as negative). With
// .sat the value is first cut to its low 34 bits, sign-extended (the ISA's
// .s34), and clamped to the destination type; .min/.max then compare the
// clamped 32 bits sign-extended.
BV videoShift(const ptx::Form &f, const BV &a, const BV &b, const BV *c) {
  const bool signedA = f.fromType == ptx::TypeClass::S, signedD = f.type == ptx::TypeClass::S;
  const BV ta = signedA ? a.sext(64) : a.zext(64);
  const BV tb = (f.mode == ptx::ShfMode::Clamp ? b.umin(b.lit(32)) : b & b.lit(31)).zext(64);
  const BV shifted = f.opcode == ptx::Opcode::Vshr ? (signedA ? ta.ashr(tb) : ta.lshr(tb)) : ta.shl(tb);
  if (!f.saturate)
    return combine(f, shifted.trunc(32), shifted, c, signedD);
  const BV s34 = shifted.trunc(34).sext(64);
  const BV v = signedD ? clampSigned(s34, ~0x7fffffffull, 0x7fffffff) : clampSigned(s34, 0, 0xffffffffull);
  return combine(f, v.trunc(32), v.trunc(32).sext(64), c, signedD);
}

// vmad (PTX ISA 9.7.18.1.4), as measured (see combine): whatever the
// operand types, the product is the signed 32 x 32 -> 64-bit product of a
// and b and c is sign-extended; the negated product or c (two's complement)
// or .po's + 1 are added in 64 bits; .shr7/.shr15 shift those 64 bits,
// arithmetically where a or b is signed, logically otherwise; .sat clamps
// the 64-bit value (read as signed) to the final type, .s32 where a or b is
// signed, else .u32 [0, 2^32 - 1]. d is the low 32 bits. (The ISA describes a
// 128-bit intermediate of the typed product; ptxas's sequence is one
// IMAD.WIDE and a 64-bit shift.)
BV videoMad(const ptx::Form &f, const BV &a, const BV &b, const BV &c) {
  using Mode = ptx::Form::VmadMode;
  const bool signedFinal = f.type == ptx::TypeClass::S;
  BV prod = mulWide(a, b, true);
  BV tc = c.sext(64);
  if (f.vmadMode == Mode::NegProduct)
    prod = prod.lit(0) - prod;
  else if (f.vmadMode == Mode::NegC)
    tc = tc.lit(0) - tc;
  BV sum = prod + tc;
  if (f.vmadMode == Mode::PlusOne)
    sum = sum + sum.lit(1);
  if (f.vmadShift) {
    const BV k = sum.lit(f.vmadShift);
    sum = signedFinal ? sum.ashr(k) : sum.lshr(k);
  }
  if (f.saturate)
    sum = signedFinal ? clampSigned(sum, ~0x7fffffffull, 0x7fffffff) : clampSigned(sum, 0, 0xffffffffull);
  return sum.trunc(32);
}

// vset (PTX ISA 9.7.18.1.3): compare(ta, tb) ? 1 : 0, then the secondary
// operation with c; .min/.max compare signed where a is signed (measured,
// see combine; the ISA's d is .u32).
BV videoSet(const ptx::Form &f, const BV &a, const BV &b, const BV *c) {
  using ptx::TypeClass;
  const BV ta = f.fromType == TypeClass::S ? a.sext(64) : a.zext(64);
  const BV tb = f.videoBType == TypeClass::S ? b.sext(64) : b.zext(64);
  const BV tmp = BV::ite(sem::compare(f.cmp, true, ta, tb), a.lit(1), a.lit(0));
  return combine(f, tmp, tmp.zext(64), c, f.fromType == TypeClass::S);
}

// vadd, vsub, vabsdiff, vmin, vmax (PTX ISA 9.7.18.1.1), as measured (see
// combine): the exact value e of a and b extended by their types (64 bits
// hold it). .sat clamps e to .s32, or for .u32 only from below (e < 0 gives
// 0; e >= 2^32 keeps its low 32 bits). .min/.max compare the exact (or
// clamped) value, except for vadd and vsub, which ptxas computes in 32 bits:
// they compare those 32 bits sign-extended.
BV videoArith(const ptx::Form &f, const BV &a, const BV &b, const BV *c) {
  using ptx::Opcode;
  using ptx::TypeClass;
  const BV ta = f.fromType == TypeClass::S ? a.sext(64) : a.zext(64);
  const BV tb = f.videoBType == TypeClass::S ? b.sext(64) : b.zext(64);
  BV e = ta;
  switch (f.opcode) {
  case Opcode::Vadd: e = ta + tb; break;
  case Opcode::Vsub: e = ta - tb; break;
  case Opcode::Vabsdiff: {
    const BV diff = ta - tb;
    e = BV::ite(signedLess(diff, diff.lit(0)), diff.lit(0) - diff, diff);
    break;
  }
  case Opcode::Vmin: e = BV::ite(signedLess(ta, tb), ta, tb); break;
  case Opcode::Vmax: e = BV::ite(signedLess(ta, tb), tb, ta); break;
  default: throw std::logic_error("videoArith: not a video arithmetic form");
  }
  const bool signedD = f.type == TypeClass::S;
  const bool in32Bits = f.opcode == Opcode::Vadd || f.opcode == Opcode::Vsub;
  BV v = e;
  if (f.saturate)
    v = signedD ? clampSigned(e, ~0x7fffffffull, 0x7fffffff) : BV::ite(signedLess(e, e.lit(0)), e.lit(0), e);
  return combine(f, v.trunc(32), in32Bits ? v.trunc(32).sext(64) : v, c, signedD);
}

} // namespace p2a::sem::bits
