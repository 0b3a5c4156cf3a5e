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
  // cvt between 16-, 32- and 64-bit integers. A 16-bit register's high half
  // is don't-care, so widening from 16 bits extracts first.
  for (const Form &f : ptx::allForms()) {
    if (f.opcode == Opcode::Cvt) {
      const bool sgn = f.fromType == TypeClass::S;
      const Op ext16 = sgn ? Op::V_BFE_I32 : Op::V_BFE_U32;
      Rule r = makeRule(f, f.width > f.fromWidth ? (sgn ? "sext" : "zext") : "low-bits", {OperandReq::Reg});
      if (f.width < f.fromWidth) {
        r.seq = {inst(Op::V_MOV_B32, D(), {S(0, f.fromWidth == 64 ? Part::Lo : Part::Whole)})};
        r.restriction = "none: the low bits are the value (a narrower register's high bits are don't-care)";
      } else if (f.width == 32) { // from 16
        r.seq = {inst(ext16, D(), {S(0), I(0), I(16)})};
        r.restriction = "a 16-bit value's high half is don't-care in its VGPR: extract and extend it";
      } else if (f.fromWidth == 16) { // 64 from 16
        r.seq = {inst(ext16, D(0, Part::Lo), {S(0), I(0), I(16)}),
                 sgn ? inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), D(0, Part::Lo)})
                     : inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
        r.restriction = "extract and extend the 16-bit value into the low VGPR, then fill the high one";
      } else { // 64 from 32
        r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0)}),
                 sgn ? inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), S(0)}) : inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
        r.restriction = sgn ? "a 64-bit value is a VGPR pair: copy the low half, fill the high with the sign"
                            : "a 64-bit value is a VGPR pair: copy the low half, zero the high";
      }
      out.push_back(r);
    } else if (f.opcode == Opcode::MulWide && f.width == 16) {
      // 16 x 16 -> 32: extend both (their high halves are don't-care), multiply.
      const Op ext16 = f.type == TypeClass::S ? Op::V_BFE_I32 : Op::V_BFE_U32;
      Rule r = makeRule(f, "extend-mul", {OperandReq::Any, OperandReq::Any});
      r.temps = {TempKind::V32, TempKind::V32};
      r.seq = {inst(ext16, T(0), {S(0), I(0), I(16)}), inst(ext16, T(1), {S(1), I(0), I(16)}),
               inst(Op::V_MUL_LO_U32, D(), {T(0), T(1)})};
      r.restriction = "no 16-bit widening multiply: extend both halves to 32 bits, then one 32-bit multiply";
      out.push_back(r);
    }
  }
}

} // namespace p2a::rules
