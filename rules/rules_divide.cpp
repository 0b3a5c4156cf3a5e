// Rules for integer div and rem (PTX ISA 9.7.1.6, 9.7.1.7), .u32 and .s32
// (signed: the magnitudes divide, then the signs are applied).
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

Rule restoringDivision(ptx::Opcode opcode, ptx::TypeClass type) {
  const bool rem = opcode == ptx::Opcode::Rem, sgn = type == ptx::TypeClass::S;
  Rule r = makeRule(ptx::Form{opcode, type, 32}, "restoring", {OperandReq::Any, OperandReq::Any});
  r.activeLaneProof = true; // each borrow without EXEC's bit: the semantics' own terms (proof/verifier.cpp)
  // t0 remainder, t1 quotient (the dividend shifting out), t2 difference /
  // the large-divisor result; signed: t3 |n|, t4 |d|, t5 n's sign mask, t6 d's
  for (int i = 0; i < (sgn ? 7 : 3); ++i)
    r.temps.push_back(TempKind::V32);
  Ref n = S(0), d = S(1);
  if (sgn) { // |x| = (x ^ m) - m with m = x >> 31 (arithmetic), as the PTX semantics states it
    r.seq.push_back(inst(Op::V_ASHRREV_I32, T(5), {I(31), n}));
    r.seq.push_back(inst(Op::V_ASHRREV_I32, T(6), {I(31), d}));
    r.seq.push_back(inst(Op::V_XOR_B32, T(3), {n, T(5)}));
    r.seq.push_back(inst(Op::V_SUB_U32, T(3), {T(3), T(5)}));
    r.seq.push_back(inst(Op::V_XOR_B32, T(4), {d, T(6)}));
    r.seq.push_back(inst(Op::V_SUB_U32, T(4), {T(4), T(6)}));
    n = T(3);
    d = T(4);
  }
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
  const Ref result = sgn ? (rem ? T(0) : T(1)) : D();
  r.seq.push_back(inst(Op::V_CNDMASK_B32, result, {rem ? T(0) : T(1), T(2), VCC()}));
  if (sgn) { // the remainder takes n's sign, the quotient the signs' difference
    if (!rem)
      r.seq.push_back(inst(Op::V_XOR_B32, T(5), {T(5), T(6)}));
    r.seq.push_back(inst(Op::V_XOR_B32, result, {result, T(5)}));
    r.seq.push_back(inst(Op::V_SUB_U32, D(), {result, T(5)}));
  }
  r.restriction = std::string("no integer divide on AMD GPUs: ") + (sgn ? "the magnitudes' " : "") +
                  "restoring division, 32 steps of v_alignbit_b32 + v_lshlrev_b32 + v_sub_co_u32 + v_cndmask_b32 + "
                  "v_subb_co_u32 (exact and proved, unlike a float-reciprocal estimate), then the divisor >= 2^31 "
                  "case" + (sgn ? ", then the sign" : "") + "; " + std::to_string(r.seq.size()) + " instructions";
  return r;
}

} // namespace

void addDivideRules(std::vector<Rule> &out) {
  for (ptx::TypeClass t : {ptx::TypeClass::U, ptx::TypeClass::S}) {
    out.push_back(restoringDivision(ptx::Opcode::Div, t));
    out.push_back(restoringDivision(ptx::Opcode::Rem, t));
  }
}

} // namespace p2a::rules
