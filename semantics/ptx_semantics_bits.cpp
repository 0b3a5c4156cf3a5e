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
  BV base5 = base & base.lit(31);
  BV atBase = BV::ite(bitAtIndex(mask, base5), base, notFound); // offset == 0
  BV down = bitAt(offset, 31);                                 // offset < 0
  // 31 - base5 written as the 5-bit complement of base (the same number).
  BV x = BV::ite(down, brev(mask).lshr(~base & base.lit(31)), mask.lshr(base5));
  BV n = BV::ite(down, offset.lit(0) - offset, offset); // |offset|; 0x80000000 stays 2^31
  BV result = notFound;
  for (unsigned i = 0; i < 32; ++i) {
    BV below = popc(x & lowMask(x.lit(i)));
    BV found = bitAt(x, i) & below.eq(n - n.lit(1));
    result = BV::ite(found, BV::ite(down, base - base.lit(i), base + base.lit(i)), result);
  }
  return BV::ite(offset.eq(offset.lit(0)), atBase, result);
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
// The wide intermediates are signed (.s33/.s34; modelled wider).
BV signedLess(const BV &a, const BV &b) { return sem::compare(ptx::CmpOp::Lt, true, a, b); }

// Stages 3 and 4 of PTX ISA 9.7.18.1. `tmp` stands for the wide
// intermediate at 64 bits: exact wherever it lies in a 32-bit type's range,
// and ordered as the exact value against every such value (which is all
// that optSaturate and the secondary .min/.max ask of it); `low` is the exact
// value's low 32 bits. optSaturate clamps to the destination type, then
// optSecOp combines with c (extended by dtype); d is the low 32 bits.
BV saturateAndCombine(const ptx::Form &f, BV tmp, BV low, const BV *c) {
  const bool sgn = f.type == ptx::TypeClass::S;
  if (f.saturate) { // CLAMP(tmp, max, min) of the destination type
    const BV hi = tmp.lit(sgn ? 0x7fffffffull : 0xffffffffull), lo = tmp.lit(sgn ? ~0x7fffffffull : 0);
    tmp = BV::ite(signedLess(hi, tmp), hi, BV::ite(signedLess(tmp, lo), lo, tmp));
    low = tmp.trunc(32);
  }
  if (!c)
    return low;
  const BV tc = sgn ? c->sext(64) : c->zext(64);
  switch (f.videoOp2) {
  case ptx::Form::VideoOp2::Add: return low + *c;
  case ptx::Form::VideoOp2::Min: return BV::ite(signedLess(tmp, tc), low, *c);
  case ptx::Form::VideoOp2::Max: return BV::ite(signedLess(tmp, tc), *c, low);
  case ptx::Form::VideoOp2::None: break;
  }
  return low;
}
} // namespace

// vshl / vshr (PTX ISA 9.7.18.1.2): a extended to 33 bits by its type, the
// amount b (.u32) clamped to 32 or wrapped to b & 31, the shift computed
// exactly, then saturation and the secondary operation as for the other
// video instructions. A left shift by 32 leaves 0 in the low 32 bits, a
// right one the sign fill. The exact value of a left shift needs up to 65
// bits, more than the .s34 that 9.7.18.1's stages name; .sat and .min/.max
// compare the exact value (ZLUDA's hardware tests of vshr.sat clamp the
// exact shifted value too). At 64 bits: a signed a shifted left stays within
// [-2^63, 2^63); an unsigned one is exact as an unsigned 64-bit value, and
// min(that, 2^33) orders as it does against every 33-bit value.
BV videoShift(const ptx::Form &f, const BV &a, const BV &b, const BV *c) {
  const bool signedA = f.fromType == ptx::TypeClass::S;
  const BV ta = signedA ? a.sext(64) : a.zext(64);
  const BV tb = (f.mode == ptx::ShfMode::Clamp ? b.umin(b.lit(32)) : b & b.lit(31)).zext(64);
  if (f.opcode == ptx::Opcode::Vshr) {
    const BV tmp = signedA ? ta.ashr(tb) : ta.lshr(tb);
    return saturateAndCombine(f, tmp, tmp.trunc(32), c);
  }
  const BV shifted = ta.shl(tb);
  return saturateAndCombine(f, signedA ? shifted : shifted.umin(shifted.lit(1ull << 33)), shifted.trunc(32), c);
}

