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

using Srcs = std::vector<BV>;

const auto R = OperandReq::Reg;
const auto A = OperandReq::Any;
const auto Im = OperandReq::Imm;

TargetPredicate gfx11plus() {
  return {"gfx11+", [](const targets::TargetInfo &t) { return t.generation >= targets::Generation::GFX11; }};
}

// ---- helpers over (constant) PTX sources, as BVs
BV low8(const BV &v) { return v & v.lit(0xff); }
// 32-bit forms: w = min(len8, 32 -sat pos8), the field width that lands in the register.
BV w32(const BV &pos, const BV &len) {
  BV p = low8(pos), l = low8(len);
  return l.umin(p.lit(32) - p.umin(p.lit(32)));
}
// 64-bit forms (32-bit pos/len read whole): the same, as a 64-bit value.
BV w64(const BV &pos, const BV &len) {
  BV P = pos.zext(64), L = len.zext(64);
  return L.umin(P.lit(64) - P.umin(P.lit(64)));
}
BV lowMask64(const BV &n64) { // n64 <= 64, 64 bits wide
  return BV::ite(n64.ult(n64.lit(64)), n64.lit(1).shl(n64) - n64.lit(1), n64.lit(~0ull));
}

// ------------------------------------------------------------------ bfe
// bfe.{u,s}32 with constant pos and len whose field ends below bit 31: the
// one v_bfe_{u32,i32} (`op`) takes them as inline constants.
Rule bfe32InRegister(const Form &form, Op op, const char *restriction) {
  Rule r = makeRule(form, "imm", {A, Im, Im});
  r.constraints = {when("0 < len, pos + len < 32", [](const Srcs &s) {
    BV p = low8(s[1]), l = low8(s[2]);
    return l.ne(l.lit(0)) & (p + l).ult(p.lit(32));
  })};
  r.immFns = {{"pos", [](const Srcs &s) { return low8(s[1]); }}, {"len", [](const Srcs &s) { return low8(s[2]); }}};
  r.seq = {inst(op, D(), {S(0), F(0), F(1)})};
  r.priority = 1;
  r.restriction = restriction;
  return r;
}

