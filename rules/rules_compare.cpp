// Rules for setp and selp (PTX ISA 9.7.3.1, 9.7.3.3) and min/max/abs/neg (9.7.1.8-11): a predicate is a lane
// mask (SGPR pair in wave64, SGPR in wave32), so setp is one VOPC compare
// into it, setp's .and/.or/.xor combiner one SALU op on masks, and selp a
// v_cndmask_b32 per 32-bit half.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::BoolOp;
using ptx::CmpOp;
using ptx::Form;
using ptx::Opcode;
using ptx::TypeClass;

namespace {


} // namespace

Op compareOp(CmpOp c, bool isSigned, unsigned width) {
  if (width == 16) {
    switch (c) {
    case CmpOp::Eq: return Op::V_CMP_EQ_U16;
    case CmpOp::Ne: return Op::V_CMP_NE_U16;
    case CmpOp::Lt: return isSigned ? Op::V_CMP_LT_I16 : Op::V_CMP_LT_U16;
    case CmpOp::Le: return isSigned ? Op::V_CMP_LE_I16 : Op::V_CMP_LE_U16;
    case CmpOp::Gt: return isSigned ? Op::V_CMP_GT_I16 : Op::V_CMP_GT_U16;
    case CmpOp::Ge: return isSigned ? Op::V_CMP_GE_I16 : Op::V_CMP_GE_U16;
    }
  }
  if (width == 32) {
    switch (c) {
    case CmpOp::Eq: return Op::V_CMP_EQ_U32;
    case CmpOp::Ne: return Op::V_CMP_NE_U32;
    case CmpOp::Lt: return isSigned ? Op::V_CMP_LT_I32 : Op::V_CMP_LT_U32;
    case CmpOp::Le: return isSigned ? Op::V_CMP_LE_I32 : Op::V_CMP_LE_U32;
    case CmpOp::Gt: return isSigned ? Op::V_CMP_GT_I32 : Op::V_CMP_GT_U32;
    case CmpOp::Ge: return isSigned ? Op::V_CMP_GE_I32 : Op::V_CMP_GE_U32;
    }
  }
  switch (c) {
  case CmpOp::Eq: return Op::V_CMP_EQ_U64;
  case CmpOp::Ne: return Op::V_CMP_NE_U64;
  case CmpOp::Lt: return isSigned ? Op::V_CMP_LT_I64 : Op::V_CMP_LT_U64;
  case CmpOp::Le: return isSigned ? Op::V_CMP_LE_I64 : Op::V_CMP_LE_U64;
  case CmpOp::Gt: return isSigned ? Op::V_CMP_GT_I64 : Op::V_CMP_GT_U64;
  case CmpOp::Ge: return isSigned ? Op::V_CMP_GE_I64 : Op::V_CMP_GE_U64;
  }
  return Op::V_CMP_EQ_U32;
}

