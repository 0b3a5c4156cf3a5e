// Rules for and/or/xor/not/cnot (PTX ISA 9.7.8.1-9.7.8.5).
#include "rules/rules_builtin.hpp"
#include "rules/rule_dsl.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::TypeClass;

static Op valuOf(Opcode op) {
  switch (op) {
  case Opcode::And: return Op::V_AND_B32;
  case Opcode::Or: return Op::V_OR_B32;
  default: return Op::V_XOR_B32;
  }
}
static Op saluOf(Opcode op) {
  switch (op) {
  case Opcode::And: return Op::S_AND_MASK;
  case Opcode::Or: return Op::S_OR_MASK;
  default: return Op::S_XOR_MASK;
  }
}

void addLogicRules(std::vector<Rule> &out) {
  for (Opcode op : {Opcode::And, Opcode::Or, Opcode::Xor}) {
    for (unsigned w : {16u, 32u}) {
      Rule r = makeRule(Form{op, TypeClass::B, w}, "vop2", {OperandReq::Any, OperandReq::Any});
      r.seq = {inst(valuOf(op), D(), {S(0), S(1)})};
      r.restriction = w == 16 ? "none: a 16-bit value lives in the low half of a VGPR; the high half is don't-care"
                              : "none: one VOP2 instruction (a literal moves to src0)";
      out.push_back(std::move(r));
    }
    Rule r64 = makeRule(Form{op, TypeClass::B, 64}, "halves", {OperandReq::Any, OperandReq::Any});
    r64.seq = {inst(valuOf(op), D(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
               inst(valuOf(op), D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi)})};
    r64.restriction = "no 64-bit bitwise VALU op: one VOP2 per 32-bit half";
    out.push_back(r64);

    Rule rp = makeRule(Form{op, TypeClass::Pred, 1}, "salu", {OperandReq::Reg, OperandReq::Reg});
    rp.seq = {inst(saluOf(op), D(), {S(0), S(1)})};
    rp.restriction = "predicates are lane masks in SGPRs (s[2n:2n+1] in wave64, sN in wave32); "
                     "inactive lanes stay 0";
    out.push_back(std::move(rp));
  }

  for (unsigned w : {16u, 32u}) {
    Rule r = makeRule(Form{Opcode::Not, TypeClass::B, w}, "vop1", {OperandReq::Any});
    r.seq = {inst(Op::V_NOT_B32, D(), {S(0)})};
    r.restriction = "none";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(Form{Opcode::Not, TypeClass::B, 64}, "halves", {OperandReq::Any});
    r.seq = {inst(Op::V_NOT_B32, D(0, Part::Lo), {S(0, Part::Lo)}),
             inst(Op::V_NOT_B32, D(0, Part::Hi), {S(0, Part::Hi)})};
    r.restriction = "no 64-bit VALU not: one per half";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(Form{Opcode::Not, TypeClass::Pred, 1}, "xor-exec", {OperandReq::Reg});
    r.seq = {inst(Op::S_XOR_MASK, D(), {EXEC(), S(0)})};
    r.restriction = "s_not would set the bits of inactive lanes; XOR with EXEC keeps them 0, "
                    "as compares leave them";
    out.push_back(std::move(r));
  }

  // cnot (9.7.8.5): d = (a == 0) ? 1 : 0. No AMD instruction computes a
  // boolean into a VGPR directly: compare into VCC, then select.
  struct CnotShape { unsigned w; Op cmp; };
  for (CnotShape c : {CnotShape{16, Op::V_CMP_EQ_U16}, CnotShape{32, Op::V_CMP_EQ_U32}}) {
    Rule r = makeRule(Form{Opcode::Cnot, TypeClass::B, c.w}, "cmp-select", {OperandReq::Reg});
    r.seq = {inst(c.cmp, VCC(), {I(0), S(0)}), inst(Op::V_CNDMASK_B32, D(), {I(0), I(1), VCC()})};
    r.restriction = "no set-on-zero VALU op: v_cmp into VCC, then v_cndmask";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(Form{Opcode::Cnot, TypeClass::B, 64}, "cmp-select", {OperandReq::Reg});
    r.seq = {inst(Op::V_CMP_EQ_U64, VCC(), {I(0), S(0)}),
             inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {I(0), I(1), VCC()}),
             inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.restriction = "v_cmp_eq_u64 into VCC, select the low half, zero the high half";
    out.push_back(std::move(r));
  }
}

} // namespace p2a::rules