void addBfe(std::vector<Rule> &out) {
  const Form u32{Opcode::Bfe, TypeClass::U, 32}, s32{Opcode::Bfe, TypeClass::S, 32};
  const Form u64{Opcode::Bfe, TypeClass::U, 64}, s64{Opcode::Bfe, TypeClass::S, 64};

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
    out.push_back(r);
  }
  // ---- bfe.u32, constant pos and len
  {
    Rule r = makeRule(u32, "imm-zero", {A, Im, Im});
    r.constraints = {when("min(len, 32 - pos) == 0", [](const Srcs &s) {
      BV w = w32(s[1], s[2]);
      return w.eq(w.lit(0));
    })};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 32): the result is 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(u32, "imm-shr", {A, Im, Im});
    r.constraints = {when("pos < 32, pos + len >= 32", [](const Srcs &s) {
      BV p = low8(s[1]), l = low8(s[2]);
      return p.ult(p.lit(32)) & p.lit(32).ule(p + l) & l.ne(l.lit(0));
    })};
    r.immFns = {{"pos", [](const Srcs &s) { return low8(s[1]); }}};
    r.seq = {inst(Op::V_LSHRREV_B32, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 31 is a plain right shift (v_bfe_u32 cannot take width 32)";
    out.push_back(r);
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
    out.push_back(r);
  }
  // ---- bfe.s32, constant pos and len
  {
    Rule r = makeRule(s32, "imm-zero", {A, Im, Im});
    r.constraints = {when("len == 0", [](const Srcs &s) { return low8(s[2]).eq(s[2].lit(0)); })};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "len = 0: the result is 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(s32, "imm-sar", {A, Im, Im});
    r.constraints = {when("len != 0, pos + len >= 32", [](const Srcs &s) {
      BV p = low8(s[1]), l = low8(s[2]);
      return l.ne(l.lit(0)) & p.lit(32).ule(p + l);
    })};
    r.immFns = {{"min(pos,31)", [](const Srcs &s) { return low8(s[1]).umin(s[1].lit(31)); }}};
    r.seq = {inst(Op::V_ASHRREV_I32, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 31 (or starting past it) is an arithmetic right shift by min(pos, 31)";
    out.push_back(r);
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
    u64Seq(r);
    r.seq.push_back(inst(Op::V_DUAL_CNDMASK_PAIR, D(), {I(0), T(3), VCC()}));
    r.restriction = std::string(u64Why) + ", both halves in one VOPD issue";
    out.push_back(r);
  }
  {
    Rule r = makeRule(u64, "mask-select", {A, A, A});
    u64Seq(r);
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {I(0), T(3, Part::Lo), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {I(0), T(3, Part::Hi), VCC()}));
    r.restriction = u64Why;
    out.push_back(r);
  }
  // ---- bfe.u64, constant pos and len
  {
    Rule r = makeRule(u64, "imm-zero", {A, Im, Im});
    r.constraints = {when("min(len, 64 - pos) == 0", [](const Srcs &s) {
      BV w = w64(s[1], s[2]);
      return w.eq(w.lit(0));
    })};
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {I(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 64): the result is 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(u64, "imm-shr", {A, Im, Im});
    r.constraints = {when("pos < 64, 0 < len, pos + len >= 64", [](const Srcs &s) {
      BV P = s[1].zext(64), L = s[2].zext(64);
      return P.ult(P.lit(64)) & L.ne(L.lit(0)) & P.lit(64).ule(P + L);
    })};
    r.seq = {inst(Op::V_LSHRREV_B64, D(), {S(1), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 63 is one 64-bit right shift";
    out.push_back(r);
  }
  {
    Rule r = makeRule(u64, "imm-lo", {A, Im, Im});
    r.constraints = {when("0 < len, pos + len < 32", [](const Srcs &s) {
      BV P = s[1].zext(64), L = s[2].zext(64);
      return L.ne(L.lit(0)) & (P + L).ult(P.lit(32));
    })};
    r.seq = {inst(Op::V_BFE_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1), S(2)}),
             inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "a field inside the low half: one 32-bit v_bfe_u32, high half 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(u64, "imm-hi", {A, Im, Im});
    r.constraints = {when("32 <= pos, 0 < len, pos + len < 64", [](const Srcs &s) {
      BV P = s[1].zext(64), L = s[2].zext(64);
      return P.lit(32).ule(P) & L.ne(L.lit(0)) & (P + L).ult(P.lit(64));
    })};
    r.immFns = {{"pos-32", [](const Srcs &s) { return s[1] - s[1].lit(32); }}};
    r.seq = {inst(Op::V_BFE_U32, D(0, Part::Lo), {S(0, Part::Hi), F(0), S(2)}),
             inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "a field inside the high half: one 32-bit v_bfe_u32 of a.hi, high half 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(u64, "imm-2shift", {A, Im, Im});
    r.constraints = {when("0 < len, pos + len < 64", [](const Srcs &s) {
      BV P = s[1].zext(64), L = s[2].zext(64);
      return L.ne(L.lit(0)) & (P + L).ult(P.lit(64));
    })};
    r.immFns = {{"64-pos-len", [](const Srcs &s) { return s[1].lit(64) - s[1] - s[2]; }},
                {"64-len", [](const Srcs &s) { return s[2].lit(64) - s[2]; }}};
    r.temps = {TempKind::V64};
    r.seq = {inst(Op::V_LSHLREV_B64, T(0), {F(0), S(0)}), inst(Op::V_LSHRREV_B64, D(), {F(1), T(0)})};
    r.priority = 1;
    r.restriction = "a field inside the register: shift it to the top, then down to bit 0";
    out.push_back(r);
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
  };
  {
    Rule r = makeRule(s64, "sar-select-vopd", {A, A, A});
    r.target = gfx11plus();
    s64Seq(r);
    r.seq.push_back(inst(Op::V_DUAL_CNDMASK_PAIR, D(), {I(0), T(4), VCC()}));
    r.restriction = "64-bit shifts read 6 bits: shift right arithmetically by min(pos, 63), sign-extend with "
                    "a shift pair by 64 -sat len, and select 0 for len = 0 (a shift by 64 reads as 0), both "
                    "halves in one VOPD issue";
    out.push_back(r);
  }
  {
    Rule r = makeRule(s64, "sar-select", {A, A, A});
    s64Seq(r);
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {I(0), T(4, Part::Lo), VCC()}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {I(0), T(4, Part::Hi), VCC()}));
    r.restriction = "64-bit shifts read 6 bits: shift right arithmetically by min(pos, 63), sign-extend with "
                    "a shift pair by 64 -sat len, and select 0 for len = 0 (a shift by 64 reads as 0)";
    out.push_back(r);
  }
  // ---- bfe.s64, constant pos and len
  {
    Rule r = makeRule(s64, "imm-zero", {A, Im, Im});
    r.constraints = {when("len == 0", [](const Srcs &s) { return s[2].eq(s[2].lit(0)); })};
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {I(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
    r.priority = 1;
    r.restriction = "len = 0: the result is 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(s64, "imm-sar", {A, Im, Im});
    r.constraints = {when("0 < len, pos + len >= 64", [](const Srcs &s) {
      BV P = s[1].zext(64), L = s[2].zext(64);
      return L.ne(L.lit(0)) & P.lit(64).ule(P + L);
    })};
    r.immFns = {{"min(pos,63)", [](const Srcs &s) { return s[1].umin(s[1].lit(63)); }}};
    r.seq = {inst(Op::V_ASHRREV_I64, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 63 (or starting past it) is one arithmetic shift by min(pos, 63)";
    out.push_back(r);
  }
  for (bool hi : {false, true}) {
    Rule r = makeRule(s64, hi ? "imm-hi" : "imm-lo", {A, Im, Im});
    if (hi)
      r.constraints = {when("32 <= pos, 0 < len, pos + len < 64", [](const Srcs &s) {
        BV P = s[1].zext(64), L = s[2].zext(64);
        return P.lit(32).ule(P) & L.ne(L.lit(0)) & (P + L).ult(P.lit(64));
      })};
    else
      r.constraints = {when("0 < len, pos + len < 32", [](const Srcs &s) {
        BV P = s[1].zext(64), L = s[2].zext(64);
        return L.ne(L.lit(0)) & (P + L).ult(P.lit(32));
      })};
    r.immFns = {{hi ? "pos-32" : "pos", [hi](const Srcs &s) { return hi ? s[1] - s[1].lit(32) : s[1]; }}};
    r.seq = {inst(Op::V_BFE_I32, D(0, Part::Lo), {S(0, hi ? Part::Hi : Part::Lo), F(0), S(2)}),
             inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), D(0, Part::Lo)})};
    r.priority = 1;
    r.restriction = hi ? "a field inside the high half: v_bfe_i32 of a.hi, then its sign into the high half"
                       : "a field inside the low half: v_bfe_i32, then its sign into the high half";
    out.push_back(r);
  }
  {
    Rule r = makeRule(s64, "imm-2shift", {A, Im, Im});
    r.constraints = {when("0 < len, pos + len < 64", [](const Srcs &s) {
      BV P = s[1].zext(64), L = s[2].zext(64);
      return L.ne(L.lit(0)) & (P + L).ult(P.lit(64));
    })};
    r.immFns = {{"64-pos-len", [](const Srcs &s) { return s[1].lit(64) - s[1] - s[2]; }},
                {"64-len", [](const Srcs &s) { return s[2].lit(64) - s[2]; }}};
    r.temps = {TempKind::V64};
    r.seq = {inst(Op::V_LSHLREV_B64, T(0), {F(0), S(0)}), inst(Op::V_ASHRREV_I64, D(), {F(1), T(0)})};
    r.priority = 1;
    r.restriction = "a field inside the register: shift it to the top, then arithmetically down to bit 0";
    out.push_back(r);
  }
}

// ------------------------------------------------------------------ bfi
void addBfi(std::vector<Rule> &out) {
  const Form b32{Opcode::Bfi, TypeClass::B, 32}, b64{Opcode::Bfi, TypeClass::B, 64};
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
    out.push_back(r);
  }
  // ---- bfi.b32, constant pos and len
  auto M32 = [](const Srcs &s) {
    BV w = w32(s[2], s[3]);
    BV p = low8(s[2]);
    BV m = BV::ite(w.ult(w.lit(32)), w.lit(1).shl(w) - w.lit(1), w.lit(~0u));
    return m.shl(p.umin(p.lit(31)));
  };
  {
    Rule r = makeRule(b32, "imm-keep", {A, A, Im, Im});
    r.constraints = {when("min(len, 32 - pos) == 0", [](const Srcs &s) {
      BV w = w32(s[2], s[3]);
      return w.eq(w.lit(0));
    })};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(1)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 32): the result is b";
    out.push_back(r);
  }
  {
    Rule r = makeRule(b32, "imm-all", {A, A, Im, Im});
    r.constraints = {when("pos == 0, len >= 32", [](const Srcs &s) {
      return low8(s[2]).eq(s[2].lit(0)) & s[3].lit(32).ule(low8(s[3]));
    })};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
    r.priority = 1;
    r.restriction = "the field is the whole register: the result is a";
    out.push_back(r);
  }
  {
    Rule r = makeRule(b32, "imm-top", {A, A, Im, Im});
    r.constraints = {when("0 < pos < 32, pos + len >= 32", [](const Srcs &s) {
      BV p = low8(s[2]), l = low8(s[3]);
      return p.ne(p.lit(0)) & p.ult(p.lit(32)) & p.lit(32).ule(p + l);
    })};
    r.immFns = {{"pos", [](const Srcs &s) { return low8(s[2]); }}};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_BFE_U32, T(0), {S(1), I(0), F(0)}), inst(Op::V_LSHL_OR_B32, D(), {S(0), F(0), T(0)})};
    r.priority = 1;
    r.restriction = "a field reaching bit 31: (a << pos) | (b's low pos bits), no mask literal (gfx9 has no VOP3 literal)";
    out.push_back(r);
  }
  {
    Rule r = makeRule(b32, "imm-low", {A, A, Im, Im});
    r.constraints = {when("pos == 0, 0 < len < 32", [](const Srcs &s) {
      BV p = low8(s[2]), l = low8(s[3]);
      return p.eq(p.lit(0)) & l.ne(l.lit(0)) & l.ult(l.lit(32));
    })};
    r.immFns = {{"mask", M32}};
    r.seq = {inst(Op::V_BFI_B32, D(), {F(0), S(0), S(1)})};
    r.priority = 1;
    r.restriction = "a constant mask: one v_bfi_b32 (the mask is a literal unless inline; gfx9 moves it to a VGPR)";
    out.push_back(r);
  }
  {
    Rule r = makeRule(b32, "imm", {A, A, Im, Im});
    r.constraints = {when("0 < pos, 0 < len, pos + len < 32", [](const Srcs &s) {
      BV p = low8(s[2]), l = low8(s[3]);
      return p.ne(p.lit(0)) & l.ne(l.lit(0)) & (p + l).ult(p.lit(32));
    })};
    r.immFns = {{"pos", [](const Srcs &s) { return low8(s[2]); }}, {"mask", M32}};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_LSHLREV_B32, T(0), {F(0), S(0)}), inst(Op::V_BFI_B32, D(), {F(1), T(0), S(1)})};
    r.priority = 1;
    r.restriction = "a constant mask: shift a into place, one v_bfi_b32 (the mask is a literal unless inline; "
                    "gfx9 moves it to a VGPR)";
    out.push_back(r);
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
    b64Seq(r);
    r.seq.push_back(inst(Op::V_DUAL_CNDMASK_PAIR, T(4), {I(0), T(2), VCC()}));
    r.seq.push_back(inst(Op::V_BFI_B32, D(0, Part::Lo), {T(4, Part::Lo), T(3, Part::Lo), S(1, Part::Lo)}));
    r.seq.push_back(inst(Op::V_BFI_B32, D(0, Part::Hi), {T(4, Part::Hi), T(3, Part::Hi), S(1, Part::Hi)}));
    r.restriction = "64-bit shifts read 6 bits: the width min(len, 64 - pos) is clamped with v_med3_u32, the "
                    "mask is one 64-bit shift of -1 moved by pos, and the empty field (out of reach of a 6-bit "
                    "shift) clears the mask in one VOPD issue";
    out.push_back(r);
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
    out.push_back(r);
  }
  // ---- bfi.b64, constant pos and len
  auto M64 = [](unsigned half) {
    return [half](const Srcs &s) {
      BV w = w64(s[2], s[3]);
      BV P = s[2].zext(64);
      BV m = lowMask64(w).shl(P.umin(P.lit(63)));
      return m.extract(32 * half + 31, 32 * half);
    };
  };
  {
    Rule r = makeRule(b64, "imm-keep", {A, A, Im, Im});
    r.constraints = {when("min(len, 64 - pos) == 0", [](const Srcs &s) {
      BV w = w64(s[2], s[3]);
      return w.eq(w.lit(0));
    })};
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(1, Part::Lo)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {S(1, Part::Hi)})};
    r.priority = 1;
    r.restriction = "an empty field (len = 0 or pos >= 64): the result is b";
    out.push_back(r);
  }
  {
    Rule r = makeRule(b64, "imm", {A, A, Im, Im});
    r.constraints = {when("0 < len, pos < 64", [](const Srcs &s) {
      BV w = w64(s[2], s[3]);
      return w.ne(w.lit(0));
    })};
    r.immFns = {{"pos", [](const Srcs &s) { return s[2] & s[2].lit(63); }}, {"mask.lo", M64(0)}, {"mask.hi", M64(1)}};
    r.temps = {TempKind::V64};
    r.seq = {inst(Op::V_LSHLREV_B64, T(0), {F(0), S(0)}),
             inst(Op::V_BFI_B32, D(0, Part::Lo), {F(1), T(0, Part::Lo), S(1, Part::Lo)}),
             inst(Op::V_BFI_B32, D(0, Part::Hi), {F(2), T(0, Part::Hi), S(1, Part::Hi)})};
    r.priority = 1;
    r.restriction = "a constant mask: one 64-bit shift of a and a v_bfi_b32 per half (literal masks move to "
                    "VGPRs on gfx9)";
    out.push_back(r);
  }
}

