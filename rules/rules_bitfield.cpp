// Rules for bfe bfi bmsk szext (PTX ISA 9.7.1).
//
// The restriction behind all of them: AMD's bit-field instructions
// (v_bfe_u32/i32, v_bfm_b32; Vega ISA / CDNA3 ISA / RDNA ISA VOP3 opcode
// tables) read 5 bits of offset and width, so a width of 32 gives 0 and an
// offset of 32 wraps to 0, and 64-bit shifts read 6 bits; PTX reads 8 bits of
// pos/len for the 32-bit forms (all 32 for the 64-bit ones, as NVIDIA
// hardware does) and defines every result past the register width. The
// register rules clamp with v_sub_u32 clamp / v_min_u32 / v_med3_u32 and select
// where a single endpoint stays out of reach; constant operands get their own
// rules (ISLE style) where the fix-ups fold away.
//
// Two tricks recur:
//  * lowMask(w) for 0 <= w <= 32 is the high half of the 64-bit logical shift
//    -1 >> (32 - w) (v_lshrrev_b64 reads 6 bits, so 32 - w = 32 still works);
//  * s = med3(pos, W -sat len, W) is W - min(len, W -sat pos), the number of
//    bits *not* in the field, in one instruction after the saturating subtract.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::ShfMode;
using ptx::TypeClass;