void addCompareRules(std::vector<Rule> &out) {
  for (const Form &f : ptx::allForms()) {
    if (f.opcode == Opcode::Setp) {
      const Op cmp = compareOp(f.cmp, f.type == TypeClass::S, f.width);
      if (f.boolop == BoolOp::None) {
        Rule r = makeRule(f, "vopc", {OperandReq::Any, OperandReq::Any});
        r.seq = {inst(cmp, D(), {S(0), S(1)})};
        r.restriction = "a predicate is a lane mask: one compare writes it (inactive lanes get 0)";
        out.push_back(std::move(r));
      } else {
        Rule r = makeRule(f, "vopc-salu", {OperandReq::Any, OperandReq::Any, OperandReq::Reg});
        r.temps = {TempKind::Mask};
        r.seq = {inst(cmp, T(0), {S(0), S(1)}),
                 inst(f.boolop == BoolOp::And  ? Op::S_AND_MASK
                      : f.boolop == BoolOp::Or ? Op::S_OR_MASK
                                               : Op::S_XOR_MASK,
                      D(), {T(0), S(2)})};
        r.restriction = "no compare-and-combine instruction: compare into a mask, then combine the masks with SALU";
        out.push_back(std::move(r));
      }
    } else if ((f.opcode == Opcode::Min || f.opcode == Opcode::Max) && f.width == 64) {
      const bool sgn = f.type == TypeClass::S, min = f.opcode == Opcode::Min;
      const Op cmp = min ? (sgn ? Op::V_CMP_LT_I64 : Op::V_CMP_LT_U64) : (sgn ? Op::V_CMP_GT_I64 : Op::V_CMP_GT_U64);
      Rule r = makeRule(f, "cmp-cndmask-halves", {OperandReq::Any, OperandReq::Any});
      r.seq = {inst(cmp, O(VCC()), {O(S(0)), O(S(1))}),
               inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {S(1, Part::Lo), S(0, Part::Lo), VCC()}),
               inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {S(1, Part::Hi), S(0, Part::Hi), VCC()})};
      r.restriction = "no 64-bit min/max: a 64-bit compare, then a select per half";
      out.push_back(std::move(r));
    } else if ((f.opcode == Opcode::Min || f.opcode == Opcode::Max) && f.width == 16) {
      // A 16-bit value's high half is don't-care: both extended first, then
      // the 32-bit min/max (its low half is the 16-bit result).
      const bool sgn = f.type == TypeClass::S, min = f.opcode == Opcode::Min;
      const Op ext = sgn ? Op::V_BFE_I32 : Op::V_BFE_U32;
      Rule r = makeRule(f, "extend-vop2", {OperandReq::Any, OperandReq::Any});
      r.temps = {TempKind::V32, TempKind::V32};
      r.seq = {inst(ext, T(0), {S(0), I(0), I(16)}), inst(ext, T(1), {S(1), I(0), I(16)}),
               inst(min ? (sgn ? Op::V_MIN_I32 : Op::V_MIN_U32) : (sgn ? Op::V_MAX_I32 : Op::V_MAX_U32), D(),
                    {T(0), T(1)})};
      r.restriction = "16-bit values with don't-care high halves: both extended by the type, then a 32-bit min/max";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Abs && f.width == 64) {
      Rule r = makeRule(f, "sub-cmp-cndmask-halves", {OperandReq::Reg});
      r.temps = {TempKind::V64};
      r.seq = {inst(Op::V_SUB_CO_U32, T(0, Part::Lo), {I(0), S(0, Part::Lo)}),
               inst(Op::V_SUBB_CO_U32, T(0, Part::Hi), {I(0), S(0, Part::Hi), VCC()}),
               inst(Op::V_CMP_GT_I64, O(VCC()), {O(I(0)), O(S(0))}),
               inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {S(0, Part::Lo), T(0, Part::Lo), VCC()}),
               inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {S(0, Part::Hi), T(0, Part::Hi), VCC()})};
      r.restriction = "no 64-bit abs: 0 - a with the borrow through VCC, selected per half where a < 0";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Neg && f.width == 64) {
      Rule r = makeRule(f, "sub-halves", {OperandReq::Any});
      r.seq = {inst(Op::V_SUB_CO_U32, D(0, Part::Lo), {I(0), S(0, Part::Lo)}),
               inst(Op::V_SUBB_CO_U32, D(0, Part::Hi), {I(0), S(0, Part::Hi), VCC()})};
      r.restriction = "no 64-bit negate: 0 - a with the borrow through VCC";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Min || f.opcode == Opcode::Max) {
      const bool sgn = f.type == TypeClass::S;
      const Op op = f.opcode == Opcode::Min ? (sgn ? Op::V_MIN_I32 : Op::V_MIN_U32) : (sgn ? Op::V_MAX_I32 : Op::V_MAX_U32);
      Rule r = makeRule(f, "vop2", {OperandReq::Any, OperandReq::Any});
      r.seq = {inst(op, D(), {S(0), S(1)})};
      r.restriction = "none: one VOP2 min/max";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Neg) {
      Rule r = makeRule(f, "sub", {OperandReq::Any});
      r.seq = {inst(Op::V_SUB_U32, D(), {I(0), S(0)})};
      r.restriction = "no VALU negate for integers: 0 - a";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Abs && f.width == 16) {
      // The high half is don't-care: sign-extend first, then the 32-bit
      // max(a, 0 - a); its low half is the 16-bit result (-32768 stays itself).
      Rule r = makeRule(f, "bfe-sub-max", {OperandReq::Reg});
      r.temps = {TempKind::V32, TempKind::V32};
      r.seq = {inst(Op::V_BFE_I32, T(0), {S(0), I(0), I(16)}), inst(Op::V_SUB_U32, T(1), {I(0), T(0)}),
               inst(Op::V_MAX_I32, D(), {T(0), T(1)})};
      r.restriction = "no integer abs, and a 16-bit value's high half is don't-care: sign-extend, then max(a, 0 - a)";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Abs) {
      Rule r = makeRule(f, "sub-max", {OperandReq::Reg});
      r.temps = {TempKind::V32};
      r.seq = {inst(Op::V_SUB_U32, T(0), {I(0), S(0)}), inst(Op::V_MAX_I32, D(), {S(0), T(0)})};
      r.restriction = "no integer abs instruction: max(a, 0 - a), signed (the most negative value stays itself)";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Selp) {
      Rule r = makeRule(f, f.width == 64 ? "cndmask-halves" : "cndmask",
                        {OperandReq::Any, OperandReq::Any, OperandReq::Reg});
      if (f.width <= 32) // (a 16-bit value's high half is don't-care: select all 32 bits)
        r.seq = {inst(Op::V_CNDMASK_B32, D(), {S(1), S(0), S(2)})};
      else
        r.seq = {inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {S(1, Part::Lo), S(0, Part::Lo), S(2)}),
                 inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {S(1, Part::Hi), S(0, Part::Hi), S(2)})};
      r.restriction = f.width == 64 ? "v_cndmask_b32 selects 32 bits: one per half, the same mask"
                                    : "none: v_cndmask_b32 picks src1 where the mask is set (so a and b swap)";
      out.push_back(std::move(r));
    }
  }
}

} // namespace p2a::rules
