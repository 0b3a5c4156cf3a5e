#include "port/amd_op_cxx.hpp"

namespace p2a::port {

using amd::Op;

CxxType cxxTypeOf(amd::Slot s) {
  switch (s) {
  case amd::Slot::V64: return kU64;
  case amd::Slot::Mask: return kBool;
  default: return kU32;
  }
}

const std::vector<BuiltinUse> &amdBuiltins() {
  static const std::vector<BuiltinUse> uses = {
      {"__builtin_amdgcn_alignbit", Op::V_ALIGNBIT_B32},
      {"__builtin_amdgcn_perm", Op::V_PERM_B32},
      {"__builtin_amdgcn_ubfe", Op::V_BFE_U32},
      {"__builtin_amdgcn_sbfe", Op::V_BFE_I32},
  };
  return uses;
}

namespace {

Expr u32(uint64_t v) { return lit(kU32, v); }
Expr u64(uint64_t v) { return lit(kU64, v); }

Expr builtinFor(Op op, CxxType result, std::vector<Expr> args) {
  for (const BuiltinUse &b : amdBuiltins())
    if (b.op == op)
      return amdBuiltin(b.builtin, op, result, std::move(args));
  return nullptr;
}

Expr minU(Expr a, Expr b) { return select(binary(CxxOp::Lt, a, b), a, b); }
Expr maxU(Expr a, Expr b) { return select(binary(CxxOp::Lt, a, b), b, a); }
// A signed view of an unsigned value: (int32_t)a.
Expr asSigned(Expr a) {
  const CxxType t = a->type.width == 64 ? kI64 : kI32; // (read before `a` is moved from)
  return convert(t, std::move(a));
}
// (int32_t)a op (int32_t)b as a compare.
Expr signedCmp(CxxOp op, Expr a, Expr b) { return binary(op, asSigned(std::move(a)), asSigned(std::move(b))); }
// A 16-bit value in the low half, zero- or sign-extended to 32 bits.
Expr low16(Expr a) { return std::move(a) & u32(0xffff); }
Expr low16Signed(Expr a) { return convert(kI32, convert(CxxType{16, true}, std::move(a))); }
// The low 24 bits, sign-extended: (uint32_t)((int32_t)(a << 8) >> 8).
Expr sext24(Expr a) {
  return convert(kU32, binary(CxxOp::Shr, convert(kI32, binary(CxxOp::Shl, std::move(a), u32(8))), u32(8)));
}
// The 64-bit product of two 32-bit values, sign- or zero-extended first (an
// unsigned 64-bit multiply: its low 64 bits are the signed product too).
Expr wide(Expr a, bool isSigned) {
  return isSigned ? convert(kU64, convert(kI64, convert(kI32, std::move(a)))) : convert(kU64, std::move(a));
}
Expr product64(Expr a, Expr b, bool isSigned) { return wide(std::move(a), isSigned) * wide(std::move(b), isSigned); }
Expr high32(Expr w) { return convert(kU32, binary(CxxOp::Shr, std::move(w), u64(32))); }
// A 16-bit result in the low half of a 32-bit value.
Expr in16(Expr a) { return convert(kU32, convert(kU16, std::move(a))); }

OpCxx value(Expr e, unsigned bits = 0) {
  OpCxx r;
  r.definedBits = bits ? bits : e->type.width;
  r.dst = std::move(e);
  return r;
}

// A 32-bit add or subtract with carry in and out, as 64-bit arithmetic
// (clang selects v_add_co_u32 / v_addc_co_u32 for it).
OpCxx carryChain(bool add, Expr a, Expr b, Expr carryIn) {
  Expr w = add ? convert(kU64, a) + convert(kU64, b) : convert(kU64, a) - convert(kU64, b);
  if (carryIn)
    w = add ? w + convert(kU64, carryIn) : w - convert(kU64, carryIn);
  OpCxx r = value(convert(kU32, w));
  r.carry = binary(CxxOp::Ne, binary(CxxOp::Shr, w, u64(32)), u64(0));
  return r;
}

Expr compareFor(Op op, const std::vector<Expr> &s) {
  switch (op) {
  case Op::V_CMP_EQ_U32:
  case Op::V_CMP_EQ_U64: return binary(CxxOp::Eq, s[0], s[1]);
  case Op::V_CMP_NE_U32:
  case Op::V_CMP_NE_U64: return binary(CxxOp::Ne, s[0], s[1]);
  case Op::V_CMP_GT_U32:
  case Op::V_CMP_GT_U64: return binary(CxxOp::Gt, s[0], s[1]);
  case Op::V_CMP_LT_U32:
  case Op::V_CMP_LT_U64: return binary(CxxOp::Lt, s[0], s[1]);
  case Op::V_CMP_LE_U32:
  case Op::V_CMP_LE_U64: return binary(CxxOp::Le, s[0], s[1]);
  case Op::V_CMP_GE_U32:
  case Op::V_CMP_GE_U64: return binary(CxxOp::Ge, s[0], s[1]);
  case Op::V_CMP_LT_I32:
  case Op::V_CMP_LT_I64: return signedCmp(CxxOp::Lt, s[0], s[1]);
  case Op::V_CMP_LE_I32:
  case Op::V_CMP_LE_I64: return signedCmp(CxxOp::Le, s[0], s[1]);
  case Op::V_CMP_GT_I32:
  case Op::V_CMP_GT_I64: return signedCmp(CxxOp::Gt, s[0], s[1]);
  case Op::V_CMP_GE_I32:
  case Op::V_CMP_GE_I64: return signedCmp(CxxOp::Ge, s[0], s[1]);
  case Op::V_CMP_EQ_U16: return binary(CxxOp::Eq, low16(s[0]), low16(s[1]));
  case Op::V_CMP_NE_U16: return binary(CxxOp::Ne, low16(s[0]), low16(s[1]));
  case Op::V_CMP_LT_U16: return binary(CxxOp::Lt, low16(s[0]), low16(s[1]));
  case Op::V_CMP_LE_U16: return binary(CxxOp::Le, low16(s[0]), low16(s[1]));
  case Op::V_CMP_GT_U16: return binary(CxxOp::Gt, low16(s[0]), low16(s[1]));
  case Op::V_CMP_GE_U16: return binary(CxxOp::Ge, low16(s[0]), low16(s[1]));
  case Op::V_CMP_LT_I16: return binary(CxxOp::Lt, low16Signed(s[0]), low16Signed(s[1]));
  case Op::V_CMP_LE_I16: return binary(CxxOp::Le, low16Signed(s[0]), low16Signed(s[1]));
  case Op::V_CMP_GT_I16: return binary(CxxOp::Gt, low16Signed(s[0]), low16Signed(s[1]));
  case Op::V_CMP_GE_I16: return binary(CxxOp::Ge, low16Signed(s[0]), low16Signed(s[1]));
  default: return nullptr;
  }
}

} // namespace

std::optional<OpCxx> cxxForOp(Op op, const std::vector<Expr> &s) {
  if (Expr c = compareFor(op, s))
    return value(c);
  switch (op) {
  case Op::V_MOV_B32: return value(s[0]);
  case Op::V_NOT_B32: return value(~s[0]);
  case Op::V_AND_B32: return value(s[0] & s[1]);
  case Op::V_OR_B32: return value(s[0] | s[1]);
  case Op::V_XOR_B32: return value(s[0] ^ s[1]);
  case Op::V_XNOR_B32: return value(~(s[0] ^ s[1]));
  case Op::V_BFI_B32: return value((s[0] & s[1]) | (~s[0] & s[2]));
  case Op::V_AND_OR_B32: return value((s[0] & s[1]) | s[2]);
  case Op::V_OR3_B32: return value((s[0] | s[1]) | s[2]);
  case Op::V_XOR3_B32: return value((s[0] ^ s[1]) ^ s[2]);
  case Op::V_ALIGNBIT_B32:
  case Op::V_PERM_B32:
  case Op::V_BFE_U32: return value(builtinFor(op, kU32, s));
  case Op::V_BFE_I32: return value(convert(kU32, builtinFor(op, kI32, {convert(kI32, s[0]), s[1], s[2]})));
  case Op::V_LSHL_OR_B32: return value(shlMasked(s[0], s[1]) | s[2]);
  case Op::V_LSHLREV_B32:
  case Op::V_LSHLREV_B64: return value(shlMasked(s[1], s[0]));
  case Op::V_LSHRREV_B32:
  case Op::V_LSHRREV_B64: return value(shrMasked(s[1], s[0]));
  case Op::V_ASHRREV_I32:
  case Op::V_ASHRREV_I64: return value(convert(s[1]->type, shrMasked(asSigned(s[1]), s[0])));
  case Op::V_LSHRREV_B32_SDWA_W0: return value(shrMasked(low16(s[1]), s[0]));
  case Op::V_LSHLREV_B16: return value(in16(binary(CxxOp::Shl, low16(s[1]), s[0] & u32(15))), 16);
  case Op::V_LSHRREV_B16: return value(in16(binary(CxxOp::Shr, low16(s[1]), s[0] & u32(15))), 16);
  case Op::V_ASHRREV_I16: return value(in16(convert(kU32, binary(CxxOp::Shr, low16Signed(s[1]), s[0] & u32(15)))), 16);
  case Op::V_MIN_U32: return value(minU(s[0], s[1]));
  case Op::V_MAX_U32: return value(maxU(s[0], s[1]));
  case Op::V_MIN_I32: return value(select(signedCmp(CxxOp::Lt, s[0], s[1]), s[0], s[1]));
  case Op::V_MAX_I32: return value(select(signedCmp(CxxOp::Lt, s[0], s[1]), s[1], s[0]));
  case Op::V_MED3_U32: {
    Expr lo = minU(s[0], s[1]), hi = maxU(s[0], s[1]);
    return value(select(binary(CxxOp::Lt, s[2], lo), lo, select(binary(CxxOp::Lt, hi, s[2]), hi, s[2])));
  }
  case Op::V_MED3_I32: {
    Expr lo = select(signedCmp(CxxOp::Lt, s[0], s[1]), s[0], s[1]);
    Expr hi = select(signedCmp(CxxOp::Lt, s[0], s[1]), s[1], s[0]);
    return value(select(signedCmp(CxxOp::Lt, s[2], lo), lo, select(signedCmp(CxxOp::Lt, hi, s[2]), hi, s[2])));
  }
  case Op::V_MIN3_U32: return value(minU(minU(s[0], s[1]), s[2]));
  case Op::V_ADD_U32: return value(s[0] + s[1]);
  case Op::V_SUB_U32: return value(s[0] - s[1]);
  case Op::V_SUBREV_U32: return value(s[1] - s[0]);
  case Op::V_SUB_U32_CLAMP: return value(select(binary(CxxOp::Lt, s[1], s[0]), s[0] - s[1], u32(0)));
  case Op::V_ADD3_U32: return value((s[0] + s[1]) + s[2]);
  case Op::V_LSHL_ADD_U32: return value(shlMasked(s[0], s[1]) + s[2]);
  case Op::V_ADD_LSHL_U32: return value(shlMasked(s[0] + s[1], s[2]));
  case Op::V_XAD_U32: return value((s[0] ^ s[1]) + s[2]);
  case Op::V_CNDMASK_B32: return value(select(s[2], s[1], s[0]));
  case Op::S_AND_MASK: return value(binary(CxxOp::LogicalAnd, s[0], s[1]));
  case Op::S_OR_MASK: return value(binary(CxxOp::LogicalOr, s[0], s[1]));
  case Op::S_XOR_MASK: return value(binary(CxxOp::Ne, s[0], s[1]));
  case Op::S_MOV_MASK: return value(s[0]);
  case Op::V_BFM_B32: return value(shlMasked(shlMasked(u32(1), s[0]) - u32(1), s[1]));
  case Op::V_BFREV_B32: return value(generic(GenericBuiltin::BitReverse32, s[0]));
  case Op::V_BCNT_U32_B32: return value(generic(GenericBuiltin::Popcount, s[0]) + s[1]);
  case Op::V_FFBH_U32:
    return value(select(binary(CxxOp::Eq, s[0], u32(0)), u32(0xffffffff), generic(GenericBuiltin::Clz, s[0])));
  case Op::V_FFBL_B32:
    return value(select(binary(CxxOp::Eq, s[0], u32(0)), u32(0xffffffff), generic(GenericBuiltin::Ctz, s[0])));
  case Op::V_FFBH_I32: {
    // Count the bits below the sign that equal it: clz of the value with
    // negative numbers inverted (bit 31 is then 0), -1 when none differ.
    Expr x = select(signedCmp(CxxOp::Lt, s[0], u32(0)), ~s[0], s[0]);
    return value(select(binary(CxxOp::Eq, x, u32(0)), u32(0xffffffff), generic(GenericBuiltin::Clz, x)));
  }
  case Op::V_MUL_LO_U32: return value(s[0] * s[1]);
  case Op::V_MUL_HI_U32: return value(high32(product64(s[0], s[1], false)));
  case Op::V_MUL_HI_I32: return value(high32(product64(s[0], s[1], true)));
  case Op::V_MUL_U32_U24: return value((s[0] & u32(0xffffff)) * (s[1] & u32(0xffffff)));
  case Op::V_MUL_HI_U32_U24:
    return value(high32(product64(s[0] & u32(0xffffff), s[1] & u32(0xffffff), false)));
  case Op::V_MUL_I32_I24: return value(sext24(s[0]) * sext24(s[1]));
  case Op::V_MUL_HI_I32_I24: return value(high32(product64(sext24(s[0]), sext24(s[1]), true)));
  case Op::V_MAD_U32_U24: return value((s[0] & u32(0xffffff)) * (s[1] & u32(0xffffff)) + s[2]);
  case Op::V_MAD_I32_I24: return value(sext24(s[0]) * sext24(s[1]) + s[2]);
  case Op::V_MAD_U64_U32:
  case Op::V_MAD_I64_I32: {
    OpCxx r = value(product64(s[0], s[1], op == Op::V_MAD_I64_I32) + s[2]);
    r.clobbersVcc = true;
    return r;
  }
  case Op::V_ADD_CO_U32: return carryChain(true, s[0], s[1], nullptr);
  case Op::V_ADDC_CO_U32: return carryChain(true, s[0], s[1], s[2]);
  case Op::V_SUB_CO_U32: return carryChain(false, s[0], s[1], nullptr);
  case Op::V_SUBB_CO_U32: return carryChain(false, s[0], s[1], s[2]);
  default: return std::nullopt;
  }
}

} // namespace p2a::port