namespace {

TargetPredicate gfx11plus() {
  return {"gfx11+", [](const targets::TargetInfo &t) { return t.generation >= targets::Generation::GFX11; }};
}

// ---- constant pos and len, as expressions (rule_expr.hpp)
// A bit-field instruction's position and length sources. The 32-bit forms
// read 8 bits of each; the 64-bit forms read all 32, compared as 64-bit
// values so that pos + len cannot wrap. Every view prints as the operand's
// name, as the PTX ISA writes it.
struct Field {
  Expr pos, len;     // the sources as they are (32 bits)
  Expr pos8, len8;   // what the 32-bit forms read
  Expr pos64, len64; // what the 64-bit forms read, widened
  explicit Field(unsigned posIndex)
      : pos(src(posIndex, "pos")), len(src(posIndex + 1, "len")), pos8(named("pos", pos & 0xff)),
        len8(named("len", len & 0xff)), pos64(named("pos", zext(pos, 64))), len64(named("len", zext(len, 64))) {}
};
// The field width that lands in the register, min(len, W -sat pos), for the
// 32-bit forms (over pos8, len8) and the 64-bit ones (over pos64, len64).
Expr fieldWidth(const Expr &pos, const Expr &len, unsigned regWidth) {
  return min(len, regWidth - min(pos, regWidth));
}

// Proof cases (Rule::proofCases) for templates of 64-bit shifts by
// variable amounts, which Z3 bit-blasts into barrel shifters it compares
// slowly: one case per value of the `bits` low bits of x.
std::vector<BV> casesOnLowBits(const BV &x, unsigned bits) {
  std::vector<BV> cases;
  const BV low = x.extract(bits - 1, 0);
  for (uint64_t v = 0; v < (uint64_t(1) << bits); ++v)
    cases.push_back(low.eq(low.lit(v)));
  return cases;
}

// A field inside a 64-bit register (0 < len < 64, checked to cover): one
// case per len, which makes the second shift's amount, 64 - len, constant.
std::vector<BV> lengthCases(const std::vector<BV> &srcs, const std::vector<BV> &) {
  std::vector<BV> cases;
  for (uint64_t v = 1; v < 64; ++v)
    cases.push_back(srcs[2].eq(srcs[2].lit(v)));
  return cases;
}
// The low n bits set, for 0 <= n <= W (a shift by W itself would give 0).
Expr lowMask(const Expr &n, unsigned regWidth) {
  return ite(n < regWidth, (1 << n) - 1, regWidth == 64 ? ~0ull : ~0u);
}

// ------------------------------------------------------------------ bfe
// bfe.{u,s}32 with constant pos and len whose field ends below bit 31: the
// one v_bfe_{u32,i32} (`op`) takes them as inline constants.
Rule bfe32InRegister(const Form &form, Op op, const char *restriction) {
  const Field f(1);
  Rule r = makeRule(form, "imm", {A, Im, Im});
  r.constraints = {when(0 < f.len8 && f.pos8 + f.len8 < 32)};
  r.immFns = {f.pos8, f.len8};
  r.seq = {inst(op, D(), {S(0), F(0), F(1)})};
  r.priority = 1;
  r.restriction = restriction;
  return r;
}

void addBfe(std::vector<Rule> &out) {
  const Form u32{Opcode::Bfe, TypeClass::U, 32}, s32{Opcode::Bfe, TypeClass::S, 32};
  const Form u64{Opcode::Bfe, TypeClass::U, 64}, s64{Opcode::Bfe, TypeClass::S, 64};
  const Field f(1);
  // Constant fields of the 64-bit forms: inside the low half, inside the
  // high half, inside the register.
  const Expr inLowHalf = 0 < f.len64 && f.pos64 + f.len64 < 32;
  const Expr inHighHalf = 32 <= f.pos64 && 0 < f.len64 && f.pos64 + f.len64 < 64;
  const Expr inside64 = 0 < f.len64 && f.pos64 + f.len64 < 64;

  // ---- bfe.u32, register pos/len
  {
    Rule r = makeRule(u32, "clamp-select", {A, A, A});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_BFE_U32, T(0), {S(1), I(0), I(8)}),      // pos8
             inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), T(0)}),  // 32 -sat pos8
             inst(Op::V_BFE_U32, T(1), {S(2), I(0), I(8)}),      // len8
             inst(Op::V_MIN_U32, T(1), {T(1), T(0)}),         // w = min(len8, 32 -sat pos8) in [0,32]
             inst(Op::V_BFE_U32, T(2), {S(0), S(1), T(1)}),   // reads pos[4:0], w[4:0]
             inst(Op::V_CMP_EQ_U32, VCC(), {I(32), T(1)}),    // w = 32 only for pos = 0, len >= 32
             inst(Op::V_CNDMASK_B32, D(), {T(2), S(0), VCC()})};
    r.restriction = "v_bfe_u32 reads 5 bits of offset and width: the width is clamped to "
                    "min(len, 32 - pos) (0 when pos >= 32), and the one width it cannot express, 32, selects a";
    out.push_back(std::move(r));
  }
  // ---- bfe.u32, constant pos and len
  {
    Rule r = makeRule(u32, "imm-zero", {A, Im, Im});
    r.constraints = {when(fieldWidth(f.pos8, f.len8, 32) == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 32): the result is 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(u32, "imm-shr", {A, Im, Im});
    r.constraints = {when(0 < f.len8 && f.pos8 < 32 && f.pos8 + f.len8 >= 32)};
    r.immFns = {f.pos8};
    r.seq = {inst(Op::V_LSHRREV_B32, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 31 is a plain right shift (v_bfe_u32 cannot take width 32)";
    out.push_back(std::move(r));
  }
  out.push_back(bfe32InRegister(u32, Op::V_BFE_U32, "pos + len < 32: one v_bfe_u32 with inline constants"));

  // ---- bfe.s32, register pos/len
  {
    Rule r = makeRule(s32, "sar-bfe-select", {A, A, A});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_BFE_U32, T(0), {S(1), I(0), I(8)}),     // pos8
             inst(Op::V_MIN_U32, T(0), {I(31), T(0)}),       // min(pos8, 31)
             inst(Op::V_ASHRREV_I32, T(1), {T(0), S(0)}),    // t = a >>s min(pos, 31)
             inst(Op::V_BFE_I32, T(2), {T(1), I(0), S(2)}),  // sign-extend t from len[4:0] bits
             inst(Op::V_BFE_U32, T(3), {S(2), I(0), I(8)}),     // len8
             inst(Op::V_CMP_GT_U32, VCC(), {I(32), T(3)}),   // len8 < 32 (else t itself)
             inst(Op::V_CNDMASK_B32, D(), {T(1), T(2), VCC()})};
    r.restriction = "v_bfe_i32 masks offset/width to 5 bits: shift right arithmetically by min(pos, 31) first "
                    "(bits past the msb become the sign, as PTX defines), sign-extend from len, and select the "
                    "shifted value when len >= 32 (width 32 would read as 0)";
    out.push_back(std::move(r));
  }
  // ---- bfe.s32, constant pos and len
  {
    Rule r = makeRule(s32, "imm-zero", {A, Im, Im});
    r.constraints = {when(f.len8 == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "len = 0: the result is 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(s32, "imm-sar", {A, Im, Im});
    r.constraints = {when(f.len8 != 0 && f.pos8 + f.len8 >= 32)};
    r.immFns = {min(f.pos8, 31)};
    r.seq = {inst(Op::V_ASHRREV_I32, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 31 (or starting past it) is an arithmetic right shift by min(pos, 31)";
    out.push_back(std::move(r));
  }
  out.push_back(bfe32InRegister(s32, Op::V_BFE_I32, "pos + len < 32: one v_bfe_i32 with inline constants"));

  // ---- bfe.u64, register pos/len (32 bits each, read whole)
  auto u64Seq = [](Rule &r) {
    r.temps = {TempKind::V32, TempKind::V64, TempKind::V64, TempKind::V64};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(64), S(2)}),   // 64 -sat len
             inst(Op::V_MED3_U32, T(0), {S(1), T(0), I(64)}),  // s = 64 - min(len, 64 -sat pos)
             inst(Op::V_LSHRREV_B64, T(1), {T(0), I(~0ull)}),  // lowMask(64 - s), wrong (all ones) for s = 64
             inst(Op::V_LSHRREV_B64, T(2), {S(1), S(0)}),      // a >> pos[5:0]
             inst(Op::V_AND_B32, T(3, Part::Lo), {T(1, Part::Lo), T(2, Part::Lo)}),
             inst(Op::V_AND_B32, T(3, Part::Hi), {T(1, Part::Hi), T(2, Part::Hi)}),
             inst(Op::V_CMP_GT_U32, VCC(), {I(64), T(0)})};     // s < 64: the field is not empty
  };
  const char *u64Why = "64-bit shifts read 6 bits: the field width min(len, 64 - pos) is clamped with a saturating "
                       "subtract and v_med3_u32, the mask is one 64-bit shift of -1, and the empty field (which "
                       "that shift cannot express) selects 0";
  {
    Rule r = makeRule(u64, "mask-select-vopd", {A, A, A});
    r.target = gfx11plus();
    r.sameResultAs = u64.name() + "/mask-select";
    u64Seq(r);
    r.seq.push_back(inst(Op::V_DUAL_CNDMASK_PAIR, D(), {I(0), T(3), VCC()}));
    r.restriction = std::string(u64Why) + ", both halves in one VOPD issue";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(u64, "mask-select", {A, A, A});
    u64Seq(r);
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {I(0), T(3, Part::Lo), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {I(0), T(3, Part::Hi), VCC()}));
    r.restriction = u64Why;
    out.push_back(std::move(r));
  }
  // ---- bfe.u64, constant pos and len
  {
    Rule r = makeRule(u64, "imm-zero", {A, Im, Im});
    r.constraints = {when(fieldWidth(f.pos64, f.len64, 64) == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {I(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 64): the result is 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(u64, "imm-shr", {A, Im, Im});
    r.constraints = {when(f.pos64 < 64 && 0 < f.len64 && f.pos64 + f.len64 >= 64)};
    r.seq = {inst(Op::V_LSHRREV_B64, D(), {S(1), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 63 is one 64-bit right shift";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(u64, "imm-lo", {A, Im, Im});
    r.constraints = {when(inLowHalf)};
    r.seq = {inst(Op::V_BFE_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1), S(2)}),
             inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "a field inside the low half: one 32-bit v_bfe_u32, high half 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(u64, "imm-hi", {A, Im, Im});
    r.constraints = {when(inHighHalf)};
    r.immFns = {f.pos - 32};
    r.seq = {inst(Op::V_BFE_U32, D(0, Part::Lo), {S(0, Part::Hi), F(0), S(2)}),
             inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "a field inside the high half: one 32-bit v_bfe_u32 of a.hi, high half 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(u64, "imm-2shift", {A, Im, Im});
    r.constraints = {when(inside64)};
    r.immFns = {64 - f.pos - f.len, 64 - f.len};
    r.temps = {TempKind::V64};
    r.seq = {inst(Op::V_LSHLREV_B64, T(0), {F(0), S(0)}), inst(Op::V_LSHRREV_B64, D(), {F(1), T(0)})};
    r.proofCases = lengthCases;
    r.priority = 1;
    r.restriction = "a field inside the register: shift it to the top, then down to bit 0";
    out.push_back(std::move(r));
  }

  // ---- bfe.s64, register pos/len
  auto s64Seq = [](Rule &r) {
    r.temps = {TempKind::V32, TempKind::V64, TempKind::V32, TempKind::V64, TempKind::V64};
    r.seq = {inst(Op::V_MIN_U32, T(0), {I(63), S(1)}),          // min(pos, 63)
             inst(Op::V_ASHRREV_I64, T(1), {T(0), S(0)}),       // t = a >>s min(pos, 63)
             inst(Op::V_SUB_U32_CLAMP, T(2), {I(64), S(2)}),    // k = 64 -sat len, 64 only for len = 0
             inst(Op::V_LSHLREV_B64, T(3), {T(2), T(1)}),
             inst(Op::V_ASHRREV_I64, T(4), {T(2), T(3)}),       // sign-extend t from len bits
             inst(Op::V_CMP_NE_U32, VCC(), {I(0), S(2)})};
    // Proved per value of k's 6 bits (what the shifts read): two of the
    // three 64-bit shifts are then by a constant (64 cases in about 7 s,
    // where the whole took 11 s).
    r.proofCases = [](const std::vector<BV> &, const std::vector<BV> &written) {
      return casesOnLowBits(written[2], 6);
    };
  };
  {
    Rule r = makeRule(s64, "sar-select-vopd", {A, A, A});
    r.target = gfx11plus();
    r.sameResultAs = s64.name() + "/sar-select";
    s64Seq(r);
    r.seq.push_back(inst(Op::V_DUAL_CNDMASK_PAIR, D(), {I(0), T(4), VCC()}));
    r.restriction = "64-bit shifts read 6 bits: shift right arithmetically by min(pos, 63), sign-extend with "
                    "a shift pair by 64 -sat len, and select 0 for len = 0 (a shift by 64 reads as 0), both "
                    "halves in one VOPD issue";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(s64, "sar-select", {A, A, A});
    s64Seq(r);
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {I(0), T(4, Part::Lo), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {I(0), T(4, Part::Hi), VCC()}));
    r.restriction = "64-bit shifts read 6 bits: shift right arithmetically by min(pos, 63), sign-extend with "
                    "a shift pair by 64 -sat len, and select 0 for len = 0 (a shift by 64 reads as 0)";
    out.push_back(std::move(r));
  }
  // ---- bfe.s64, constant pos and len
  {
    Rule r = makeRule(s64, "imm-zero", {A, Im, Im});
    r.constraints = {when(f.len == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {I(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "len = 0: the result is 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(s64, "imm-sar", {A, Im, Im});
    r.constraints = {when(0 < f.len64 && f.pos64 + f.len64 >= 64)};
    r.immFns = {min(f.pos, 63)};
    r.seq = {inst(Op::V_ASHRREV_I64, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 63 (or starting past it) is one arithmetic shift by min(pos, 63)";
    out.push_back(std::move(r));
  }
  for (bool hi : {false, true}) {
    Rule r = makeRule(s64, hi ? "imm-hi" : "imm-lo", {A, Im, Im});
    r.constraints = {when(hi ? inHighHalf : inLowHalf)};
    r.immFns = {hi ? f.pos - 32 : f.pos};
    r.seq = {inst(Op::V_BFE_I32, D(0, Part::Lo), {S(0, hi ? Part::Hi : Part::Lo), F(0), S(2)}),
             inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), D(0, Part::Lo)})};
    r.priority = 1;
    r.restriction = hi ? "a field inside the high half: v_bfe_i32 of a.hi, then its sign into the high half"
                       : "a field inside the low half: v_bfe_i32, then its sign into the high half";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(s64, "imm-2shift", {A, Im, Im});
    r.constraints = {when(inside64)};
    r.immFns = {64 - f.pos - f.len, 64 - f.len};
    r.temps = {TempKind::V64};
    r.seq = {inst(Op::V_LSHLREV_B64, T(0), {F(0), S(0)}), inst(Op::V_ASHRREV_I64, D(), {F(1), T(0)})};
    r.proofCases = lengthCases;
    r.priority = 1;
    r.restriction = "a field inside the register: shift it to the top, then arithmetically down to bit 0";
    out.push_back(std::move(r));
  }
}

// ------------------------------------------------------------------ bfi
void addBfi(std::vector<Rule> &out) {
  const Form b32{Opcode::Bfi, TypeClass::B, 32}, b64{Opcode::Bfi, TypeClass::B, 64};
  const Field f(2);
  {
    Rule r = makeRule(b32, "mask64-bfi", {A, A, A, A});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V64, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_BFE_U32, T(0), {S(3), I(0), I(8)}),        // len8
             inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), T(0)}),    // 32 -sat len8
             inst(Op::V_BFE_U32, T(1), {S(2), I(0), I(8)}),        // pos8
             inst(Op::V_MED3_U32, T(1), {T(1), T(0), I(32)}),   // s = 32 - min(len8, 32 -sat pos8)
             inst(Op::V_LSHRREV_B64, T(2), {T(1), I(~0ull)}),   // hi = lowMask(32 - s), also for s = 32
             inst(Op::V_LSHLREV_B32, T(3), {S(2), T(2, Part::Hi)}), // the field mask (0 when pos >= 32)
             inst(Op::V_LSHL_OR_B32, T(4), {S(0), S(2), I(0)}), // a << pos (VOP3: both may be constants)
             inst(Op::V_BFI_B32, D(), {T(3), T(4), S(1)})};
    r.restriction = "v_bfm_b32 reads 5 bits and cannot make a 32-bit mask: the width min(len, 32 - pos) "
                    "(0 when pos >= 32) is clamped with v_med3_u32 and its mask taken from the high half of "
                    "a 64-bit shift of -1, which covers widths 0..32";
    out.push_back(std::move(r));
  }
  // ---- bfi.b32, constant pos and len
  const Expr width32 = fieldWidth(f.pos8, f.len8, 32);
  const Expr mask32 = named("mask", lowMask(width32, 32) << min(f.pos8, 31));
  {
    Rule r = makeRule(b32, "imm-keep", {A, A, Im, Im});
    r.constraints = {when(width32 == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(1)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 32): the result is b";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(b32, "imm-all", {A, A, Im, Im});
    r.constraints = {when(f.pos8 == 0 && f.len8 >= 32)};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
    r.priority = 1;
    r.restriction = "the field is the whole register: the result is a";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(b32, "imm-top", {A, A, Im, Im});
    r.constraints = {when(0 < f.pos8 && f.pos8 < 32 && f.pos8 + f.len8 >= 32)};
    r.immFns = {f.pos8};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_BFE_U32, T(0), {S(1), I(0), F(0)}), inst(Op::V_LSHL_OR_B32, D(), {S(0), F(0), T(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 31: (a << pos) | (b's low pos bits), no mask literal (gfx9 has no VOP3 literal)";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(b32, "imm-low", {A, A, Im, Im});
    r.constraints = {when(f.pos8 == 0 && 0 < f.len8 && f.len8 < 32)};
    r.immFns = {mask32};
    r.seq = {inst(Op::V_BFI_B32, D(), {F(0), S(0), S(1)})};
    r.priority = 1;
    r.restriction = "a constant mask: one v_bfi_b32 (the mask is a literal unless inline; gfx9 moves it to a VGPR)";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(b32, "imm", {A, A, Im, Im});
    r.constraints = {when(0 < f.pos8 && 0 < f.len8 && f.pos8 + f.len8 < 32)};
    r.immFns = {f.pos8, mask32};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_LSHLREV_B32, T(0), {F(0), S(0)}), inst(Op::V_BFI_B32, D(), {F(1), T(0), S(1)})};
    r.priority = 1;
    r.restriction = "a constant mask: shift a into place, one v_bfi_b32 (the mask is a literal unless inline; "
                    "gfx9 moves it to a VGPR)";
    out.push_back(std::move(r));
  }

  // ---- bfi.b64, register pos/len (32 bits each, read whole)
  auto b64Seq = [](Rule &r) {
    r.temps = {TempKind::V32, TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V64};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(64), S(3)}),   // 64 -sat len
             inst(Op::V_MED3_U32, T(0), {S(2), T(0), I(64)}),  // s = 64 - min(len, 64 -sat pos)
             inst(Op::V_LSHRREV_B64, T(1), {T(0), I(~0ull)}),  // lowMask(64 - s); all ones for s = 64
             inst(Op::V_LSHLREV_B64, T(2), {S(2), T(1)}),      // field mask (wrong only for s = 64)
             inst(Op::V_LSHLREV_B64, T(3), {S(2), S(0)}),
             inst(Op::V_CMP_GT_U32, VCC(), {I(64), T(0)})};     // s < 64: a non-empty field
  };
  {
    Rule r = makeRule(b64, "mask-select-vopd", {A, A, A, A});
    r.target = gfx11plus();
    r.sameResultAs = b64.name() + "/mask-select";
    b64Seq(r);
    r.seq.push_back(inst(Op::V_DUAL_CNDMASK_PAIR, T(4), {I(0), T(2), VCC()}));
    r.seq.push_back(inst(Op::V_BFI_B32, D(0, Part::Lo), {T(4, Part::Lo), T(3, Part::Lo), S(1, Part::Lo)}));
    r.seq.push_back(inst(Op::V_BFI_B32, D(0, Part::Hi), {T(4, Part::Hi), T(3, Part::Hi), S(1, Part::Hi)}));
    r.restriction = "64-bit shifts read 6 bits: the width min(len, 64 - pos) is clamped with v_med3_u32, the "
                    "mask is one 64-bit shift of -1 moved by pos, and the empty field (out of reach of a 6-bit "
                    "shift) clears the mask in one VOPD issue";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(b64, "mask-select", {A, A, A, A});
    b64Seq(r);
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(4, Part::Lo), {I(0), T(2, Part::Lo), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(4, Part::Hi), {I(0), T(2, Part::Hi), VCC()}));
    r.seq.push_back(inst(Op::V_BFI_B32, D(0, Part::Lo), {T(4, Part::Lo), T(3, Part::Lo), S(1, Part::Lo)}));
    r.seq.push_back(inst(Op::V_BFI_B32, D(0, Part::Hi), {T(4, Part::Hi), T(3, Part::Hi), S(1, Part::Hi)}));
    r.restriction = "64-bit shifts read 6 bits: the width min(len, 64 - pos) is clamped with v_med3_u32, the "
                    "mask is one 64-bit shift of -1 moved by pos, and the empty field (out of reach of a 6-bit "
                    "shift) clears the mask";
    out.push_back(std::move(r));
  }
  // ---- bfi.b64, constant pos and len
  const Expr width64 = fieldWidth(f.pos64, f.len64, 64);
  const Expr mask64 = lowMask(width64, 64) << min(f.pos64, 63);
  {
    Rule r = makeRule(b64, "imm-keep", {A, A, Im, Im});
    r.constraints = {when(width64 == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(1, Part::Lo)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {S(1, Part::Hi)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 64): the result is b";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(b64, "imm", {A, A, Im, Im});
    r.constraints = {when(width64 != 0)};
    r.immFns = {f.pos & 63, named("mask.lo", bits(mask64, 31, 0)), named("mask.hi", bits(mask64, 63, 32))};
    r.temps = {TempKind::V64};
    r.seq = {inst(Op::V_LSHLREV_B64, T(0), {F(0), S(0)}),
             inst(Op::V_BFI_B32, D(0, Part::Lo), {F(1), T(0, Part::Lo), S(1, Part::Lo)}),
             inst(Op::V_BFI_B32, D(0, Part::Hi), {F(2), T(0, Part::Hi), S(1, Part::Hi)})};
    r.priority = 1;
    r.restriction = "a constant mask: one 64-bit shift of a and a v_bfi_b32 per half (literal masks move to "
                    "VGPRs on gfx9)";
    out.push_back(std::move(r));
  }
}

// ------------------------------------------------------------------ bmsk
void addBmsk(std::vector<Rule> &out) {
  Form wrap{Opcode::Bmsk, TypeClass::B, 32};
  wrap.mode = ShfMode::Wrap;
  Form clamp = wrap;
  clamp.mode = ShfMode::Clamp;
  const Expr a = src(0, "a"), b = src(1, "b");
  {
    Rule r = makeRule(wrap, "bfm", {A, A});
    r.seq = {inst(Op::V_BFM_B32, D(), {S(1), S(0)})};
    r.restriction = "equivalent: v_bfm_b32 builds ((1 << b[4:0]) - 1) << a[4:0], dropping bits past 31 "
                    "exactly as .wrap does";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(wrap, "imm-a", {Im, A});
    r.immFns = {a & 31};
    r.seq = {inst(Op::V_BFM_B32, D(), {S(1), F(0)})};
    r.priority = 1;
    r.restriction = "a constant start is reduced to a & 31, an inline constant";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(wrap, "imm-b", {A, Im});
    r.immFns = {b & 31};
    r.seq = {inst(Op::V_BFM_B32, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a constant width is reduced to b & 31, an inline constant";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(clamp, "mask64", {A, A});
    r.temps = {TempKind::V32, TempKind::V64};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(1)}),   // 32 -sat b
             inst(Op::V_MED3_U32, T(0), {S(0), T(0), I(32)}),  // s = 32 - min(b, 32 -sat a)
             inst(Op::V_LSHRREV_B64, T(1), {T(0), I(~0ull)}),  // hi = lowMask(32 - s), widths 0..32
             inst(Op::V_LSHLREV_B32, D(), {S(0), T(1, Part::Hi)})};
    r.restriction = "v_bfm_b32 reads 5 bits and cannot make a 32-bit mask: the width min(b, 32 - a) (0 when "
                    "a >= 32) is clamped with v_med3_u32 and its mask taken from the high half of a 64-bit "
                    "shift of -1";
    out.push_back(std::move(r));
  }
  // constant a
  {
    Rule r = makeRule(clamp, "imm-a-zero", {Im, A});
    r.constraints = {when(a >= 32)};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "a start at or past 32: the mask is 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(clamp, "imm-a", {Im, A});
    r.constraints = {when(0 < a && a < 32)};
    r.immFns = {32 - a};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {F(0), S(1)}), inst(Op::V_BFM_B32, D(), {T(0), S(0)})};
    r.priority = 1;
    r.restriction = "a constant start a > 0: clamping the width to 32 - a keeps it below 32, so v_bfm_b32 is exact";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(clamp, "imm-a0", {Im, A});
    r.constraints = {when(a == 0)};
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(1)}),
             inst(Op::V_LSHRREV_B64, pair(T(1), D()), {O(T(0)), O(I(~0ull))})};
    r.priority = 1;
    r.restriction = "start 0: lowMask(min(b, 32)) is the high half of -1 >> (32 -sat b) (a 64-bit shift "
                    "reaches 32); d is that high half";
    out.push_back(std::move(r));
  }
  // constant b
  {
    Rule r = makeRule(clamp, "imm-b-zero", {A, Im});
    r.constraints = {when(b == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "width 0: the mask is 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(clamp, "imm-b-all", {A, Im});
    r.constraints = {when(b >= 32)};
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {I(32), S(0)}),
             inst(Op::V_LSHLREV_B64, pair(D(), T(1)), {O(T(0)), O(I(~0ull))})};
    r.priority = 1;
    r.restriction = "width >= 32: -1 << min(a, 32) as a 64-bit shift (reaches 32); d is the low half";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(clamp, "imm-b", {A, Im});
    r.constraints = {when(0 < b && b < 32)};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(0)}), inst(Op::V_MIN_U32, T(0), {S(1), T(0)}),
             inst(Op::V_BFM_B32, D(), {T(0), S(0)})};
    r.priority = 1;
    r.restriction = "a constant width below 32: clamp it to 32 -sat a (0 when a >= 32), then v_bfm_b32 is exact";
    out.push_back(std::move(r));
  }
}

