// Rules for integer div and rem (PTX ISA 9.7.1.6, 9.7.1.7), .u16 .s16 .u32
// .s32 .u64 .s64 (signed: the magnitudes divide, then the signs are applied).
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

// `steps` restoring-division steps: t0 the remainder, t1 the quotient (the
// dividend shifting out of its top), t2 the difference, `d` the divisor.
void appendRestoringSteps(Rule &r, int steps, Ref d) {
  for (int step = 0; step < steps; ++step) {
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(0), {T(0), T(1), I(31)}));
    r.seq.push_back(inst(Op::V_LSHLREV_B32, T(1), {I(1), T(1)}));
    r.seq.push_back(inst(Op::V_SUB_CO_U32, T(2), {T(0), d}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(0), {T(2), T(0), VCC()}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(1), {T(1), I(0xffffffffu), VCC()}));
  }
}

// |n| into t3 and |d| into t4, their sign masks into t5 and t6: |x| = (x ^ m)
// - m with m = x >> 31 (arithmetic), as the PTX semantics state it.
void appendMagnitudes(Rule &r, Ref n, Ref d) {
  r.seq.push_back(inst(Op::V_ASHRREV_I32, T(5), {I(31), n}));
  r.seq.push_back(inst(Op::V_ASHRREV_I32, T(6), {I(31), d}));
  r.seq.push_back(inst(Op::V_XOR_B32, T(3), {n, T(5)}));
  r.seq.push_back(inst(Op::V_SUB_U32, T(3), {T(3), T(5)}));
  r.seq.push_back(inst(Op::V_XOR_B32, T(4), {d, T(6)}));
  r.seq.push_back(inst(Op::V_SUB_U32, T(4), {T(4), T(6)}));
}

// d = the signed result from the magnitudes' `result`: the remainder takes
// n's sign (t5), the quotient the signs' difference (t5 ^ t6).
void appendSigns(Rule &r, bool rem, Ref result) {
  if (!rem)
    r.seq.push_back(inst(Op::V_XOR_B32, T(5), {T(5), T(6)}));
  r.seq.push_back(inst(Op::V_XOR_B32, result, {result, T(5)}));
  r.seq.push_back(inst(Op::V_SUB_U32, D(), {result, T(5)}));
}

Rule restoringDivision(ptx::Opcode opcode, ptx::TypeClass type) {
  const bool rem = opcode == ptx::Opcode::Rem, sgn = type == ptx::TypeClass::S;
  Rule r = makeRule(ptx::Form{opcode, type, 32}, "restoring", {OperandReq::Any, OperandReq::Any});
  r.activeLaneProof = true; // each borrow without EXEC's bit: the semantics' own terms (proof/verifier.cpp)
  // t0 remainder, t1 quotient (the dividend shifting out), t2 difference /
  // the large-divisor result; signed: t3 |n|, t4 |d|, t5 n's sign mask, t6 d's
  for (int i = 0; i < (sgn ? 7 : 3); ++i)
    r.temps.push_back(TempKind::V32);
  Ref n = S(0), d = S(1);
  if (sgn) {
    appendMagnitudes(r, n, d);
    n = T(3);
    d = T(4);
  }
  r.seq.push_back(inst(Op::V_MOV_B32, T(0), {I(0)}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(1), {n}));
  appendRestoringSteps(r, 32, d);
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
  if (sgn)
    appendSigns(r, rem, result);
  r.restriction = std::string("no integer divide on AMD GPUs: ") + (sgn ? "the magnitudes' " : "") +
                  "restoring division, 32 steps of v_alignbit_b32 + v_lshlrev_b32 + v_sub_co_u32 + v_cndmask_b32 + "
                  "v_subb_co_u32 (exact and proved, unlike a float-reciprocal estimate), then the divisor >= 2^31 "
                  "case" + (sgn ? ", then the sign" : "") + "; " + std::to_string(r.seq.size()) + " instructions";
  return r;
}

