// Scalar rules: the same PTX forms computed once per wave by the scalar ALU
// (Vega ISA 12.2 SOP2, 12.3 SOP1), for registers whose value is uniform --
// derived only from kernel arguments, %ctaid, %nctaid, %ntid and constants
// (kernel/analysis/uniform_values.cpp decides which; lowering/statement_lowering.cpp
// emits them). A uniform
// value then costs no VALU issue slot and no VGPR: readers take it from its
// SGPR in place where the encoding and the constant bus allow.
//
// Each rule is proved like the vector rules, with the claim strengthened to
// every lane whatever EXEC holds (an SGPR is written regardless of EXEC).
// Shift amounts are constants below the width: the SALU shifts read only
// S1[4:0] (S1[5:0] for 64 bits) where PTX clamps larger amounts.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::TypeClass;

namespace {

Rule scalarRule(const Form &f, std::vector<OperandReq> reqs, std::vector<TInst> seq, std::string restriction) {
  Rule r = makeRule(f, "salu", std::move(reqs));
  r.scalar = true;
  r.seq = std::move(seq);
  r.restriction = std::move(restriction);
  return r;
}

} // namespace

void addScalarRules(std::vector<Rule> &out) {
  const OperandReq A = OperandReq::Any, R = OperandReq::Reg, Im = OperandReq::Imm;
  const std::string uniform = "a uniform value: once per wave on the scalar ALU, into an SGPR";
  auto binary = [&](Opcode opc, TypeClass type, Op op) {
    out.push_back(scalarRule(Form{opc, type, 32}, {A, A}, {inst(op, D(), {S(0), S(1)})}, uniform));
  };
  binary(Opcode::Add, TypeClass::U, Op::S_ADD_I32);
  binary(Opcode::Sub, TypeClass::U, Op::S_SUB_I32);
  binary(Opcode::MulLo, TypeClass::U, Op::S_MUL_I32);
  binary(Opcode::MulHi, TypeClass::U, Op::S_MUL_HI_U32);
  binary(Opcode::MulHi, TypeClass::S, Op::S_MUL_HI_I32);
  binary(Opcode::And, TypeClass::B, Op::S_AND_B32);
  binary(Opcode::Or, TypeClass::B, Op::S_OR_B32);
  binary(Opcode::Xor, TypeClass::B, Op::S_XOR_B32);
  binary(Opcode::Min, TypeClass::U, Op::S_MIN_U32);
  binary(Opcode::Min, TypeClass::S, Op::S_MIN_I32);
  binary(Opcode::Max, TypeClass::U, Op::S_MAX_U32);
  binary(Opcode::Max, TypeClass::S, Op::S_MAX_I32);
  out.push_back(scalarRule(Form{Opcode::Not, TypeClass::B, 32}, {R}, {inst(Op::S_NOT_B32, D(), {S(0)})}, uniform));
  out.push_back(scalarRule(Form{Opcode::Mov, TypeClass::B, 32}, {A}, {inst(Op::S_MOV_B32, D(), {S(0)})}, uniform));
  out.push_back(scalarRule(Form{Opcode::Mov, TypeClass::B, 64}, {R},
                           {inst(Op::S_MOV_B32, D(0, Part::Lo), {S(0, Part::Lo)}),
                            inst(Op::S_MOV_B32, D(0, Part::Hi), {S(0, Part::Hi)})},
                           "a uniform value: its SGPR pair copied half by half"));
  {
    Rule mad = scalarRule(Form{Opcode::MadLo, TypeClass::U, 32}, {A, A, A},
                          {inst(Op::S_MUL_I32, T(0), {S(0), S(1)}), inst(Op::S_ADD_I32, D(), {T(0), S(2)})},
                          "a uniform value: no scalar multiply-add, so s_mul_i32 then s_add_i32");
    mad.temps = {TempKind::S32};
    out.push_back(std::move(mad));
  }
  for (TypeClass t : {TypeClass::U, TypeClass::S}) {
    const bool sgn = t == TypeClass::S;
    out.push_back(scalarRule(Form{Opcode::MulWide, t, 32}, {A, A},
                             {inst(Op::S_MUL_I32, D(0, Part::Lo), {S(0), S(1)}),
                              inst(sgn ? Op::S_MUL_HI_I32 : Op::S_MUL_HI_U32, D(0, Part::Hi), {S(0), S(1)})},
                             "a uniform value: the product's halves by s_mul_i32 and s_mul_hi into an SGPR pair"));
  }
  // 64-bit adds: the low halves' carry goes through SCC into the high halves.
  for (TypeClass t : {TypeClass::U, TypeClass::S})
    out.push_back(scalarRule(Form{Opcode::Add, t, 64}, {A, A},
                             {inst(Op::S_ADD_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
                              inst(Op::S_ADDC_U32, D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi), SCC()})},
                             "a uniform value: no 64-bit scalar add, so s_add_u32 on the low halves, then "
                             "s_addc_u32 with the carry in SCC"));
  // Shifts by a constant below the width.
  struct Shift { Opcode opc; TypeClass type; };
  for (unsigned w : {32u, 64u})
    for (Shift sh : {Shift{Opcode::Shl, TypeClass::B}, Shift{Opcode::Shr, TypeClass::B}, Shift{Opcode::Shr, TypeClass::U},
                     Shift{Opcode::Shr, TypeClass::S}}) {
      const bool left = sh.opc == Opcode::Shl, arith = sh.type == TypeClass::S;
      const Op op = w == 32 ? (left ? Op::S_LSHL_B32 : arith ? Op::S_ASHR_I32 : Op::S_LSHR_B32)
                            : (left ? Op::S_LSHL_B64 : arith ? Op::S_ASHR_I64 : Op::S_LSHR_B64);
      Rule r = scalarRule(Form{sh.opc, sh.type, w}, {R, Im}, {inst(op, D(), {S(0), S(1)})},
                          "a uniform value; the SALU shift reads the amount's low bits only, so a constant below "
                          "the width");
      r.constraints = {when(src(1, "b") < w)};
      out.push_back(std::move(r));
    }
  // nvcc's 64-bit rotate (rotl.b64, fused; rules_shift.cpp): the 64-bit
  // shift one way, then the bits it dropped into the other half. d is not a
  // (the fusion never makes it so): a's halves are read after d is written.
  {
    const Expr k = src(1, "b");
    const Form rot{Opcode::Rotl, TypeClass::B, 64};
    Rule left = scalarRule(rot, {R, Im},
                           {inst(Op::S_LSHL_B64, D(), {S(0), S(1)}), inst(Op::S_LSHR_B32, T(0), {S(0, Part::Hi), F(0)}),
                            inst(Op::S_OR_B32, D(0, Part::Lo), {D(0, Part::Lo), T(0)})},
                           "a uniform value: no scalar rotate or funnel shift, so s_lshl_b64 by k, then the high "
                           "half's top k bits into the low half");
    left.constraints = {when(k < 32 && (k & 31) != 0)};
    left.immFns = {32 - (k & 31)};
    left.temps = {TempKind::S32};
    left.dstDistinct = true;
    out.push_back(left);
    Rule right = scalarRule(rot, {R, Im},
                            {inst(Op::S_LSHR_B64, D(), {S(0), F(0)}), inst(Op::S_LSHL_B32, T(0), {S(0, Part::Lo), F(1)}),
                             inst(Op::S_OR_B32, D(0, Part::Hi), {D(0, Part::Hi), T(0)})},
                            "a uniform value: past 32 a rotate left is one right by 64-k: s_lshr_b64, then the low "
                            "half's bottom bits into the high half");
    right.name += "-right";
    right.constraints = {when(k > 32 && k < 64)};
    right.immFns = {32 - (k & 31), k & 31};
    right.temps = {TempKind::S32};
    right.dstDistinct = true;
    out.push_back(right);
    Rule swap = scalarRule(rot, {R, Im},
                           {inst(Op::S_MOV_B32, D(0, Part::Lo), {S(0, Part::Hi)}),
                            inst(Op::S_MOV_B32, D(0, Part::Hi), {S(0, Part::Lo)})},
                           "a uniform value: a rotate by 32 swaps the halves");
    swap.name += "-swap";
    swap.constraints = {when(k == 32)};
    swap.dstDistinct = true;
    out.push_back(std::move(swap));
  }
  // Widening a 32-bit value into a pair, and narrowing one.
  for (TypeClass from : {TypeClass::U, TypeClass::S}) {
    const bool sgn = from == TypeClass::S;
    Form f{Opcode::Cvt, from, 64};
    f.fromType = from;
    f.fromWidth = 32;
    if (!ptx::formByName(f.name()))
      continue;
    out.push_back(scalarRule(
        f, {R},
        {inst(Op::S_MOV_B32, D(0, Part::Lo), {S(0)}),
         sgn ? inst(Op::S_ASHR_I32, D(0, Part::Hi), {S(0), I(31)}) : inst(Op::S_MOV_B32, D(0, Part::Hi), {I(0)})},
        sgn ? "a uniform value: copy the low half, fill the high one with the sign (SGPR pair)"
            : "a uniform value: copy the low half, zero the high one (SGPR pair)"));
  }
  // setp on uniform values: a scalar compare into SCC, then the predicate's
  // mask from it. EXEC, not all ones, is the "true" mask: a predicate holds 0
  // in inactive lanes wherever it comes from, as a VOPC compare leaves it.
  // The SALU compares 32-bit values every way and 64-bit ones for equality.
  for (const Form &f : ptx::allForms()) {
    if (f.opcode != Opcode::Setp || f.boolop != ptx::BoolOp::None || (f.width != 32 && f.width != 64) ||
        (f.width == 64 && f.cmp != ptx::CmpOp::Eq && f.cmp != ptx::CmpOp::Ne))
      continue;
    const bool sgn = f.type == TypeClass::S;
    Op cmp = Op::S_CMP_EQ_U32;
    switch (f.cmp) {
    case ptx::CmpOp::Eq: cmp = f.width == 64 ? Op::S_CMP_EQ_U64 : Op::S_CMP_EQ_U32; break;
    case ptx::CmpOp::Ne: cmp = f.width == 64 ? Op::S_CMP_LG_U64 : Op::S_CMP_LG_U32; break;
    case ptx::CmpOp::Lt: cmp = sgn ? Op::S_CMP_LT_I32 : Op::S_CMP_LT_U32; break;
    case ptx::CmpOp::Le: cmp = sgn ? Op::S_CMP_LE_I32 : Op::S_CMP_LE_U32; break;
    case ptx::CmpOp::Gt: cmp = sgn ? Op::S_CMP_GT_I32 : Op::S_CMP_GT_U32; break;
    case ptx::CmpOp::Ge: cmp = sgn ? Op::S_CMP_GE_I32 : Op::S_CMP_GE_U32; break;
    }
    out.push_back(scalarRule(f, {A, A},
                             {inst(cmp, SCC(), {S(0), S(1)}), inst(Op::S_CSELECT_MASK, D(), {EXEC(), I(0), SCC()})},
                             "a uniform predicate: the scalar compare sets SCC, s_cselect makes the mask (EXEC or 0)"));
  }
  Form narrow{Opcode::Cvt, TypeClass::U, 32};
  narrow.fromType = TypeClass::U;
  narrow.fromWidth = 64;
  out.push_back(scalarRule(narrow, {R}, {inst(Op::S_MOV_B32, D(), {S(0, Part::Lo)})},
                           "a uniform value: the low SGPR of the pair"));
}

} // namespace p2a::rules
