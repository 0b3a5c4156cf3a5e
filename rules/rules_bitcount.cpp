// Rules for brev popc clz bfind (PTX ISA 9.7.1).
//
// The AMD counterparts (AMD Vega / CDNA3 / RDNA2-4 ISA, VOP1/VOP3 opcode
// tables): v_bfrev_b32, v_bcnt_u32_b32 (popcount(S0) + S1),
// v_ffbh_u32 (leading zeros, -1 for 0; v_clz_i32_u32 on gfx11+) and
// v_ffbh_i32 (leading sign bits, -1 for 0 and -1; v_cls_i32 on gfx11+). The
// restrictions behind the rules: all of them are 32-bit only, and the
// "nothing found" answer is -1 where PTX's clz wants the width and bfind wants
// -1 for a position but the two differ in how the -1 survives arithmetic.
//
// Two identities carry most of the 64-bit forms:
//  * For x in 0..31, x | 32 = x + 32, and -1 | 32 = -1: v_or_b32 32 turns the
//    low half's leading-zero count into the 64-bit one and keeps "none" huge,
//    so an unsigned min with the high half's count picks the right one.
//  * 31 - min(t, 32) (and 63 - min(t, 64)) is the bit position for a count t
//    and exactly -1 when t says "none", as PTX bfind wants.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

namespace {

Rule base(const std::string &form, const std::string &suffix, std::vector<OperandReq> reqs) {
  return makeRule(*ptx::formByName(form), suffix, std::move(reqs));
}

void addBrev(std::vector<Rule> &out) {
  {
    Rule r = base("brev.b32", "bfrev", {A});
    r.seq = {inst(Op::V_BFREV_B32, D(), {S(0)})};
    r.restriction = "none: v_bfrev_b32 is brev.b32";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("brev.b64", "halves", {R});
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_BFREV_B32, T(0), {S(0, Part::Lo)}), inst(Op::V_BFREV_B32, D(0, Part::Lo), {S(0, Part::Hi)}),
             inst(Op::V_MOV_B32, D(0, Part::Hi), {T(0)})};
    r.restriction = "no 64-bit bfrev: reverse each half and swap them; the first half goes through a "
                    "temporary so d may be a itself";
    out.push_back(std::move(r));
  }
}

void addPopc(std::vector<Rule> &out) {
  {
    Rule r = base("popc.b32", "bcnt", {A});
    r.seq = {inst(Op::V_BCNT_U32_B32, D(), {S(0), I(0)})};
    r.restriction = "none: v_bcnt_u32_b32 a, 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("popc.b64", "bcnt-acc", {R});
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_BCNT_U32_B32, T(0), {S(0, Part::Lo), I(0)}),
             inst(Op::V_BCNT_U32_B32, D(), {S(0, Part::Hi), T(0)})};
    r.restriction = "v_bcnt_u32_b32 counts 32 bits: the second count accumulates the first (S1 is an addend)";
    out.push_back(std::move(r));
  }
}

void addClz(std::vector<Rule> &out) {
  {
    Rule r = base("clz.b32", "ffbh-min", {A});
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_FFBH_U32, T(0), {S(0)}), inst(Op::V_MIN_U32, D(), {I(32), T(0)})};
    r.restriction = "v_ffbh_u32 gives -1 for 0 where PTX gives 32: an unsigned min with 32 maps -1 to 32";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("clz.b64", "ffbh-or-min3", {R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_U32, T(0), {S(0, Part::Hi)}), inst(Op::V_FFBH_U32, T(1), {S(0, Part::Lo)}),
             inst(Op::V_OR_B32, T(2), {I(32), T(1)}), inst(Op::V_MIN3_U32, D(), {T(0), T(2), I(64)})};
    r.restriction = "32-bit ffbh only, -1 for 0: (ffbh(lo) | 32) is ffbh(lo)+32 or stays -1; "
                    "min3 with ffbh(hi) and 64 picks the high count, the low one, or 64 for 0";
    out.push_back(std::move(r));
  }
}

