// Rules for integer div and rem (PTX ISA 9.7.1.6, 9.7.1.7), .u32.
//
// AMD GPUs have no integer divide. LLVM expands one through the float
// reciprocal (v_rcp_iflag_f32, ~1 ulp) and integer corrections; that is
// short but its correctness rests on the reciprocal's error bound, which no
// bit-vector proof here can state. These rules are restoring division
// instead, exact by construction and proved: 32 steps of
//   r = v_alignbit_b32(r, q, 31)      (r << 1) | the dividend's next bit
//   q = v_lshlrev_b32(1, q)
//   t, borrow = v_sub_co_u32(r, d)    borrow: r < d
//   r = v_cndmask_b32(t, r, borrow)   subtract where it fits
//   q = v_subb_co_u32(q, -1, borrow)  the quotient bit: q + 1 - borrow
// which keep r < d as long as d <= 2^31; a larger d divides at most once,
// so the result is then chosen from n >= d (v_cmp_gt_i32 0, d tests d's top
// bit). 166 instructions (167 for rem): a kernel dividing in its inner loop
// is slower than with LLVM's expansion (left: a proved reciprocal rule, and
// multiply-high rules for constant divisors).
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

namespace {

Rule restoringDivision(ptx::Opcode opcode) {
  const bool rem = opcode == ptx::Opcode::Rem;
  Rule r = makeRule(ptx::Form{opcode, ptx::TypeClass::U, 32}, "restoring", {OperandReq::Any, OperandReq::Any});
  // t0 remainder, t1 quotient (the dividend shifting out), t2 difference / the large-divisor result
  for (int i = 0; i < 3; ++i)
    r.temps.push_back(TempKind::V32);
  const Ref n = S(0), d = S(1);
  r.seq.push_back(inst(Op::V_MOV_B32, T(0), {I(0)}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(1), {n}));
  for (int step = 0; step < 32; ++step) {
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(0), {T(0), T(1), I(31)}));
    r.seq.push_back(inst(Op::V_LSHLREV_B32, T(1), {I(1), T(1)}));
    r.seq.push_back(inst(Op::V_SUB_CO_U32, T(2), {T(0), d}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(0), {T(2), T(0), VCC()}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(1), {T(1), I(0xffffffffu), VCC()}));
  }
  // d >= 2^31: the quotient is n >= d, the remainder n - d or n.
  r.seq.push_back(inst(Op::V_CMP_GE_U32, VCC(), {n, d}));
  if (rem) {
    r.seq.push_back(inst(Op::V_SUB_U32, T(2), {n, d}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(2), {n, T(2), VCC()}));
  } else {
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(2), {I(0), I(1), VCC()}));
  }
  r.seq.push_back(inst(Op::V_CMP_GT_I32, VCC(), {I(0), d}));
  r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {rem ? T(0) : T(1), T(2), VCC()}));
  r.restriction = "no integer divide on AMD GPUs: restoring division, 32 steps of v_alignbit_b32 + v_lshlrev_b32 + "
                  "v_sub_co_u32 + v_cndmask_b32 + v_subb_co_u32 (exact and proved, unlike a float-reciprocal "
                  "estimate), then the divisor >= 2^31 case; " + std::to_string(r.seq.size()) + " instructions";
  return r;
}

} // namespace

void addDivideRules(std::vector<Rule> &out) {
  out.push_back(restoringDivision(ptx::Opcode::Div));
  out.push_back(restoringDivision(ptx::Opcode::Rem));
}

} // namespace p2a::rules