// The 64-bit forms: the same restoring division on 32-bit halves, 64 steps
// of nine instructions (the remainder:quotient pair shifts left through
// three v_alignbit_b32 and a v_lshlrev_b32; the 64-bit subtract is
// v_sub_co_u32 + v_subb_co_u32; two v_cndmask_b32 keep the remainder; the
// quotient bit is v_subb_co_u32), then d >= 2^63, where the quotient is
// n >= d. Signed: the magnitudes, |x| = (x ^ m) - m on halves with m the
// high half's sign, then the signs as for 32 bits. About 590 instructions,
// against LLVM's ~100-instruction reciprocal expansion (left: a loop form).
Rule restoringDivision64(ptx::Opcode opcode, ptx::TypeClass type) {
  const bool rem = opcode == ptx::Opcode::Rem, sgn = type == ptx::TypeClass::S;
  Rule r = makeRule(ptx::Form{opcode, type, 64}, "restoring", {OperandReq::Any, OperandReq::Any});
  r.activeLaneProof = true;
  // t0/t1 remainder lo/hi, t2/t3 quotient lo/hi, t4/t5 difference /
  // large-divisor result; signed: t6/t7 |n|, t8/t9 |d|, t10 n's sign mask, t11 d's
  for (int i = 0; i < (sgn ? 12 : 6); ++i)
    r.temps.push_back(TempKind::V32);
  Ref nLo = S(0, Part::Lo), nHi = S(0, Part::Hi), dLo = S(1, Part::Lo), dHi = S(1, Part::Hi);
  if (sgn) { // as sem::magnitudeHalves
    auto magnitude = [&](Ref lo, Ref hi, unsigned t, unsigned m) {
      r.seq.push_back(inst(Op::V_ASHRREV_I32, T(m), {I(31), hi}));
      r.seq.push_back(inst(Op::V_XOR_B32, T(t), {lo, T(m)}));
      r.seq.push_back(inst(Op::V_XOR_B32, T(t + 1), {hi, T(m)}));
      r.seq.push_back(inst(Op::V_SUB_CO_U32, T(t), {T(t), T(m)}));
      r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(t + 1), {T(t + 1), T(m), VCC()}));
    };
    magnitude(nLo, nHi, 6, 10);
    magnitude(dLo, dHi, 8, 11);
    nLo = T(6), nHi = T(7), dLo = T(8), dHi = T(9);
  }
  r.seq.push_back(inst(Op::V_MOV_B32, T(0), {I(0)}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(1), {I(0)}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(2), {nLo}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(3), {nHi}));
  for (int step = 0; step < 64; ++step) {
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(1), {T(1), T(0), I(31)}));
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(0), {T(0), T(3), I(31)}));
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(3), {T(3), T(2), I(31)}));
    r.seq.push_back(inst(Op::V_LSHLREV_B32, T(2), {I(1), T(2)}));
    r.seq.push_back(inst(Op::V_SUB_CO_U32, T(4), {T(0), dLo}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(5), {T(1), dHi, VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(0), {T(4), T(0), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(1), {T(5), T(1), VCC()}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(2), {T(2), I(0xffffffffu), VCC()}));
  }
  // d >= 2^63: the quotient is n >= d, the remainder n - d or n.
  const TOperand n = sgn ? pair(T(6), T(7)) : O(S(0)), d = sgn ? pair(T(8), T(9)) : O(S(1));
  if (rem) {
    r.seq.push_back(inst(Op::V_SUB_CO_U32, T(4), {nLo, dLo}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(5), {nHi, dHi, VCC()}));
    r.seq.push_back(inst(Op::V_CMP_GE_U64, O(VCC()), {n, d}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(4), {nLo, T(4), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(5), {nHi, T(5), VCC()}));
  } else {
    r.seq.push_back(inst(Op::V_CMP_GE_U64, O(VCC()), {n, d}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(4), {I(0), I(1), VCC()}));
    r.seq.push_back(inst(Op::V_MOV_B32, T(5), {I(0)}));
  }
  r.seq.push_back(inst(Op::V_CMP_GT_I32, VCC(), {I(0), dHi}));
  const Ref lo = rem ? T(0) : T(2), hi = rem ? T(1) : T(3);
  const Ref outLo = sgn ? lo : D(0, Part::Lo), outHi = sgn ? hi : D(0, Part::Hi);
  r.seq.push_back(inst(Op::V_CNDMASK_B32, outLo, {lo, T(4), VCC()}));
  r.seq.push_back(inst(Op::V_CNDMASK_B32, outHi, {hi, T(5), VCC()}));
  if (sgn) { // the remainder takes n's sign, the quotient the signs' difference
    if (!rem)
      r.seq.push_back(inst(Op::V_XOR_B32, T(10), {T(10), T(11)}));
    r.seq.push_back(inst(Op::V_XOR_B32, lo, {lo, T(10)}));
    r.seq.push_back(inst(Op::V_XOR_B32, hi, {hi, T(10)}));
    r.seq.push_back(inst(Op::V_SUB_CO_U32, D(0, Part::Lo), {lo, T(10)}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, D(0, Part::Hi), {hi, T(10), VCC()}));
  }
  r.restriction = std::string("no integer divide on AMD GPUs: ") + (sgn ? "the magnitudes' " : "") +
                  "restoring division on 32-bit halves, 64 steps of three v_alignbit_b32 + v_lshlrev_b32 + "
                  "v_sub_co_u32 + v_subb_co_u32 + two v_cndmask_b32 + v_subb_co_u32 (exact and proved), then the "
                  "divisor >= 2^63 case" + (sgn ? ", then the sign" : "") + "; " + std::to_string(r.seq.size()) +
                  " instructions";
  return r;
}

// The 16-bit forms: the operands extended to 32 bits (v_bfe_u32 / v_bfe_i32
// of their low halves: a 16-bit register's high half is arbitrary), then 16
// of the 32-bit steps on the dividend shifted to the top: its 16 bits shift
// out as the quotient's shift in, and the remainder stays below the divisor
// (< 2^16), so no large-divisor case. Signed: the magnitudes (at most 2^15)
// and the signs as for 32 bits.
Rule restoringDivision16(ptx::Opcode opcode, ptx::TypeClass type) {
  const bool rem = opcode == ptx::Opcode::Rem, sgn = type == ptx::TypeClass::S;
  Rule r = makeRule(ptx::Form{opcode, type, 16}, "restoring", {OperandReq::Any, OperandReq::Any});
  r.activeLaneProof = true;
  // t0 remainder, t1 quotient (the dividend shifting out), t2 difference,
  // t3 n, t4 d (extended; signed: their magnitudes), t5 n's sign mask, t6 d's
  for (int i = 0; i < (sgn ? 7 : 5); ++i)
    r.temps.push_back(TempKind::V32);
  const Op extend = sgn ? Op::V_BFE_I32 : Op::V_BFE_U32;
  r.seq.push_back(inst(extend, T(3), {S(0), I(0), I(16)}));
  r.seq.push_back(inst(extend, T(4), {S(1), I(0), I(16)}));
  if (sgn)
    appendMagnitudes(r, T(3), T(4));
  r.seq.push_back(inst(Op::V_MOV_B32, T(0), {I(0)}));
  r.seq.push_back(inst(Op::V_LSHLREV_B32, T(1), {I(16), T(3)}));
  appendRestoringSteps(r, 16, T(4));
  const Ref result = rem ? T(0) : T(1);
  if (sgn)
    appendSigns(r, rem, result);
  else
    r.seq.push_back(inst(Op::V_MOV_B32, D(), {result}));
  r.restriction = std::string("no integer divide on AMD GPUs: the operands extended to 32 bits") +
                  (sgn ? ", their magnitudes" : "") +
                  ", then 16 restoring-division steps of v_alignbit_b32 + v_lshlrev_b32 + v_sub_co_u32 + "
                  "v_cndmask_b32 + v_subb_co_u32 (exact and proved)" + (sgn ? ", then the sign" : "") + "; " +
                  std::to_string(r.seq.size()) + " instructions";
  return r;
}

} // namespace

void addDivideRules(std::vector<Rule> &out) {
  for (ptx::TypeClass t : {ptx::TypeClass::U, ptx::TypeClass::S}) {
    out.push_back(restoringDivision16(ptx::Opcode::Div, t));
    out.push_back(restoringDivision16(ptx::Opcode::Rem, t));
  }
  for (ptx::TypeClass t : {ptx::TypeClass::U, ptx::TypeClass::S}) {
    out.push_back(restoringDivision(ptx::Opcode::Div, t));
    out.push_back(restoringDivision(ptx::Opcode::Rem, t));
  }
  for (ptx::TypeClass t : {ptx::TypeClass::U, ptx::TypeClass::S}) {
    out.push_back(restoringDivision64(ptx::Opcode::Div, t));
    out.push_back(restoringDivision64(ptx::Opcode::Rem, t));
  }
}

} // namespace p2a::rules
