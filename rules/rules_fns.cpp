// Rules for fns (PTX ISA 9.7.1.11): the position of the n-th set bit of a
// mask, walking up (offset > 0) or down (offset < 0) from base.
//
// No AMD instruction finds the n-th set bit. The rule is loop-free:
//  1. direction: X = mask >> base (up) or brev(mask) >> (31 - base) (down),
//     so that X[i] is the bit i steps away from base either way; the shift
//     amount is base ^ (offset >>s 31), whose low 5 bits are base or 31 - base;
//  2. n = |offset| is kept as -n, so v_bcnt_u32_b32 (popcount + addend)
//     yields popcount - n, whose sign answers "fewer than n bits?";
//  3. a binary search over the position i (5 levels): level k tests whether
//     fewer than n bits of X lie below cand = i_so_far + k, with v_bfe_u32 X, 0,
//     cand (cand <= 31, so the 5-bit width is exact) and v_bcnt; the answer
//     bit is the sign of that count, shifted into i with v_alignbit_b32 i, t, 31;
//  4. the answer is valid iff X[i] is set and popcount(X) >= n (offset = 0
//     makes n = 0: the search stays at i = 0 and X[0] = mask[base] decides);
//     the position is base + i or base - i = (i ^ sgn) + (base - sgn);
//  5. offset = INT_MIN (|offset| is no .s32) gives 0, as NVIDIA hardware does
//     (sem::bits::fns).
// The proof assumes base <= 31, PTX's precondition.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

