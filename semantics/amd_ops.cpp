#include "semantics/amd_ops.hpp"

#include "targets/target_info.hpp"

#include <stdexcept>

namespace p2a::amd {

using sem::BV;
using S = std::vector<BV>;
using Ctx = EvalContext;

// The control, setup, cache-maintenance, atomic and pseudo ops (amd_ops_control.cpp).
OpDef defineControlOrAtomicOp(Op op);

namespace {

// Shift amounts: 32-bit shifts read S0[4:0], 16-bit ones S0[3:0], 64-bit ones
// S0[5:0] (Vega ISA 12.7 / CDNA3 ISA 11 VOP2/VOP3 opcode tables).
BV amount(const BV &s0, unsigned bits, unsigned width) {
  return s0.extract(bits - 1, 0).zext(width);
}

// 16-bit VALU results: gfx9 zeroes bits 31:16, gfx10+ preserves them (RDNA
// ISA "16-bit VALU"). Preserved bits are an unknown previous value here.
BV widen16(const BV &r16, const Ctx &c) {
  return BV::concat(c.high16_zeroed ? BV::constant(16, 0) : c.unspecified(16), r16);
}

// A compare writes the lane's bit only where EXEC is set, 0 elsewhere.
BV compareResult(const BV &cond, const Ctx &c) { return cond & c.exec; }

// A 33-bit sum or difference: bit 32 is the carry (or the borrow, which
// the wrapped subtraction leaves there), written to VCC only where EXEC is set.
BV carryResult(const BV &wide, const Ctx &c) {
  return BV::concat(wide.extract(32, 32) & c.exec, wide.extract(31, 0));
}

// The 64-bit product of two 24-bit operands (the top 8 bits of each are
// ignored), extended by signedness.
BV mul24(const BV &a, const BV &b, bool isSigned) {
  auto ext = [&](const BV &x) { return isSigned ? x.trunc(24).sext(32) : x.trunc(24).zext(32); };
  return sem::mulWide(ext(a), ext(b), isSigned);
}

// Signed less-than as a 1-bit value: flip the sign bits, compare unsigned.
BV slt(const BV &a, const BV &b) {
  BV sign = a.lit(1).shl(a.lit(a.width() - 1));
  return (a ^ sign).ult(b ^ sign);
}

BV reverseBits(const BV &a) {
  BV r = a.extract(0, 0);
  for (unsigned i = 1; i < a.width(); ++i)
    r = BV::concat(r, a.extract(i, i));
  return r;
}

// Count of zeros above the highest set bit; 0xffffffff if none is set.
BV firstBitHigh(const BV &a) {
  BV r = BV::constant(32, 0xffffffffu);
  for (unsigned i = 0; i < 32; ++i)
    r = BV::ite(a.extract(i, i), r.lit(31 - i), r);
  return r;
}

// Index of the lowest set bit; 0xffffffff if none is set.
BV firstBitLow(const BV &a) {
  BV r = BV::constant(32, 0xffffffffu);
  for (int i = 31; i >= 0; --i)
    r = BV::ite(a.extract(i, i), r.lit(i), r);
  return r;
}

// v_perm_b32 byte selection (Vega ISA 12.x "V_PERM_B32"; RDNA ISA likewise).
BV permBytes(const BV &s0, const BV &s1, const BV &sel) {
  BV bytes[8] = {s1.extract(7, 0),  s1.extract(15, 8),  s1.extract(23, 16), s1.extract(31, 24),
                 s0.extract(7, 0),  s0.extract(15, 8),  s0.extract(23, 16), s0.extract(31, 24)};
  BV out[4] = {bytes[0], bytes[0], bytes[0], bytes[0]};
  for (unsigned i = 0; i < 4; ++i) {
    BV k = sel.extract(8 * i + 7, 8 * i);
    BV v = BV::constant(8, 0xff); // 13 and above
    v = BV::ite(k.eq(k.lit(12)), k.lit(0), v);
    for (int odd = 3; odd >= 0; --odd) // 8..11: sign of byte 1, 3, 5, 7
      v = BV::ite(k.eq(k.lit(8 + odd)), bytes[2 * odd + 1].extract(7, 7).sext(8), v);
    for (int b = 7; b >= 0; --b)
      v = BV::ite(k.eq(k.lit(b)), bytes[b], v);
    out[i] = v;
  }
  return BV::concat(BV::concat(out[3], out[2]), BV::concat(out[1], out[0]));
}

// Every op's definition. A switch with no default: the compiler checks that
// each Op has one (-Werror=switch), and nothing depends on the order of the
// enum (allOps builds the table from it, indexed by Op).
OpDef defineOp(Op op) {
  using E = Encoding;
  using SL = Slot;
  const char *vega = "AMD Vega ISA / CDNA3 ISA / RDNA ISA, VALU opcode tables";
  const char *sopc = "Vega ISA 12.4 SOPC / RDNA3 ISA 16.3";
  switch (op) {
  case Op::V_MOV_B32:
    return OpDef{Op::V_MOV_B32, "v_mov_b32", E::VOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0]; }};
  case Op::V_NOT_B32:
    return OpDef{Op::V_NOT_B32, "v_not_b32", E::VOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return ~s[0]; }};
  case Op::V_AND_B32:
    return OpDef{Op::V_AND_B32, "v_and_b32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] & s[1]; }};
  case Op::V_OR_B32:
    return OpDef{Op::V_OR_B32, "v_or_b32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] | s[1]; }};
  case Op::V_XOR_B32:
    return OpDef{Op::V_XOR_B32, "v_xor_b32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] ^ s[1]; }};
  case Op::V_XNOR_B32:
    return OpDef{Op::V_XNOR_B32, "v_xnor_b32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return ~(s[0] ^ s[1]); }};
  // D = (S0 & S1) | (~S0 & S2)
  case Op::V_BFI_B32:
    return OpDef{Op::V_BFI_B32, "v_bfi_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return (s[0] & s[1]) | (~s[0] & s[2]); }};
  case Op::V_AND_OR_B32:
    return OpDef{Op::V_AND_OR_B32, "v_and_or_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return (s[0] & s[1]) | s[2]; }};
  case Op::V_OR3_B32:
    return OpDef{Op::V_OR3_B32, "v_or3_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0] | s[1] | s[2]; }};
  case Op::V_XOR3_B32:
    return OpDef{Op::V_XOR3_B32, "v_xor3_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false,
        "RDNA ISA (gfx10+) VOP3 opcodes",
        [](const S &s, const Ctx &) { return s[0] ^ s[1] ^ s[2]; }};
  // D = ({S0,S1} >> S2[4:0])[31:0]
  case Op::V_ALIGNBIT_B32:
    return OpDef{Op::V_ALIGNBIT_B32, "v_alignbit_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        return BV::concat(s[0], s[1]).lshr(amount(s[2], 5, 64)).extract(31, 0);
        }};
  // D = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1)
  case Op::V_BFE_U32:
    return OpDef{Op::V_BFE_U32, "v_bfe_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        BV width = amount(s[2], 5, 32);
        BV mask = s[0].lit(1).shl(width) - s[0].lit(1);
        return s[0].lshr(amount(s[1], 5, 32)) & mask;
        }};
  // D = (S0 << S1[4:0]) | S2
  case Op::V_LSHL_OR_B32:
    return OpDef{Op::V_LSHL_OR_B32, "v_lshl_or_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].shl(amount(s[1], 5, 32)) | s[2]; }};
  // "rev" shifts: D = S1 op S0[n:0]
  case Op::V_LSHLREV_B32:
    return OpDef{Op::V_LSHLREV_B32, "v_lshlrev_b32", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[1].shl(amount(s[0], 5, 32)); }};
  case Op::V_LSHRREV_B32:
    return OpDef{Op::V_LSHRREV_B32, "v_lshrrev_b32", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[1].lshr(amount(s[0], 5, 32)); }};
  case Op::V_ASHRREV_I32:
    return OpDef{Op::V_ASHRREV_I32, "v_ashrrev_i32", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[1].ashr(amount(s[0], 5, 32)); }};
  case Op::V_LSHLREV_B16:
    return OpDef{Op::V_LSHLREV_B16, "v_lshlrev_b16", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return widen16(s[1].trunc(16).shl(amount(s[0], 4, 16)), c); }};
  case Op::V_LSHRREV_B16:
    return OpDef{Op::V_LSHRREV_B16, "v_lshrrev_b16", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return widen16(s[1].trunc(16).lshr(amount(s[0], 4, 16)), c); }};
  case Op::V_ASHRREV_I16:
    return OpDef{Op::V_ASHRREV_I16, "v_ashrrev_i16", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return widen16(s[1].trunc(16).ashr(amount(s[0], 4, 16)), c); }};
  case Op::V_LSHLREV_B64:
    return OpDef{Op::V_LSHLREV_B64, "v_lshlrev_b64", E::VOP3, SL::V64, {SL::V32, SL::V64}, false, vega,
        [](const S &s, const Ctx &) { return s[1].shl(amount(s[0], 6, 64)); }};
  case Op::V_LSHRREV_B64:
    return OpDef{Op::V_LSHRREV_B64, "v_lshrrev_b64", E::VOP3, SL::V64, {SL::V32, SL::V64}, false, vega,
        [](const S &s, const Ctx &) { return s[1].lshr(amount(s[0], 6, 64)); }};
  case Op::V_ASHRREV_I64:
    return OpDef{Op::V_ASHRREV_I64, "v_ashrrev_i64", E::VOP3, SL::V64, {SL::V32, SL::V64}, false, vega,
        [](const S &s, const Ctx &) { return s[1].ashr(amount(s[0], 6, 64)); }};
  case Op::V_MIN_U32:
    return OpDef{Op::V_MIN_U32, "v_min_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0].umin(s[1]); }};
  // D = S0 - S1 (no carry out; v_sub_nc_u32 on gfx10+)
  case Op::V_SUB_U32:
    return OpDef{Op::V_SUB_U32, "v_sub_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0] - s[1]; }};
  // With the VOP3 clamp bit an unsigned subtract saturates at 0 (LLVM selects
  // it for llvm.usub.sat; Vega ISA 6.1 "clamp"): D = S0 > S1 ? S0 - S1 : 0.
  case Op::V_SUB_U32_CLAMP:
    return OpDef{Op::V_SUB_U32_CLAMP, "v_sub_u32_e64", E::VOP3, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return BV::ite(s[1].ult(s[0]), s[0] - s[1], s[0].lit(0)); },
        " clamp"};
  case Op::V_CMP_EQ_U32:
    return OpDef{Op::V_CMP_EQ_U32, "v_cmp_eq_u32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].eq(s[1]), c); }};
  case Op::V_CMP_NE_U32:
    return OpDef{Op::V_CMP_NE_U32, "v_cmp_ne_u32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].ne(s[1]), c); }};
  // S0 > S1
  case Op::V_CMP_GT_U32:
    return OpDef{Op::V_CMP_GT_U32, "v_cmp_gt_u32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[1].ult(s[0]), c); }};
  case Op::V_CMP_EQ_U16:
    return OpDef{Op::V_CMP_EQ_U16, "v_cmp_eq_u16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].trunc(16).eq(s[1].trunc(16)), c); }};
  case Op::V_CMP_EQ_U64:
    return OpDef{Op::V_CMP_EQ_U64, "v_cmp_eq_u64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, true, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].eq(s[1]), c); }};
  // D = mask[lane] ? S1 : S0
  case Op::V_CNDMASK_B32:
    return OpDef{Op::V_CNDMASK_B32, "v_cndmask_b32", E::VOP2, SL::V32, {SL::V32, SL::V32, SL::Mask}, false, vega,
        [](const S &s, const Ctx &) { return BV::ite(s[2], s[1], s[0]); }};
  // RDNA3 ISA 7.6 "VOPD": X and Y v_cndmask_b32 issued together; both read VCC.
  // Modelled on the pair they write: each half selects like v_cndmask_b32.
  case Op::V_DUAL_CNDMASK_PAIR:
    return OpDef{Op::V_DUAL_CNDMASK_PAIR, "v_dual_cndmask_b32", E::VOP2, SL::V64, {SL::V64, SL::V64, SL::Mask}, false,
        "RDNA3 ISA 7.6 VOPD (dual issue)",
        [](const S &s, const Ctx &) { return BV::ite(s[2], s[1], s[0]); }};
  // Vega ISA 6.3 "SDWA": src1_sel:WORD_0 takes S1[15:0] zero-extended.
  case Op::V_LSHRREV_B32_SDWA_W0:
    return OpDef{Op::V_LSHRREV_B32_SDWA_W0, "v_lshrrev_b32_sdwa", E::VOP2, SL::V32, {SL::V32, SL::V32}, false,
        "Vega ISA 6.3 SDWA",
        [](const S &s, const Ctx &) { return s[1].trunc(16).zext(32).lshr(amount(s[0], 5, 32)); },
        " dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0"};
  // SALU on lane masks: s_*_b64 in wave64, s_*_b32 in wave32 (SOP2/SOP1).
  case Op::S_AND_MASK:
    return OpDef{Op::S_AND_MASK, "s_and_b64", E::SOP2, SL::Mask, {SL::Mask, SL::Mask}, true, vega,
        [](const S &s, const Ctx &) { return s[0] & s[1]; }};
  case Op::S_OR_MASK:
    return OpDef{Op::S_OR_MASK, "s_or_b64", E::SOP2, SL::Mask, {SL::Mask, SL::Mask}, true, vega,
        [](const S &s, const Ctx &) { return s[0] | s[1]; }};
  case Op::S_XOR_MASK:
    return OpDef{Op::S_XOR_MASK, "s_xor_b64", E::SOP2, SL::Mask, {SL::Mask, SL::Mask}, true, vega,
        [](const S &s, const Ctx &) { return s[0] ^ s[1]; }};
  case Op::S_ANDN2_MASK:
    return OpDef{Op::S_ANDN2_MASK, "s_andn2_b64", E::SOP2, SL::Mask, {SL::Mask, SL::Mask}, false, vega,
        [](const S &s, const Ctx &) { return s[0] & ~s[1]; }};
  case Op::S_ORN2_MASK:
    return OpDef{Op::S_ORN2_MASK, "s_orn2_b64", E::SOP2, SL::Mask, {SL::Mask, SL::Mask}, false, vega,
        [](const S &s, const Ctx &) { return s[0] | ~s[1]; }};
  case Op::S_MOV_MASK:
    return OpDef{Op::S_MOV_MASK, "s_mov_b64", E::SOP1, SL::Mask, {SL::Mask}, false, vega,
        [](const S &s, const Ctx &) { return s[0]; }};
  // ---- bit manipulation
  // D.b[i] = sel(S2.b[i]) over the bytes of {S0,S1} (S1 = bytes 0-3):
  // 0-7 a byte, 8-11 the sign of byte 1/3/5/7 replicated, 12 zero, >= 13 0xff.
  case Op::V_PERM_B32:
    return OpDef{Op::V_PERM_B32, "v_perm_b32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return permBytes(s[0], s[1], s[2]); }};
  // D = sign-extend((S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1)) from S2[4:0] bits; 0 for width 0.
  case Op::V_BFE_I32:
    return OpDef{Op::V_BFE_I32, "v_bfe_i32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        BV width = amount(s[2], 5, 32);
        BV field = s[0].lshr(amount(s[1], 5, 32)) & (s[0].lit(1).shl(width) - s[0].lit(1));
        BV up = s[0].lit(32) - width; // width 0: shift by 32 gives 0 either way
        return BV::ite(width.eq(width.lit(0)), width.lit(0), field.shl(up).ashr(up));
        }};
  // D = ((1 << S0[4:0]) - 1) << S1[4:0]
  case Op::V_BFM_B32:
    return OpDef{Op::V_BFM_B32, "v_bfm_b32", E::VOP3, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        return (s[0].lit(1).shl(amount(s[0], 5, 32)) - s[0].lit(1)).shl(amount(s[1], 5, 32));
        }};
  case Op::V_BFREV_B32:
    return OpDef{Op::V_BFREV_B32, "v_bfrev_b32", E::VOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return reverseBits(s[0]); }};
  // D = popcount(S0) + S1
  case Op::V_BCNT_U32_B32:
    return OpDef{Op::V_BCNT_U32_B32, "v_bcnt_u32_b32", E::VOP3, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return sem::popcount(s[0]) + s[1]; }};
  // Leading zeros from the msb; 0xffffffff for 0 (gfx11+: v_clz_i32_u32).
  case Op::V_FFBH_U32:
    return OpDef{Op::V_FFBH_U32, "v_ffbh_u32", E::VOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return firstBitHigh(s[0]); }};
  // Trailing zeros; 0xffffffff for 0 (gfx11+: v_ctz_i32_b32).
  case Op::V_FFBL_B32:
    return OpDef{Op::V_FFBL_B32, "v_ffbl_b32", E::VOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return firstBitLow(s[0]); }};
  // Leading bits equal to the sign, from bit 30 down, as a count from the msb;
  // 0xffffffff when all bits are equal (gfx11+: v_cls_i32).
  case Op::V_FFBH_I32:
    return OpDef{Op::V_FFBH_I32, "v_ffbh_i32", E::VOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        BV x = BV::ite(s[0].extract(31, 31), ~s[0], s[0]);
        BV r = firstBitHigh(x); // position counted from the msb, or -1 if x == 0
        return r;
        }};
  case Op::V_ADD_U32:
    return OpDef{Op::V_ADD_U32, "v_add_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] + s[1]; }};
  // D = S1 - S0
  case Op::V_SUBREV_U32:
    return OpDef{Op::V_SUBREV_U32, "v_subrev_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[1] - s[0]; }};
  case Op::V_MAX_U32:
    return OpDef{Op::V_MAX_U32, "v_max_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return BV::ite(s[0].ult(s[1]), s[1], s[0]); }};
  case Op::V_MIN_I32:
    return OpDef{Op::V_MIN_I32, "v_min_i32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return BV::ite(slt(s[0], s[1]), s[0], s[1]); }};
  case Op::V_MAX_I32:
    return OpDef{Op::V_MAX_I32, "v_max_i32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return BV::ite(slt(s[0], s[1]), s[1], s[0]); }};
  // Median of three (unsigned).
  case Op::V_MED3_U32:
    return OpDef{Op::V_MED3_U32, "v_med3_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        BV lo = s[0].umin(s[1]), hi = BV::ite(s[0].ult(s[1]), s[1], s[0]);
        return BV::ite(s[2].ult(lo), lo, BV::ite(hi.ult(s[2]), hi, s[2]));
        }};
  // Median of three (signed): a clamp to [lo, hi] when lo <= hi.
  case Op::V_MED3_I32:
    return OpDef{Op::V_MED3_I32, "v_med3_i32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
        BV lo = BV::ite(slt(s[0], s[1]), s[0], s[1]), hi = BV::ite(slt(s[0], s[1]), s[1], s[0]);
        return BV::ite(slt(s[2], lo), lo, BV::ite(slt(hi, s[2]), hi, s[2]));
        }};
  case Op::V_MIN3_U32:
    return OpDef{Op::V_MIN3_U32, "v_min3_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].umin(s[1]).umin(s[2]); }};
  case Op::V_ADD3_U32:
    return OpDef{Op::V_ADD3_U32, "v_add3_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0] + s[1] + s[2]; }};
  // D = (S0 << S1[4:0]) + S2
  case Op::V_LSHL_ADD_U32:
    return OpDef{Op::V_LSHL_ADD_U32, "v_lshl_add_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].shl(amount(s[1], 5, 32)) + s[2]; }};
  // D = (S0 + S1) << S2[4:0]
  case Op::V_ADD_LSHL_U32:
    return OpDef{Op::V_ADD_LSHL_U32, "v_add_lshl_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return (s[0] + s[1]).shl(amount(s[2], 5, 32)); }};
  // D = (S0 ^ S1) + S2
  case Op::V_XAD_U32:
    return OpDef{Op::V_XAD_U32, "v_xad_u32", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return (s[0] ^ s[1]) + s[2]; }};
  // Compares: D = S0 op S1 (in active lanes).
  case Op::V_CMP_LT_U32:
    return OpDef{Op::V_CMP_LT_U32, "v_cmp_lt_u32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].ult(s[1]), c); }};
  case Op::V_CMP_LE_U32:
    return OpDef{Op::V_CMP_LE_U32, "v_cmp_le_u32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].ule(s[1]), c); }};
  case Op::V_CMP_GE_U32:
    return OpDef{Op::V_CMP_GE_U32, "v_cmp_ge_u32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[1].ule(s[0]), c); }};
  case Op::V_CMP_LT_I32:
    return OpDef{Op::V_CMP_LT_I32, "v_cmp_lt_i32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(slt(s[0], s[1]), c); }};
  case Op::V_CMP_GT_I32:
    return OpDef{Op::V_CMP_GT_I32, "v_cmp_gt_i32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(slt(s[1], s[0]), c); }};
  case Op::V_CMP_NE_U64:
    return OpDef{Op::V_CMP_NE_U64, "v_cmp_ne_u64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, true, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].ne(s[1]), c); }};
  case Op::V_CMP_GT_U64:
    return OpDef{Op::V_CMP_GT_U64, "v_cmp_gt_u64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[1].ult(s[0]), c); }};
  case Op::V_CMP_LT_U64:
    return OpDef{Op::V_CMP_LT_U64, "v_cmp_lt_u64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].ult(s[1]), c); }};
  // D = low / high 32 bits of S0 * S1 (VOP3 only; one product definition
  // with PTX mul, see sem::mulWide).
  case Op::V_MUL_LO_U32:
    return OpDef{Op::V_MUL_LO_U32, "v_mul_lo_u32", E::VOP3, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], false).trunc(32); }};
  case Op::V_MUL_HI_U32:
    return OpDef{Op::V_MUL_HI_U32, "v_mul_hi_u32", E::VOP3, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], false).extract(63, 32); }};
  case Op::V_MUL_HI_I32:
    return OpDef{Op::V_MUL_HI_I32, "v_mul_hi_i32", E::VOP3, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], true).extract(63, 32); }};
  // Carry chains (Vega ISA 12.7 "V_ADD_CO_U32: D = S0 + S1, VCC = carry
  // out"; V_ADDC_CO_U32 adds VCC as carry in; the SUB forms borrow). A
  // lane outside EXEC writes 0 to its VCC bit, as compares do.
  case Op::V_ADD_CO_U32:
    return OpDef{Op::V_ADD_CO_U32, "v_add_co_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &c) { return carryResult(s[0].zext(33) + s[1].zext(33), c); }, "", true};
  case Op::V_ADDC_CO_U32:
    return OpDef{Op::V_ADDC_CO_U32, "v_addc_co_u32", E::VOP2, SL::V32, {SL::V32, SL::V32, SL::Mask}, true, vega,
        [](const S &s, const Ctx &c) { return carryResult(s[0].zext(33) + s[1].zext(33) + s[2].zext(33), c); }, "",
        true};
  case Op::V_SUB_CO_U32:
    return OpDef{Op::V_SUB_CO_U32, "v_sub_co_u32", E::VOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return carryResult(s[0].zext(33) - s[1].zext(33), c); }, "", true};
  case Op::V_SUBB_CO_U32:
    return OpDef{Op::V_SUBB_CO_U32, "v_subb_co_u32", E::VOP2, SL::V32, {SL::V32, SL::V32, SL::Mask}, false, vega,
        [](const S &s, const Ctx &c) { return carryResult(s[0].zext(33) - s[1].zext(33) - s[2].zext(33), c); }, "",
        true};
  // The remaining integer compares setp needs (Vega ISA 12.8 VOPC).
  case Op::V_CMP_LE_I32:
    return OpDef{Op::V_CMP_LE_I32, "v_cmp_le_i32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(~slt(s[1], s[0]), c); }};
  case Op::V_CMP_GE_I32:
    return OpDef{Op::V_CMP_GE_I32, "v_cmp_ge_i32", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(~slt(s[0], s[1]), c); }};
  case Op::V_CMP_LE_U64:
    return OpDef{Op::V_CMP_LE_U64, "v_cmp_le_u64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[0].ule(s[1]), c); }};
  case Op::V_CMP_GE_U64:
    return OpDef{Op::V_CMP_GE_U64, "v_cmp_ge_u64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(s[1].ule(s[0]), c); }};
  case Op::V_CMP_LT_I64:
    return OpDef{Op::V_CMP_LT_I64, "v_cmp_lt_i64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(slt(s[0], s[1]), c); }};
  case Op::V_CMP_LE_I64:
    return OpDef{Op::V_CMP_LE_I64, "v_cmp_le_i64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(~slt(s[1], s[0]), c); }};
  case Op::V_CMP_GT_I64:
    return OpDef{Op::V_CMP_GT_I64, "v_cmp_gt_i64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(slt(s[1], s[0]), c); }};
  case Op::V_CMP_GE_I64:
    return OpDef{Op::V_CMP_GE_I64, "v_cmp_ge_i64", E::VOPC, SL::Mask, {SL::V64, SL::V64}, false, vega,
        [](const S &s, const Ctx &c) { return compareResult(~slt(s[0], s[1]), c); }};
  // Memory: Vega ISA 9 "Flat, Scratch and Global instructions", 5 "Scalar
  // memory". Their effect is in validation/amdgpu_emulator.cpp.
  case Op::GLOBAL_LOAD_U8:
    return OpDef{Op::GLOBAL_LOAD_U8, "global_load_ubyte", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_I8:
    return OpDef{Op::GLOBAL_LOAD_I8, "global_load_sbyte", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_U16:
    return OpDef{Op::GLOBAL_LOAD_U16, "global_load_ushort", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_I16:
    return OpDef{Op::GLOBAL_LOAD_I16, "global_load_sshort", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_B32:
    return OpDef{Op::GLOBAL_LOAD_B32, "global_load_dword", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_B64:
    return OpDef{Op::GLOBAL_LOAD_B64, "global_load_dwordx2", E::VMEM, SL::V64, {SL::V64, SL::V32}, false, "Vega ISA 9",
        nullptr};
  case Op::GLOBAL_STORE_B8:
    return OpDef{Op::GLOBAL_STORE_B8, "global_store_byte", E::VMEM, SL::None, {SL::V64, SL::V32, SL::V32}, false, "Vega ISA 9",
        nullptr};
  case Op::GLOBAL_STORE_B16:
    return OpDef{Op::GLOBAL_STORE_B16, "global_store_short", E::VMEM, SL::None, {SL::V64, SL::V32, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_STORE_B32:
    return OpDef{Op::GLOBAL_STORE_B32, "global_store_dword", E::VMEM, SL::None, {SL::V64, SL::V32, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_STORE_B64:
    return OpDef{Op::GLOBAL_STORE_B64, "global_store_dwordx2", E::VMEM, SL::None, {SL::V64, SL::V64, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::S_LOAD_B32:
    return OpDef{Op::S_LOAD_B32, "s_load_dword", E::SMEM, SL::Sgprs, {SL::Sgprs, SL::V32}, false, "Vega ISA 5", nullptr};
  case Op::S_LOAD_B64:
    return OpDef{Op::S_LOAD_B64, "s_load_dwordx2", E::SMEM, SL::Sgprs, {SL::Sgprs, SL::V32}, false, "Vega ISA 5", nullptr};
  case Op::S_LOAD_B128:
    return OpDef{Op::S_LOAD_B128, "s_load_dwordx4", E::SMEM, SL::Sgprs, {SL::Sgprs, SL::V32}, false, "Vega ISA 5", nullptr};
  case Op::S_LOAD_B256:
    return OpDef{Op::S_LOAD_B256, "s_load_dwordx8", E::SMEM, SL::Sgprs, {SL::Sgprs, SL::V32}, false, "Vega ISA 5", nullptr};
  // LDS (Vega ISA 10 "Data share operations"): address = vaddr + offset (16 bits).
  case Op::DS_READ_U8:
    return OpDef{Op::DS_READ_U8, "ds_read_u8", E::DS, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_READ_I8:
    return OpDef{Op::DS_READ_I8, "ds_read_i8", E::DS, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_READ_U16:
    return OpDef{Op::DS_READ_U16, "ds_read_u16", E::DS, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_READ_I16:
    return OpDef{Op::DS_READ_I16, "ds_read_i16", E::DS, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_READ_B32:
    return OpDef{Op::DS_READ_B32, "ds_read_b32", E::DS, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_READ_B64:
    return OpDef{Op::DS_READ_B64, "ds_read_b64", E::DS, SL::V64, {SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_WRITE_B8:
    return OpDef{Op::DS_WRITE_B8, "ds_write_b8", E::DS, SL::None, {SL::V32, SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_WRITE_B16:
    return OpDef{Op::DS_WRITE_B16, "ds_write_b16", E::DS, SL::None, {SL::V32, SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_WRITE_B32:
    return OpDef{Op::DS_WRITE_B32, "ds_write_b32", E::DS, SL::None, {SL::V32, SL::V32, SL::V32}, false, "Vega ISA 10", nullptr};
  case Op::DS_WRITE_B64:
    return OpDef{Op::DS_WRITE_B64, "ds_write_b64", E::DS, SL::None, {SL::V32, SL::V64, SL::V32}, false, "Vega ISA 10", nullptr};
  // D = S0[23:0] * S1[23:0]: bits 31..0 of the 48-bit product, or (the
  // _hi forms) bits 47..32, sign-extended for the _i24 forms. One product
  // definition with PTX mul24 (sem::mulWide of the 24-bit values).
  case Op::V_MUL_U32_U24:
    return OpDef{Op::V_MUL_U32_U24, "v_mul_u32_u24", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return mul24(s[0], s[1], false).extract(31, 0); }};
  case Op::V_MUL_HI_U32_U24:
    return OpDef{Op::V_MUL_HI_U32_U24, "v_mul_hi_u32_u24", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return mul24(s[0], s[1], false).extract(63, 32); }};
  case Op::V_MUL_I32_I24:
    return OpDef{Op::V_MUL_I32_I24, "v_mul_i32_i24", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return mul24(s[0], s[1], true).extract(31, 0); }};
  case Op::V_MUL_HI_I32_I24:
    return OpDef{Op::V_MUL_HI_I32_I24, "v_mul_hi_i32_i24", E::VOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return mul24(s[0], s[1], true).extract(63, 32); }};
  case Op::V_MAD_U32_U24:
    return OpDef{Op::V_MAD_U32_U24, "v_mad_u32_u24", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return mul24(s[0], s[1], false).extract(31, 0) + s[2]; }};
  case Op::V_MAD_I32_I24:
    return OpDef{Op::V_MAD_I32_I24, "v_mad_i32_i24", E::VOP3, SL::V32, {SL::V32, SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return mul24(s[0], s[1], true).extract(31, 0) + s[2]; }};
  // D = S0 * S1 + S2 as 64-bit values (Vega ISA 12.7 "V_MAD_U64_U32";
  // gfx12 spells it v_mad_co_u64_u32). Its carry mask goes to VCC, which
  // no rule reads afterwards (clobbersVcc).
  case Op::V_MAD_U64_U32:
    return OpDef{Op::V_MAD_U64_U32, "v_mad_u64_u32", E::VOP3, SL::V64, {SL::V32, SL::V32, SL::V64}, false, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], false) + s[2]; }, "", false, true};
  case Op::V_SUBBREV_CO_U32:
    return OpDef{Op::V_SUBBREV_CO_U32, "v_subbrev_co_u32", E::VOP2, SL::V32, {SL::V32, SL::V32, SL::Mask}, false, vega,
        [](const S &s, const Ctx &c) { return carryResult(s[1].zext(33) - s[0].zext(33) - s[2].zext(33), c); }, "",
        true};
  case Op::V_MOV_B64:
    return OpDef{Op::V_MOV_B64, "v_mov_b64", E::VOP1, SL::V64, {SL::V64}, false, "CDNA3 ISA V_MOV_B64",
        [](const S &s, const Ctx &) { return s[0]; }};
  case Op::V_LSHL_ADD_U64:
    return OpDef{Op::V_LSHL_ADD_U64, "v_lshl_add_u64", E::VOP3, SL::V64, {SL::V64, SL::V32, SL::V64}, false,
        "CDNA3 ISA V_LSHL_ADD_U64",
        [](const S &s, const Ctx &) { return s[0].shl(amount(s[1], 3, 64)) + s[2]; }};
  case Op::V_MAD_I64_I32:
    return OpDef{Op::V_MAD_I64_I32, "v_mad_i64_i32", E::VOP3, SL::V64, {SL::V32, SL::V32, SL::V64}, false, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], true) + s[2]; }, "", false, true};
  case Op::SCRATCH_LOAD_U8:
    return OpDef{Op::SCRATCH_LOAD_U8, "scratch_load_ubyte", E::VMEM, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::SCRATCH_LOAD_I8:
    return OpDef{Op::SCRATCH_LOAD_I8, "scratch_load_sbyte", E::VMEM, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::SCRATCH_LOAD_U16:
    return OpDef{Op::SCRATCH_LOAD_U16, "scratch_load_ushort", E::VMEM, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::SCRATCH_LOAD_I16:
    return OpDef{Op::SCRATCH_LOAD_I16, "scratch_load_sshort", E::VMEM, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::SCRATCH_LOAD_B32:
    return OpDef{Op::SCRATCH_LOAD_B32, "scratch_load_dword", E::VMEM, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::SCRATCH_LOAD_B64:
    return OpDef{Op::SCRATCH_LOAD_B64, "scratch_load_dwordx2", E::VMEM, SL::V64, {SL::V32, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::SCRATCH_STORE_B8:
    return OpDef{Op::SCRATCH_STORE_B8, "scratch_store_byte", E::VMEM, SL::None, {SL::V32, SL::V32, SL::V32}, false, "Vega ISA 9",
        nullptr};
  case Op::SCRATCH_STORE_B16:
    return OpDef{Op::SCRATCH_STORE_B16, "scratch_store_short", E::VMEM, SL::None, {SL::V32, SL::V32, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::SCRATCH_STORE_B32:
    return OpDef{Op::SCRATCH_STORE_B32, "scratch_store_dword", E::VMEM, SL::None, {SL::V32, SL::V32, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::SCRATCH_STORE_B64:
    return OpDef{Op::SCRATCH_STORE_B64, "scratch_store_dwordx2", E::VMEM, SL::None, {SL::V32, SL::V64, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_U8_SADDR:
    return OpDef{Op::GLOBAL_LOAD_U8_SADDR, "global_load_ubyte", E::VMEM, SL::V32, {SL::V32, SL::Sgprs, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_I8_SADDR:
    return OpDef{Op::GLOBAL_LOAD_I8_SADDR, "global_load_sbyte", E::VMEM, SL::V32, {SL::V32, SL::Sgprs, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_U16_SADDR:
    return OpDef{Op::GLOBAL_LOAD_U16_SADDR, "global_load_ushort", E::VMEM, SL::V32, {SL::V32, SL::Sgprs, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_I16_SADDR:
    return OpDef{Op::GLOBAL_LOAD_I16_SADDR, "global_load_sshort", E::VMEM, SL::V32, {SL::V32, SL::Sgprs, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_B32_SADDR:
    return OpDef{Op::GLOBAL_LOAD_B32_SADDR, "global_load_dword", E::VMEM, SL::V32, {SL::V32, SL::Sgprs, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_LOAD_B64_SADDR:
    return OpDef{Op::GLOBAL_LOAD_B64_SADDR, "global_load_dwordx2", E::VMEM, SL::V64, {SL::V32, SL::Sgprs, SL::V32}, false,
        "Vega ISA 9", nullptr};
  case Op::GLOBAL_STORE_B8_SADDR:
    return OpDef{Op::GLOBAL_STORE_B8_SADDR, "global_store_byte", E::VMEM, SL::None, {SL::V32, SL::V32, SL::Sgprs, SL::V32},
        false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_STORE_B16_SADDR:
    return OpDef{Op::GLOBAL_STORE_B16_SADDR, "global_store_short", E::VMEM, SL::None, {SL::V32, SL::V32, SL::Sgprs, SL::V32},
        false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_STORE_B32_SADDR:
    return OpDef{Op::GLOBAL_STORE_B32_SADDR, "global_store_dword", E::VMEM, SL::None, {SL::V32, SL::V32, SL::Sgprs, SL::V32},
        false, "Vega ISA 9", nullptr};
  case Op::GLOBAL_STORE_B64_SADDR:
    return OpDef{Op::GLOBAL_STORE_B64_SADDR, "global_store_dwordx2", E::VMEM, SL::None, {SL::V32, SL::V64, SL::Sgprs, SL::V32},
        false, "Vega ISA 9", nullptr};
  case Op::FLAT_LOAD_U8:
    return OpDef{Op::FLAT_LOAD_U8, "flat_load_ubyte", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::FLAT_LOAD_I8:
    return OpDef{Op::FLAT_LOAD_I8, "flat_load_sbyte", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::FLAT_LOAD_U16:
    return OpDef{Op::FLAT_LOAD_U16, "flat_load_ushort", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::FLAT_LOAD_I16:
    return OpDef{Op::FLAT_LOAD_I16, "flat_load_sshort", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::FLAT_LOAD_B32:
    return OpDef{Op::FLAT_LOAD_B32, "flat_load_dword", E::VMEM, SL::V32, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::FLAT_LOAD_B64:
    return OpDef{Op::FLAT_LOAD_B64, "flat_load_dwordx2", E::VMEM, SL::V64, {SL::V64, SL::V32}, false, "Vega ISA 9", nullptr};
  case Op::FLAT_STORE_B8:
    return OpDef{Op::FLAT_STORE_B8, "flat_store_byte", E::VMEM, SL::None, {SL::V64, SL::V32, SL::V32}, false, "Vega ISA 9",
        nullptr};
  case Op::FLAT_STORE_B16:
    return OpDef{Op::FLAT_STORE_B16, "flat_store_short", E::VMEM, SL::None, {SL::V64, SL::V32, SL::V32}, false, "Vega ISA 9",
        nullptr};
  case Op::FLAT_STORE_B32:
    return OpDef{Op::FLAT_STORE_B32, "flat_store_dword", E::VMEM, SL::None, {SL::V64, SL::V32, SL::V32}, false, "Vega ISA 9",
        nullptr};
  case Op::FLAT_STORE_B64:
    return OpDef{Op::FLAT_STORE_B64, "flat_store_dwordx2", E::VMEM, SL::None, {SL::V64, SL::V64, SL::V32}, false, "Vega ISA 9",
        nullptr};
  // ---- scalar ALU on uniform values (Vega ISA 12.2 SOP2 / 12.3 SOP1;
  // RDNA3 ISA 16.1-16.2; gfx12 spells the adds s_add_co_i32/s_sub_co_i32).
  // Shifts read S1[4:0] (S1[5:0] for 64 bits); SCC is written by most
  // and read by none of the rules, so it is not modelled here.
  case Op::S_ADD_I32:
    return OpDef{Op::S_ADD_I32, "s_add_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] + s[1]; }};
  case Op::S_SUB_I32:
    return OpDef{Op::S_SUB_I32, "s_sub_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0] - s[1]; }};
  case Op::S_MUL_I32:
    return OpDef{Op::S_MUL_I32, "s_mul_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], false).trunc(32); }};
  case Op::S_MUL_HI_U32:
    return OpDef{Op::S_MUL_HI_U32, "s_mul_hi_u32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], false).extract(63, 32); }};
  case Op::S_MUL_HI_I32:
    return OpDef{Op::S_MUL_HI_I32, "s_mul_hi_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return sem::mulWide(s[0], s[1], true).extract(63, 32); }};
  case Op::S_AND_B32:
    return OpDef{Op::S_AND_B32, "s_and_b32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] & s[1]; }};
  case Op::S_OR_B32:
    return OpDef{Op::S_OR_B32, "s_or_b32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] | s[1]; }};
  case Op::S_XOR_B32:
    return OpDef{Op::S_XOR_B32, "s_xor_b32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0] ^ s[1]; }};
  case Op::S_NOT_B32:
    return OpDef{Op::S_NOT_B32, "s_not_b32", E::SOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return ~s[0]; }};
  case Op::S_SEXT_I32_I16:
    return OpDef{Op::S_SEXT_I32_I16, "s_sext_i32_i16", E::SOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].trunc(16).sext(32); }};
  case Op::S_LSHL_B32:
    return OpDef{Op::S_LSHL_B32, "s_lshl_b32", E::SOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].shl(amount(s[1], 5, 32)); }};
  case Op::S_LSHR_B32:
    return OpDef{Op::S_LSHR_B32, "s_lshr_b32", E::SOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].lshr(amount(s[1], 5, 32)); }};
  case Op::S_ASHR_I32:
    return OpDef{Op::S_ASHR_I32, "s_ashr_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].ashr(amount(s[1], 5, 32)); }};
  case Op::S_MIN_U32:
    return OpDef{Op::S_MIN_U32, "s_min_u32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return s[0].umin(s[1]); }};
  case Op::S_MIN_I32:
    return OpDef{Op::S_MIN_I32, "s_min_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return BV::ite(slt(s[0], s[1]), s[0], s[1]); }};
  case Op::S_MAX_U32:
    return OpDef{Op::S_MAX_U32, "s_max_u32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return BV::ite(s[0].ult(s[1]), s[1], s[0]); }};
  case Op::S_MAX_I32:
    return OpDef{Op::S_MAX_I32, "s_max_i32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &) { return BV::ite(slt(s[0], s[1]), s[1], s[0]); }};
  case Op::S_MOV_B32:
    return OpDef{Op::S_MOV_B32, "s_mov_b32", E::SOP1, SL::V32, {SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0]; }};
  case Op::S_FF1_I32_B64:
  case Op::S_FF1_I32_B32: {
    const bool wide = op == Op::S_FF1_I32_B64;
    return OpDef{op, wide ? "s_ff1_i32_b64" : "s_ff1_i32_b32", E::SOP1, SL::V32, {wide ? SL::V64 : SL::V32}, false, vega,
        [](const S &s, const Ctx &) {
          BV r = BV::constant(32, 0xffffffffu);
          for (unsigned i = s[0].width(); i-- > 0;)
            r = BV::ite(s[0].extract(i, i), BV::constant(32, i), r);
          return r;
        }};
  }
  case Op::S_LSHL_B64:
    return OpDef{Op::S_LSHL_B64, "s_lshl_b64", E::SOP2, SL::V64, {SL::V64, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].shl(amount(s[1], 6, 64)); }};
  case Op::S_LSHR_B64:
    return OpDef{Op::S_LSHR_B64, "s_lshr_b64", E::SOP2, SL::V64, {SL::V64, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].lshr(amount(s[1], 6, 64)); }};
  case Op::S_ASHR_I64:
    return OpDef{Op::S_ASHR_I64, "s_ashr_i64", E::SOP2, SL::V64, {SL::V64, SL::V32}, false, vega,
        [](const S &s, const Ctx &) { return s[0].ashr(amount(s[1], 6, 64)); }};
  // ---- scalar compares (Vega ISA 12.4 SOPC; RDNA3 ISA 16.3): SCC = S0 op S1.
  case Op::S_CMP_EQ_U32:
    return OpDef{Op::S_CMP_EQ_U32, "s_cmp_eq_u32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, true, sopc,
        [](const S &s, const Ctx &) { return s[0].eq(s[1]); }};
  case Op::S_CMP_LG_U32:
    return OpDef{Op::S_CMP_LG_U32, "s_cmp_lg_u32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, true, sopc,
        [](const S &s, const Ctx &) { return ~s[0].eq(s[1]); }};
  case Op::S_CMP_GT_U32:
    return OpDef{Op::S_CMP_GT_U32, "s_cmp_gt_u32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return s[1].ult(s[0]); }};
  case Op::S_CMP_GE_U32:
    return OpDef{Op::S_CMP_GE_U32, "s_cmp_ge_u32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return ~s[0].ult(s[1]); }};
  case Op::S_CMP_LT_U32:
    return OpDef{Op::S_CMP_LT_U32, "s_cmp_lt_u32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return s[0].ult(s[1]); }};
  case Op::S_CMP_LE_U32:
    return OpDef{Op::S_CMP_LE_U32, "s_cmp_le_u32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return ~s[1].ult(s[0]); }};
  case Op::S_CMP_GT_I32:
    return OpDef{Op::S_CMP_GT_I32, "s_cmp_gt_i32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return slt(s[1], s[0]); }};
  case Op::S_CMP_GE_I32:
    return OpDef{Op::S_CMP_GE_I32, "s_cmp_ge_i32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return ~slt(s[0], s[1]); }};
  case Op::S_CMP_LT_I32:
    return OpDef{Op::S_CMP_LT_I32, "s_cmp_lt_i32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return slt(s[0], s[1]); }};
  case Op::S_CMP_LE_I32:
    return OpDef{Op::S_CMP_LE_I32, "s_cmp_le_i32", E::SOPC, SL::Scc, {SL::V32, SL::V32}, false, sopc,
        [](const S &s, const Ctx &) { return ~slt(s[1], s[0]); }};
  case Op::S_CMP_EQ_U64:
    return OpDef{Op::S_CMP_EQ_U64, "s_cmp_eq_u64", E::SOPC, SL::Scc, {SL::V64, SL::V64}, true, sopc,
        [](const S &s, const Ctx &) { return s[0].eq(s[1]); }};
  case Op::S_CMP_LG_U64:
    return OpDef{Op::S_CMP_LG_U64, "s_cmp_lg_u64", E::SOPC, SL::Scc, {SL::V64, SL::V64}, true, sopc,
        [](const S &s, const Ctx &) { return ~s[0].eq(s[1]); }};
  // s_cselect_b64 in wave64, s_cselect_b32 in wave32; SCC is the last source.
  case Op::S_CSELECT_MASK:
    return OpDef{Op::S_CSELECT_MASK, "s_cselect_b64", E::SOP2, SL::Mask, {SL::Mask, SL::Mask, SL::Scc}, false,
        "Vega ISA 12.2 S_CSELECT_B64",
        [](const S &s, const Ctx &) { return BV::ite(s[2], s[0], s[1]); }};
  // 33-bit sums: bit 32 is the carry, for SCC (the same for every lane).
  case Op::S_ADD_U32:
    return OpDef{Op::S_ADD_U32, "s_add_u32", E::SOP2, SL::V32, {SL::V32, SL::V32}, true, "Vega ISA 12.2 S_ADD_U32",
        [](const S &s, const Ctx &) { return s[0].zext(33) + s[1].zext(33); }, "", false, false, true};
  case Op::S_ADDC_U32:
    return OpDef{Op::S_ADDC_U32, "s_addc_u32", E::SOP2, SL::V32, {SL::V32, SL::V32, SL::Scc}, true, "Vega ISA 12.2 S_ADDC_U32",
        [](const S &s, const Ctx &) { return s[0].zext(33) + s[1].zext(33) + s[2].zext(33); }, "", false, false, true};
  case Op::V_CMP_NE_U16:
    return OpDef{Op::V_CMP_NE_U16, "v_cmp_ne_u16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, true, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(a.ne(b), c);
        }};
  case Op::V_CMP_LT_U16:
    return OpDef{Op::V_CMP_LT_U16, "v_cmp_lt_u16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(a.ult(b), c);
        }};
  case Op::V_CMP_LE_U16:
    return OpDef{Op::V_CMP_LE_U16, "v_cmp_le_u16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(a.ule(b), c);
        }};
  case Op::V_CMP_GT_U16:
    return OpDef{Op::V_CMP_GT_U16, "v_cmp_gt_u16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(b.ult(a), c);
        }};
  case Op::V_CMP_GE_U16:
    return OpDef{Op::V_CMP_GE_U16, "v_cmp_ge_u16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(b.ule(a), c);
        }};
  case Op::V_CMP_LT_I16:
    return OpDef{Op::V_CMP_LT_I16, "v_cmp_lt_i16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(slt(a, b), c);
        }};
  case Op::V_CMP_LE_I16:
    return OpDef{Op::V_CMP_LE_I16, "v_cmp_le_i16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(~slt(b, a), c);
        }};
  case Op::V_CMP_GT_I16:
    return OpDef{Op::V_CMP_GT_I16, "v_cmp_gt_i16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(slt(b, a), c);
        }};
  case Op::V_CMP_GE_I16:
    return OpDef{Op::V_CMP_GE_I16, "v_cmp_ge_i16", E::VOPC, SL::Mask, {SL::V32, SL::V32}, false, vega,
        [](const S &s, const Ctx &c) {
          const BV a = s[0].trunc(16), b = s[1].trunc(16);
          return compareResult(~slt(a, b), c);
        }};
  case Op::S_BRANCH: case Op::S_CBRANCH_SCC0: case Op::S_CBRANCH_SCC1: case Op::S_CBRANCH_EXECZ:
  case Op::S_CBRANCH_EXECNZ: case Op::S_SETPC_B64: case Op::S_ENDPGM:
  case Op::S_BARRIER: case Op::S_BARRIER_SIGNAL: case Op::S_BARRIER_WAIT: case Op::S_NOP: case Op::S_TRAP: case Op::S_WAITCNT:
  case Op::S_DELAY_ALU: case Op::V_NOP: case Op::S_GETPC_B64: case Op::S_SETREG_B32: case Op::S_MOV_B64:
  case Op::S_PC_REL_ADDRESS: case Op::BUFFER_WBINVL1_VOL: case Op::BUFFER_WBL2: case Op::BUFFER_INV:
  case Op::BUFFER_INVL2: case Op::BUFFER_GL0_INV: case Op::BUFFER_GL1_INV: case Op::GLOBAL_WB: case Op::GLOBAL_INV:
  case Op::GLOBAL_ATOMIC_ADD: case Op::GLOBAL_ATOMIC_INC: case Op::GLOBAL_ATOMIC_DEC: case Op::GLOBAL_ATOMIC_UMIN:
  case Op::GLOBAL_ATOMIC_SMIN: case Op::GLOBAL_ATOMIC_UMAX: case Op::GLOBAL_ATOMIC_SMAX: case Op::GLOBAL_ATOMIC_AND:
  case Op::GLOBAL_ATOMIC_OR: case Op::GLOBAL_ATOMIC_XOR: case Op::GLOBAL_ATOMIC_SWAP: case Op::GLOBAL_ATOMIC_CMPSWAP:
  case Op::GLOBAL_ATOMIC_ADD_X2: case Op::GLOBAL_ATOMIC_UMIN_X2: case Op::GLOBAL_ATOMIC_SMIN_X2:
  case Op::GLOBAL_ATOMIC_UMAX_X2: case Op::GLOBAL_ATOMIC_SMAX_X2: case Op::GLOBAL_ATOMIC_AND_X2:
  case Op::GLOBAL_ATOMIC_OR_X2: case Op::GLOBAL_ATOMIC_XOR_X2: case Op::GLOBAL_ATOMIC_SWAP_X2:
  case Op::FLAT_ATOMIC_ADD: case Op::FLAT_ATOMIC_INC: case Op::FLAT_ATOMIC_DEC: case Op::FLAT_ATOMIC_UMIN:
  case Op::FLAT_ATOMIC_SMIN: case Op::FLAT_ATOMIC_UMAX: case Op::FLAT_ATOMIC_SMAX: case Op::FLAT_ATOMIC_AND:
  case Op::FLAT_ATOMIC_OR: case Op::FLAT_ATOMIC_XOR: case Op::FLAT_ATOMIC_SWAP: case Op::FLAT_ATOMIC_CMPSWAP:
  case Op::FLAT_ATOMIC_ADD_X2: case Op::FLAT_ATOMIC_UMIN_X2: case Op::FLAT_ATOMIC_SMIN_X2: case Op::FLAT_ATOMIC_UMAX_X2:
  case Op::FLAT_ATOMIC_SMAX_X2: case Op::FLAT_ATOMIC_AND_X2: case Op::FLAT_ATOMIC_OR_X2: case Op::FLAT_ATOMIC_XOR_X2:
  case Op::FLAT_ATOMIC_SWAP_X2: case Op::GLOBAL_ATOMIC_CMPSWAP_X2: case Op::FLAT_ATOMIC_CMPSWAP_X2:
  case Op::DS_ADD_RTN_U32: case Op::DS_INC_RTN_U32: case Op::DS_DEC_RTN_U32: case Op::DS_MIN_RTN_U32:
  case Op::DS_MIN_RTN_I32: case Op::DS_MAX_RTN_U32: case Op::DS_MAX_RTN_I32: case Op::DS_AND_RTN_B32:
  case Op::DS_OR_RTN_B32: case Op::DS_XOR_RTN_B32: case Op::DS_WRXCHG_RTN_B32: case Op::DS_CMPST_RTN_B32:
  case Op::DS_ADD_RTN_U64: case Op::DS_MIN_RTN_U64: case Op::DS_MIN_RTN_I64: case Op::DS_MAX_RTN_U64:
  case Op::DS_MAX_RTN_I64: case Op::DS_AND_RTN_B64: case Op::DS_OR_RTN_B64: case Op::DS_XOR_RTN_B64:
  case Op::DS_WRXCHG_RTN_B64: case Op::DS_CMPST_RTN_B64:
  case Op::DS_BPERMUTE_B32: case Op::V_MBCNT_LO_U32_B32: case Op::V_MBCNT_HI_U32_B32:
  case Op::V_READLANE_B32: case Op::V_WRITELANE_B32:
  case Op::LABEL: case Op::WAIT_LOADS: case Op::WAIT_ALL: case Op::CTA_BARRIER:
    return defineControlOrAtomicOp(op); // amd_ops_control.cpp
  case Op::NumOps: break;
  }
  throw std::logic_error("amd::defineOp: not an op");
}

} // namespace

const std::vector<OpDef> &allOps() {
  static const std::vector<OpDef> ops = [] {
    std::vector<OpDef> v;
    for (size_t i = 0; i < kNumOps; ++i)
      v.push_back(defineOp(static_cast<Op>(i)));
    return v;
  }();
  return ops;
}

const OpDef &opDef(Op op) { return allOps()[static_cast<size_t>(op)]; }

} // namespace p2a::amd