// ------------------------------------------------------------------ bmsk
void addBmsk(std::vector<Rule> &out) {
  Form wrap{Opcode::Bmsk, TypeClass::B, 32};
  wrap.mode = ShfMode::Wrap;
  Form clamp = wrap;
  clamp.mode = ShfMode::Clamp;
  {
    Rule r = makeRule(wrap, "bfm", {A, A});
    r.seq = {inst(Op::V_BFM_B32, D(), {S(1), S(0)})};
    r.restriction = "equivalent: v_bfm_b32 builds ((1 << b[4:0]) - 1) << a[4:0], dropping bits past 31 "
                    "exactly as .wrap does";
    out.push_back(r);
  }
  {
    Rule r = makeRule(wrap, "imm-a", {Im, A});
    r.immFns = {{"a&31", [](const Srcs &s) { return s[0] & s[0].lit(31); }}};
    r.seq = {inst(Op::V_BFM_B32, D(), {S(1), F(0)})};
    r.priority = 1;
    r.restriction = "a constant start is reduced to a & 31, an inline constant";
    out.push_back(r);
  }
  {
    Rule r = makeRule(wrap, "imm-b", {A, Im});
    r.immFns = {{"b&31", [](const Srcs &s) { return s[1] & s[1].lit(31); }}};
    r.seq = {inst(Op::V_BFM_B32, D(), {F(0), S(0)})};
    r.priority = 1;
    r.restriction = "a constant width is reduced to b & 31, an inline constant";
    out.push_back(r);
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
    out.push_back(r);
  }
  // constant a
  {
    Rule r = makeRule(clamp, "imm-a-zero", {Im, A});
    r.constraints = {when("a >= 32", [](const Srcs &s) { return s[0].lit(32).ule(s[0]); })};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "a start at or past 32: the mask is 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(clamp, "imm-a", {Im, A});
    r.constraints = {when("0 < a < 32", [](const Srcs &s) { return s[0].ne(s[0].lit(0)) & s[0].ult(s[0].lit(32)); })};
    r.immFns = {{"32-a", [](const Srcs &s) { return s[0].lit(32) - s[0]; }}};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {F(0), S(1)}), inst(Op::V_BFM_B32, D(), {T(0), S(0)})};
    r.priority = 1;
    r.restriction = "a constant start a > 0: clamping the width to 32 - a keeps it below 32, so v_bfm_b32 is exact";
    out.push_back(r);
  }
  {
    Rule r = makeRule(clamp, "imm-a0", {Im, A});
    r.constraints = {when("a == 0", [](const Srcs &s) { return s[0].eq(s[0].lit(0)); })};
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(1)}),
             inst(Op::V_LSHRREV_B64, pair(T(1), D()), {O(T(0)), O(I(~0ull))})};
    r.priority = 1;
    r.restriction = "start 0: lowMask(min(b, 32)) is the high half of -1 >> (32 -sat b) (a 64-bit shift "
                    "reaches 32); d is that high half";
    out.push_back(r);
  }
  // constant b
  {
    Rule r = makeRule(clamp, "imm-b-zero", {A, Im});
    r.constraints = {when("b == 0", [](const Srcs &s) { return s[1].eq(s[1].lit(0)); })};
    r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
    r.priority = 1;
    r.restriction = "width 0: the mask is 0";
    out.push_back(r);
  }
  {
    Rule r = makeRule(clamp, "imm-b-all", {A, Im});
    r.constraints = {when("b >= 32", [](const Srcs &s) { return s[1].lit(32).ule(s[1]); })};
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {I(32), S(0)}),
             inst(Op::V_LSHLREV_B64, pair(D(), T(1)), {O(T(0)), O(I(~0ull))})};
    r.priority = 1;
    r.restriction = "width >= 32: -1 << min(a, 32) as a 64-bit shift (reaches 32); d is the low half";
    out.push_back(r);
  }
  {
    Rule r = makeRule(clamp, "imm-b", {A, Im});
    r.constraints = {when("0 < b < 32", [](const Srcs &s) { return s[1].ne(s[1].lit(0)) & s[1].ult(s[1].lit(32)); })};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(0)}), inst(Op::V_MIN_U32, T(0), {S(1), T(0)}),
             inst(Op::V_BFM_B32, D(), {T(0), S(0)})};
    r.priority = 1;
    r.restriction = "a constant width below 32: clamp it to 32 -sat a (0 when a >= 32), then v_bfm_b32 is exact";
    out.push_back(r);
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
        out.push_back(r);
      } else {
        Rule r = makeRule(f, "bfe-select", {A, A});
        r.temps = {TempKind::V32};
        r.seq = {inst(bfe, T(0), {S(0), I(0), S(1)}), inst(Op::V_CMP_GT_U32, VCC(), {I(32), S(1)}),
                 inst(Op::V_CNDMASK_B32, D(), {S(0), T(0), VCC()})};
        r.restriction = "v_bfe reads 5 bits of width (32 reads as 0): select a when b >= 32";
        out.push_back(r);
      }
      // Constant N.
      auto N = [clamp](const Srcs &s) {
        return clamp ? s[1].umin(s[1].lit(32)) : (s[1] & s[1].lit(31));
      };
      {
        Rule r = makeRule(f, "imm-zero", {A, Im});
        r.constraints = {when(clamp ? "b == 0" : "b & 31 == 0", [N](const Srcs &s) { BV n = N(s); return n.eq(n.lit(0)); })};
        r.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
        r.priority = 1;
        r.restriction = "width 0: the result is 0";
        out.push_back(r);
      }
      if (clamp) {
        Rule r = makeRule(f, "imm-all", {A, Im});
        r.constraints = {when("b >= 32", [](const Srcs &s) { return s[1].lit(32).ule(s[1]); })};
        r.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
        r.priority = 1;
        r.restriction = "clamped width 32: the result is a";
        out.push_back(r);
      }
      {
        Rule r = makeRule(f, "imm", {A, Im});
        r.constraints = {when(clamp ? "0 < b < 32" : "b & 31 != 0", [N](const Srcs &s) {
          BV n = N(s);
          return n.ne(n.lit(0)) & n.ult(n.lit(32));
        })};
        r.immFns = {{clamp ? "b" : "b&31", N}};
        r.seq = {inst(bfe, D(), {S(0), I(0), F(0)})};
        r.priority = 1;
        r.restriction = "a constant width below 32: one v_bfe with inline constants";
        out.push_back(r);
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
