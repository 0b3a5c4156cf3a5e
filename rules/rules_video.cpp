// Rules for the video shifts vshl / vshr (PTX ISA, Scalar Video
// Instructions) without .sat or byte/half selectors: d = (a shifted by b,
// .clamp: min(b, 32), .wrap: b & 31) [+ c with the secondary .add]. JH-512
// kernels spell their rotations-with-add as vshl.u32.u32.u32.clamp.add.
//
// AMD's shifts read 5 bits of the amount (Vega ISA 12.7: v_lshlrev_b32,
// v_lshrrev_b32, v_ashrrev_i32 use S0[4:0]; v_lshl_add_u32 is
// (S0 << S1[4:0]) + S2), which is exactly .wrap. .clamp differs for b >= 32:
// a left or logical right shift leaves 0 there, so a is replaced by 0 first
// when b >= 32 (then any 5-bit shift of it is 0); an arithmetic right shift
// leaves the sign fill, which a shift by min(b, 31) gives too.
#include "rules/rule_dsl.hpp"
#include "rules/rule_expr.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::ShfMode;
using ptx::TypeClass;

namespace {

const auto A = OperandReq::Any;
const auto Im = OperandReq::Imm;

// The shift instruction: d = src shifted by amount (its low 5 bits).
TInst shift(Opcode op, bool arithmetic, Ref d, Ref amount, Ref value) {
  const Op o = op == Opcode::Vshl ? Op::V_LSHLREV_B32 : arithmetic ? Op::V_ASHRREV_I32 : Op::V_LSHRREV_B32;
  return inst(o, d, {amount, value});
}

// `shifted` into d, or shifted + c with the secondary .add (a left shift and
// the add are one v_lshl_add_u32).
void finish(Rule &r, const Form &f, bool arithmetic, Ref amount, Ref value) {
  if (!f.videoAdd) {
    r.seq.push_back(shift(f.opcode, arithmetic, D(), amount, value));
  } else if (f.opcode == Opcode::Vshl) {
    r.seq.push_back(inst(Op::V_LSHL_ADD_U32, D(), {value, amount, S(2)}));
  } else {
    r.temps.push_back(TempKind::V32);
    const Ref t = T(static_cast<unsigned>(r.temps.size() - 1));
    r.seq.push_back(shift(f.opcode, arithmetic, t, amount, value));
    r.seq.push_back(inst(Op::V_ADD_U32, D(), {t, S(2)}));
  }
}

void addVideoShift(const Form &f, std::vector<Rule> &out) {
  const bool clamp = f.mode == ShfMode::Clamp;
  const bool arithmetic = f.opcode == Opcode::Vshr && f.fromType == TypeClass::S;
  const std::vector<OperandReq> any = f.videoAdd ? std::vector{A, A, A} : std::vector{A, A};
  std::vector<OperandReq> immB = any;
  immB[1] = Im;
  const std::string plus = f.videoAdd ? ", then + c" : "";
  {
    Rule r = makeRule(f, clamp ? "select" : "shift", any);
    if (!clamp) {
      finish(r, f, arithmetic, S(1), S(0));
      r.restriction = "equivalent: AMD shifts read b[4:0], as .wrap does" + plus;
    } else if (arithmetic) {
      r.temps.push_back(TempKind::V32);
      r.seq.push_back(inst(Op::V_MIN_U32, T(0), {I(31), S(1)}));
      finish(r, f, arithmetic, T(0), S(0));
      r.restriction = "AMD shifts read b[4:0]: an arithmetic shift by min(b, 31) fills with the sign as one by "
                      "32 does" + plus;
    } else {
      r.temps.push_back(TempKind::V32);
      r.seq.push_back(inst(Op::V_CMP_GT_U32, VCC(), {I(32), S(1)}));
      r.seq.push_back(inst(Op::V_CNDMASK_B32, T(0), {I(0), S(0), VCC()}));
      finish(r, f, arithmetic, S(1), T(0));
      r.restriction = "AMD shifts read b[4:0]: a becomes 0 where b >= 32 (a clamped shift leaves 0), so the "
                      "5-bit shift is exact" + plus;
    }
    out.push_back(r);
  }
  // A constant amount: what PTX shifts by, as an inline constant.
  const Expr b = src(1, "b");
  const Expr amount = !clamp ? b & 31 : arithmetic ? min(b, 31) : b;
  {
    Rule r = makeRule(f, "imm", immB);
    if (clamp && !arithmetic)
      r.constraints = {when(b < 32)};
    r.immFns = {amount};
    finish(r, f, arithmetic, F(0), S(0));
    r.priority = 1;
    r.restriction = "a constant amount below 32: one " +
                    std::string(f.opcode == Opcode::Vshl && f.videoAdd ? "v_lshl_add_u32" : "shift") +
                    (f.videoAdd && f.opcode != Opcode::Vshl ? " and an add" : "");
    out.push_back(r);
  }
  if (clamp && !arithmetic) {
    Rule r = makeRule(f, "imm-all", immB);
    r.constraints = {when(b >= 32)};
    r.seq = {inst(Op::V_MOV_B32, D(), {f.videoAdd ? S(2) : I(0)})};
    r.priority = 1;
    r.restriction = std::string("a constant amount of 32 or more: the shift leaves 0") + (f.videoAdd ? ", d = c" : "");
    out.push_back(r);
  }
}

} // namespace

void addVideoRules(std::vector<Rule> &out) {
  for (const Form &f : ptx::allForms())
    if (f.opcode == Opcode::Vshl || f.opcode == Opcode::Vshr)
      addVideoShift(f, out);
}

} // namespace p2a::rules
