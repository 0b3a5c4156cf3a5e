// Rules for the integer arithmetic and moves that kernels need around the
// Logic & Shift family: mov, add, sub, mul.{lo,hi,wide}, mad.lo and the
// 32<->64-bit cvt forms (PTX ISA 9.7.1.1-9.7.1.4, 9.7.9.3, 9.7.9.21). Each
// is proved like the family's rules; the products share one definition on
// both sides (sem::mulWide), so their proofs compare equal terms.
#include "translator/rules_builtin.hpp"
#include "translator/rule_dsl.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::TypeClass;

namespace {

Form cvtForm(TypeClass to, unsigned tw, TypeClass from, unsigned fw) {
  Form f{Opcode::Cvt, to, tw};
  f.fromType = from;
  f.fromWidth = fw;
  return f;
}

} // namespace

void addArithRules(std::vector<Rule> &out) {
  {
    Rule r = makeRule(Form{Opcode::Mov, TypeClass::B, 32}, "vop1", {OperandReq::Any});
    r.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
    r.restriction = "none: one v_mov_b32 (a literal is allowed in VOP1)";
    out.push_back(r);
    Rule r64 = makeRule(Form{Opcode::Mov, TypeClass::B, 64}, "halves", {OperandReq::Any});
    r64.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0, Part::Lo)}),
               inst(Op::V_MOV_B32, D(0, Part::Hi), {S(0, Part::Hi)})};
    r64.restriction = "no 64-bit VALU move on every target (v_mov_b64 is gfx90a+ only): one per half";
    out.push_back(r64);
  }
  {
    Rule add = makeRule(Form{Opcode::Add, TypeClass::U, 32}, "vop2", {OperandReq::Any, OperandReq::Any});
    add.seq = {inst(Op::V_ADD_U32, D(), {S(0), S(1)})};
    add.restriction = "none: v_add_u32 (v_add_nc_u32 on gfx10+) without carry out";
    out.push_back(add);
    Rule sub = makeRule(Form{Opcode::Sub, TypeClass::U, 32}, "vop2", {OperandReq::Any, OperandReq::Any});
    sub.seq = {inst(Op::V_SUB_U32, D(), {S(0), S(1)})};
    sub.restriction = "none: v_sub_u32 (v_sub_nc_u32 on gfx10+)";
    out.push_back(sub);
  }
  {
    Rule add = makeRule(Form{Opcode::Add, TypeClass::U, 64}, "carry-chain", {OperandReq::Any, OperandReq::Any});
    add.seq = {inst(Op::V_ADD_CO_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
               inst(Op::V_ADDC_CO_U32, D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi), VCC()})};
    add.restriction = "no 64-bit VALU add before gfx942's v_lshl_add_u64: low halves carry through VCC into the high";
    out.push_back(add);
    Rule sub = makeRule(Form{Opcode::Sub, TypeClass::U, 64}, "borrow-chain", {OperandReq::Any, OperandReq::Any});
    sub.seq = {inst(Op::V_SUB_CO_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
               inst(Op::V_SUBB_CO_U32, D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi), VCC()})};
    sub.restriction = "no 64-bit VALU subtract: the low halves' borrow goes through VCC";
    out.push_back(sub);
  }
  {
    Rule lo = makeRule(Form{Opcode::MulLo, TypeClass::U, 32}, "vop3", {OperandReq::Any, OperandReq::Any});
    lo.seq = {inst(Op::V_MUL_LO_U32, D(), {S(0), S(1)})};
    lo.restriction = "VOP3 only: a literal needs a register first on gfx9/CDNA";
    out.push_back(lo);
    for (TypeClass t : {TypeClass::U, TypeClass::S}) {
      const Op hi = t == TypeClass::S ? Op::V_MUL_HI_I32 : Op::V_MUL_HI_U32;
      Rule h = makeRule(Form{Opcode::MulHi, t, 32}, "vop3", {OperandReq::Any, OperandReq::Any});
      h.seq = {inst(hi, D(), {S(0), S(1)})};
      h.restriction = "VOP3 only";
      out.push_back(h);
      Rule w = makeRule(Form{Opcode::MulWide, t, 32}, "lo-hi", {OperandReq::Any, OperandReq::Any});
      w.seq = {inst(Op::V_MUL_LO_U32, D(0, Part::Lo), {S(0), S(1)}), inst(hi, D(0, Part::Hi), {S(0), S(1)})};
      w.restriction = "no 32x32->64 multiply into a pair on every target: the low and high products separately";
      out.push_back(w);
    }
    Rule mad = makeRule(Form{Opcode::MadLo, TypeClass::U, 32}, "mul-add",
                        {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    mad.temps = {TempKind::V32};
    mad.seq = {inst(Op::V_MUL_LO_U32, T(0), {S(0), S(1)}), inst(Op::V_ADD_U32, D(), {T(0), S(2)})};
    mad.restriction = "no 32-bit integer multiply-add (v_mad_u32_u24 is 24-bit only): multiply, then add";
    out.push_back(mad);
  }
  {
    Rule z = makeRule(cvtForm(TypeClass::U, 64, TypeClass::U, 32), "zext", {OperandReq::Any});
    z.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    z.restriction = "a 64-bit value is a VGPR pair: copy the low half, zero the high";
    out.push_back(z);
    Rule sx = makeRule(cvtForm(TypeClass::S, 64, TypeClass::S, 32), "sext", {OperandReq::Reg});
    sx.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0)}), inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), S(0)})};
    sx.restriction = "a 64-bit value is a VGPR pair: copy the low half, fill the high with the sign";
    out.push_back(sx);
    Rule t = makeRule(cvtForm(TypeClass::U, 32, TypeClass::U, 64), "low-half", {OperandReq::Any});
    t.seq = {inst(Op::V_MOV_B32, D(), {S(0, Part::Lo)})};
    t.restriction = "none: the low VGPR of the pair";
    out.push_back(t);
  }
}

} // namespace p2a::rules