namespace {

Rule fnsSearchRule() {
  Rule r;
  r.form = ptx::Form{ptx::Opcode::Fns, ptx::TypeClass::B, 32};
  r.name = r.form.name() + "/bcnt-search";
  r.srcReqs = {OperandReq::Any, OperandReq::Any, OperandReq::Any};
  r.target = allTargets();
  // The proof is split so that every popcount becomes a prefix of one sum
  // chain over X's bits, the same terms in the template and in the PTX
  // semantics (which computes X the same way):
  //  - the direction fixed (sgn, written by instruction 0, and offset's sign);
  //  - the search path fixed: the sign of each level's v_bcnt result
  //    (instructions 8, 12, 16, 20, 24), i.e. the answer i's five bits, so that
  //    every v_bfe_u32 width is a constant;
  //  - and, implied by the path but stated as values so that Z3's
  //    preprocessing substitutes them before bit-blasting, each level's
  //    candidate width (instructions 10, 14, 18, 22) and i so far
  //    (instructions 9, 13, 17, 21, 25). Without them the template's popcounts
  //    were separate adder circuits that the SAT solver had to prove equal to
  //    the semantics' (2-8 s for the cases ending at positions 25-31).
  // offset == 0 is one more case: 1 + 2 x 32 cases, checked to cover every input.
  r.proofCases = [](const std::vector<BV> &s, const std::vector<BV> &written) {
    const unsigned levelCount[5] = {8, 12, 16, 20, 24}; // path bit 4, 3, 2, 1, 0
    const BV zero = s[2].eq(s[2].lit(0));
    const BV negative = s[2].extract(31, 31);
    std::vector<BV> cases{zero};
    for (int down = 0; down < 2; ++down) {
      const BV dir = ~zero & (down ? negative : ~negative) & written[0].eq(written[0].lit(down ? ~0ull : 0));
      for (unsigned path = 0; path < 32; ++path) {
        BV c = dir;
        for (unsigned k = 0; k < 5; ++k) {
          const BV bit = written[levelCount[k]].extract(31, 31);
          c = c & (((path >> (4 - k)) & 1) ? bit : ~bit);
        }
        c = c & written[9].eq(written[9].lit(path >> 4));
        for (unsigned m = 0; m < 4; ++m) { // levels k = 8, 4, 2, 1 (k = 1 << lg)
          const unsigned lg = 3 - m;
          const uint64_t cand = ((path >> (lg + 1)) << (lg + 1)) | (1u << lg);
          const BV &candWritten = written[10 + 4 * m], &iWritten = written[13 + 4 * m];
          c = c & candWritten.eq(candWritten.lit(cand));
          c = c & iWritten.eq(iWritten.lit(path >> lg));
        }
        cases.push_back(c);
      }
    }
    return cases;
  };
  // t0 sgn, t1 shift, t2 source, t3 X, t4 -n, t5 scratch, t6 i, t7 total, t8 found bit,
  // t9 base - sgn, t10 position, t11 total's sign, t12 the result but for offset = INT_MIN
  for (int i = 0; i < 13; ++i)
    r.temps.push_back(TempKind::V32);
  const Ref mask = S(0), base = S(1), off = S(2);
  r.seq = {
      inst(Op::V_ASHRREV_I32, T(0), {I(31), off}),      // sgn = offset < 0 ? -1 : 0
      inst(Op::V_XOR_B32, T(1), {base, T(0)}),          // shift: base or ~base (= 31 - base in 5 bits)
      inst(Op::V_BFREV_B32, T(2), {mask}),
      inst(Op::V_BFI_B32, T(2), {T(0), T(2), mask}),    // sgn ? brev(mask) : mask
      inst(Op::V_LSHRREV_B32, T(3), {T(1), T(2)}),      // X: X[i] is the bit i steps from base
      inst(Op::V_SUB_U32, T(4), {I(0), off}),
      inst(Op::V_MIN_I32, T(4), {off, T(4)}),           // -n = -|offset|
      // level 16
      inst(Op::V_BFE_U32, T(5), {T(3), I(0), I(16)}),
      inst(Op::V_BCNT_U32_B32, T(5), {T(5), T(4)}),
      inst(Op::V_LSHRREV_B32, T(6), {I(31), T(5)}),     // i = 16 * [popcount(X[15:0]) < n] / 16
  };
  for (unsigned lg = 3;; --lg) { // k = 8, 4, 2, 1
    const uint64_t k = 1u << lg;
    r.seq.push_back(inst(Op::V_LSHL_OR_B32, T(5), {T(6), I(lg + 1), I(k)}));  // cand = (i << (lg+1)) | k
    r.seq.push_back(inst(Op::V_BFE_U32, T(5), {T(3), I(0), T(5)}));           // X below cand
    r.seq.push_back(inst(Op::V_BCNT_U32_B32, T(5), {T(5), T(4)}));            // count - n
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(6), {T(6), T(5), I(31)}));     // i = 2i + [count < n]
    if (lg == 0)
      break;
  }
  r.seq.push_back(inst(Op::V_BCNT_U32_B32, T(7), {T(3), T(4)}));      // popcount(X) - n
  r.seq.push_back(inst(Op::V_BFE_I32, T(8), {T(3), T(6), I(1)}));     // X[i] ? -1 : 0
  r.seq.push_back(inst(Op::V_SUB_U32, T(9), {base, T(0)}));          // base + [offset < 0]
  r.seq.push_back(inst(Op::V_XAD_U32, T(10), {T(6), T(0), T(9)}));   // base + i or base - i
  r.seq.push_back(inst(Op::V_ASHRREV_I32, T(11), {I(31), T(7)}));    // -1 when fewer than n bits
  r.seq.push_back(inst(Op::V_BFI_B32, T(8), {T(8), T(10), I(~0ull)})); // X[i] ? position : -1
  r.seq.push_back(inst(Op::V_OR_B32, T(12), {T(8), T(11)}));
  r.seq.push_back(inst(Op::V_CMP_NE_U32, VCC(), {I(0x80000000u), off})); // offset = INT_MIN: 0 (hardware)
  r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {I(0), T(12), VCC()}));
  r.restriction = "no AMD instruction finds the n-th set bit: a loop-free v_bcnt_u32_b32 binary search "
                  "(5 levels of v_lshl_or + v_bfe_u32 + v_bcnt + v_alignbit), the downward walk through "
                  "v_bfrev_b32, and offset = INT_MIN gives 0 as on NVIDIA hardware; 35 instructions on every target";
  return r;
}

} // namespace

void addFnsRules(std::vector<Rule> &out) { out.push_back(fnsSearchRule()); }

} // namespace p2a::rules