void addBfind(std::vector<Rule> &out) {
  // ---- unsigned 32
  {
    Rule r = base("bfind.shiftamt.u32", "ffbh", {A});
    r.seq = {inst(Op::V_FFBH_U32, D(), {S(0)})};
    r.restriction = "none: v_ffbh_u32 is the shift amount, and -1 for 0 as PTX wants";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("bfind.u32", "ffbh-min-sub", {A});
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_U32, T(0), {S(0)}), inst(Op::V_MIN_U32, T(1), {I(32), T(0)}),
             inst(Op::V_SUB_U32, D(), {I(31), T(1)})};
    r.restriction = "position = 31 - ffbh, but ffbh's -1 for 0 would give 32: min(ffbh, 32) makes 31 - 32 = -1";
    out.push_back(std::move(r));
  }
  // ---- signed 32: v_ffbh_i32 counts the bits equal to the sign below it,
  // i.e. the leading zeros of a (or ~a when negative): PTX's inversion.
  {
    Rule r = base("bfind.shiftamt.s32", "ffbh-i32", {A});
    r.seq = {inst(Op::V_FFBH_I32, D(), {S(0)})};
    r.restriction = "none: v_ffbh_i32 inverts a negative input and counts from the msb; -1 for 0 and -1";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("bfind.s32", "ffbh-i32-min-sub", {A});
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_I32, T(0), {S(0)}), inst(Op::V_MIN_U32, T(1), {I(32), T(0)}),
             inst(Op::V_SUB_U32, D(), {I(31), T(1)})};
    r.restriction = "position = 31 - ffbh_i32; min with 32 turns the -1 for 0/-1 into 31 - 32 = -1";
    out.push_back(std::move(r));
  }
  // ---- unsigned 64
  {
    Rule r = base("bfind.shiftamt.u64", "ffbh-or-min", {R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_U32, T(0), {S(0, Part::Hi)}), inst(Op::V_FFBH_U32, T(1), {S(0, Part::Lo)}),
             inst(Op::V_OR_B32, T(2), {I(32), T(1)}), inst(Op::V_MIN_U32, D(), {T(0), T(2)})};
    r.restriction = "32-bit ffbh only: (ffbh(lo) | 32) adds 32 and keeps -1 for 0, so min with ffbh(hi) "
                    "is the 64-bit shift amount and -1 for 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("bfind.u64", "ffbh-or-min3-sub", {R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_U32, T(0), {S(0, Part::Hi)}), inst(Op::V_FFBH_U32, T(1), {S(0, Part::Lo)}),
             inst(Op::V_OR_B32, T(2), {I(32), T(1)}), inst(Op::V_MIN3_U32, T(3), {T(0), T(2), I(64)}),
             inst(Op::V_SUB_U32, D(), {I(63), T(3)})};
    r.restriction = "the 64-bit leading-zero count (ffbh halves, | 32, min3 with 64) then 63 - it; "
                    "64 for 0 gives -1";
    out.push_back(std::move(r));
  }
  // ---- signed 64: when hi is all sign bits (0 or -1), ffbh_i32(hi) is -1 and
  // the answer comes from lo ^ hi, which is lo inverted exactly when a < 0.
  {
    Rule r = base("bfind.shiftamt.s64", "ffbh-i32-xor-min", {R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_I32, T(0), {S(0, Part::Hi)}), inst(Op::V_XOR_B32, T(1), {S(0, Part::Lo), S(0, Part::Hi)}),
             inst(Op::V_FFBH_U32, T(2), {T(1)}), inst(Op::V_OR_B32, T(3), {I(32), T(2)}),
             inst(Op::V_MIN_U32, D(), {T(0), T(3)})};
    r.restriction = "no 64-bit ffbh_i32: hi's count (1..31) wins when hi is not all sign bits; "
                    "otherwise ffbh(lo ^ hi) | 32, which stays -1 for 0 and -1";
    out.push_back(std::move(r));
  }
  {
    Rule r = base("bfind.s64", "ffbh-i32-xor-min3-sub", {R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_FFBH_I32, T(0), {S(0, Part::Hi)}), inst(Op::V_XOR_B32, T(1), {S(0, Part::Lo), S(0, Part::Hi)}),
             inst(Op::V_FFBH_U32, T(2), {T(1)}), inst(Op::V_OR_B32, T(3), {I(32), T(2)}),
             inst(Op::V_MIN3_U32, T(4), {T(0), T(3), I(64)}), inst(Op::V_SUB_U32, D(), {I(63), T(4)})};
    r.restriction = "as bfind.shiftamt.s64, clamped to 64 by min3, then 63 - it (64 for 0 and -1 gives -1)";
    out.push_back(std::move(r));
  }
}

} // namespace

void addBitCountRules(std::vector<Rule> &out) {
  addBrev(out);
  addPopc(out);
  addClz(out);
  addBfind(out);
}

} // namespace p2a::rules