// vmad (PTX ISA 9.7.18.1.4): tmp[127:0] = ta * tb; the product complemented
// (-a*b) or c complemented (-c), each with lsb = 1, or lsb = 1 alone (.po);
// tmp + c128 + lsb, where c128 is c sign-extended if the final result is
// signed; then bits [63+s:s] (.shr7/.shr15); .sat clamps those 64 bits to the
// final type's 32-bit range; d is the low 32 bits. tmp is kept as 96 bits
// (bits above 78 are never read): a 64-bit low part and a 32-bit top.
// The product: u*u and s*s are mulWide's; u*s is the unsigned product less
// a * 2^32 where the signed factor is negative (sext(b) = zext(b) - 2^32 when
// b < 0), which is how the AMD sequence computes it too, so the proof sees
// one multiplier on both sides.
BV videoMad(const ptx::Form &f, const BV &a, const BV &b, const BV &c) {
  using Mode = ptx::Form::VmadMode;
  const bool sa = f.fromType == ptx::TypeClass::S, sb = f.videoBType == ptx::TypeClass::S;
  const bool signedFinal = f.type == ptx::TypeClass::S;
  BV prod = mulWide(a, b, sa && sb);
  if (sa != sb) {
    const BV &unsignedFactor = sa ? b : a, &signedFactor = sa ? a : b;
    const BV fix = BV::concat(BV::ite(bitAt(signedFactor, 31), unsignedFactor, a.lit(0)), a.lit(0));
    prod = prod - fix;
  }
  BV top = sa || sb ? fill(bitAt(prod, 63), 32) : a.lit(0);
  BV tc = c;
  unsigned lsb = 0;
  if (f.vmadMode == Mode::NegProduct) {
    prod = ~prod;
    top = ~top;
    lsb = 1;
  } else if (f.vmadMode == Mode::NegC) {
    tc = ~c;
    lsb = 1;
  } else if (f.vmadMode == Mode::PlusOne) {
    lsb = 1;
  }
  const BV cLow = signedFinal ? tc.sext(64) : tc.zext(64);
  const BV cTop = signedFinal ? fill(bitAt(tc, 31), 32) : a.lit(0);
  // 96-bit sum: the low 64 bits with their carries into the top.
  const BV sum1 = prod + cLow;
  const BV carry1 = sum1.ult(prod).zext(32);
  const BV low = sum1 + sum1.lit(lsb);
  const BV carry2 = lsb ? low.eq(low.lit(0)).zext(32) : a.lit(0);
  const BV high = top + cTop + carry1 + carry2;
  BV result = low;
  if (f.vmadShift)
    result = low.lshr(low.lit(f.vmadShift)) | high.zext(64).shl(low.lit(64 - f.vmadShift));
  if (f.saturate && !signedFinal) // the 64 bits read as unsigned: only the upper bound can bind
    return result.umin(result.lit(0xffffffffull)).trunc(32);
  return saturateAndCombine(f, result, result.trunc(32), nullptr); // (signed: CLAMP to .s32; type is S)
}

BV videoSet(const ptx::Form &f, const BV &a, const BV &b, const BV *c) {
  using ptx::TypeClass;
  const BV ta = f.fromType == TypeClass::S ? a.sext(64) : a.zext(64);
  const BV tb = f.videoBType == TypeClass::S ? b.sext(64) : b.zext(64);
  const BV tmp = BV::ite(sem::compare(f.cmp, true, ta, tb), a.lit(1), a.lit(0));
  if (!c)
    return tmp;
  switch (f.videoOp2) {
  case ptx::Form::VideoOp2::Add: return tmp + *c;
  case ptx::Form::VideoOp2::Min: return BV::ite(tmp.ult(*c), tmp, *c);
  case ptx::Form::VideoOp2::Max: return BV::ite(tmp.ult(*c), *c, tmp);
  case ptx::Form::VideoOp2::None: break;
  }
  return tmp;
}

BV videoArith(const ptx::Form &f, const BV &a, const BV &b, const BV *c) {
  using ptx::Opcode;
  using ptx::TypeClass;
  // The .s33 inputs and .s34 intermediate, modelled at 64 bits (no
  // overflow there: |ta|, |tb| < 2^32).
  const BV ta = f.fromType == TypeClass::S ? a.sext(64) : a.zext(64);
  const BV tb = f.videoBType == TypeClass::S ? b.sext(64) : b.zext(64);
  BV tmp = ta;
  switch (f.opcode) {
  case Opcode::Vadd: tmp = ta + tb; break;
  case Opcode::Vsub: tmp = ta - tb; break;
  case Opcode::Vabsdiff: {
    const BV diff = ta - tb;
    tmp = BV::ite(signedLess(diff, diff.lit(0)), diff.lit(0) - diff, diff);
    break;
  }
  case Opcode::Vmin: tmp = BV::ite(signedLess(ta, tb), ta, tb); break;
  case Opcode::Vmax: tmp = BV::ite(signedLess(ta, tb), tb, ta); break;
  default: throw std::logic_error("videoArith: not a video arithmetic form");
  }
  return saturateAndCombine(f, tmp, tmp.trunc(32), c);
}

} // namespace p2a::sem::bits