// ------------------------------------------------------------------ szext
void addSzext(std::vector<Rule> &out) {
  for (ShfMode m : {ShfMode::Wrap, ShfMode::Clamp})
    for (TypeClass ty : {TypeClass::U, TypeClass::S}) {
      Form f{Opcode::Szext, ty, 32};
      f.mode = m;
      const bool sgn = ty == TypeClass::S, clamp = m == ShfMode::Clamp;
      const Op bfe = sgn ? Op::V_BFE_I32 : Op::V_BFE_U32;
      if (!clamp) {
        Rule r = makeRule(f, "bfe", {A, A});
        r.seq = {inst(bfe, D(), {S(0), I(0), S(1)})};
        r.restriction = sgn ? "equivalent: v_bfe_i32 a, 0, b reads b[4:0] and gives 0 for width 0, as .wrap does"
                            : "equivalent: v_bfe_u32 a, 0, b reads b[4:0], as .wrap does";
        out.push_back(std::move(r));
      } else {
        Rule r = makeRule(f, "bfe-select", {A, A});
        r.temps = {TempKind::V32};
        r.seq = {inst(bfe, T(0), {S(0), I(0), S(1)}), inst(Op::V_CMP_GT_U32, VCC(), {I(32), S(1)}),
                 inst(Op::V_CNDMASK_B32, D(), {S(0), T(0), VCC()})};
        r.restriction = "v_bfe reads 5 bits of width (32 reads as 0): select a when b >= 32";
        out.push_back(std::move(r));
      }
      // A constant width: the amount PTX reads is min(b, 32) (.clamp) or b & 31
      // (.wrap). min(b, 32) is 0 exactly when b is, and below 32 exactly when
      // b is; b & 31 is always below 32.
      const Expr b = src(1, "b");
      const Expr width = clamp ? min(b, 32) : b & 31;
      {
        Rule r = makeRule(f, "imm-zero", {A, Im});
        r.constraints = {when(clamp ? b == 0 : width == 0)};
        r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
        r.priority = 1;
        r.restriction = "width 0: the result is 0";
        out.push_back(std::move(r));
      }
      if (clamp) {
        Rule r = makeRule(f, "imm-all", {A, Im});
        r.constraints = {when(b >= 32)};
        r.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
        r.priority = 1;
        r.restriction = "clamped width 32: the result is a";
        out.push_back(std::move(r));
      }
      {
        Rule r = makeRule(f, "imm", {A, Im});
        r.constraints = {when(clamp ? 0 < b && b < 32 : width != 0)};
        r.immFns = {width};
        r.seq = {inst(bfe, D(), {S(0), I(0), F(0)})};
        r.priority = 1;
        r.restriction = "a constant width below 32: one v_bfe with inline constants";
        out.push_back(std::move(r));
      }
    }
}

} // namespace

void addBitFieldRules(std::vector<Rule> &out) {
  addBfe(out);
  addBfi(out);
  addBmsk(out);
  addSzext(out);
}

} // namespace p2a::rules
