// Rules for shf, shl and shr (PTX ISA 9.7.8.7-9.7.8.9).
//
// The restriction behind all of them: AMD shifts mask their amount (5 bits for
// 32-bit shifts and v_alignbit_b32, 4 bits for 16-bit, 6 bits for 64-bit),
// while PTX clamps shl/shr amounts to the width and shf.clamp to 32; and
// v_alignbit_b32 only shifts right. Constant amounts are specialised into
// separate rules (ISLE style) because most of the fix-up then folds away.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::ShfDir;
using ptx::ShfMode;
using ptx::TypeClass;

namespace {

Form shfForm(ShfDir d, ShfMode m) {
  Form f{Opcode::Shf, TypeClass::B, 32};
  f.dir = d;
  f.mode = m;
  return f;
}

void addShf(std::vector<Rule> &out) {
  const Expr c = src(2, "c");
  // ---- shf.r.wrap: exactly v_alignbit_b32 (which reads S2[4:0] = c & 31).
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Wrap), "alignbit", {A, A, R});
    r.seq = {inst(Op::V_ALIGNBIT_B32, D(), {S(1), S(0), S(2)})};
    r.restriction = "equivalent: v_alignbit_b32 shifts {S0,S1} right by S2[4:0], which is .wrap's c & 31";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Wrap), "imm", {A, A, Im});
    r.immFns = {c & 31};
    r.seq = {inst(Op::V_ALIGNBIT_B32, D(), {S(1), S(0), F(0)})};
    r.priority = 1;
    r.restriction = "a constant amount is reduced to c & 31 so it is always an inline constant";
    out.push_back(std::move(r));
  }
  // ---- shf.l.wrap
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Wrap), "imm", {A, A, Im});
    r.constraints = {when((c & 31) != 0)};
    r.immFns = {32 - (c & 31)};
    r.seq = {inst(Op::V_ALIGNBIT_B32, D(), {S(1), S(0), F(0)})};
    r.priority = 1;
    r.restriction = "alignbit shifts right only: a left funnel shift by n is a right one by 32-n (n != 0)";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Wrap), "imm0", {A, A, Im});
    r.constraints = {when((c & 31) == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(1)})};
    r.priority = 1;
    r.restriction = "a left shift by 0 is b, but alignbit(b, a, 32-0) would give a: plain move";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Wrap), "rotate", {R, R, R});
    r.sameReg = {{0, 1}};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32, T(0), {I(0), S(2)}), inst(Op::V_ALIGNBIT_B32, D(), {S(0), S(0), T(0)})};
    r.priority = 1;
    r.restriction = "rotate left by n = alignbit(x, x, -n): 5-bit masking makes -n act as 32-n, and n = 0 is harmless";
    out.push_back(std::move(r));
  }
  {
    // (b << n) | (a >> (32-n)): v_bfe_u32 a, -c, c extracts the top n bits of a
    // (and gives 0 for n = 0, where alignbit would give a), v_lshl_or_b32 merges.
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Wrap), "bfe-lshl-or", {A, A, R});
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32, T(0), {I(0), S(2)}), inst(Op::V_BFE_U32, T(1), {S(0), T(0), S(2)}),
             inst(Op::V_LSHL_OR_B32, D(), {S(1), S(2), T(1)})};
    r.restriction = "alignbit(b, a, -c) is wrong only for c&31 = 0; bfe of a's top n bits is 0 there, "
                    "so (b << n) | bfe(a, -n, n) is exact in 3 (LLVM's fshl uses 4)";
    out.push_back(std::move(r));
  }
  // ---- shf.r.clamp
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Clamp), "imm", {A, A, Im});
    r.constraints = {when(c < 32)};
    r.seq = {inst(Op::V_ALIGNBIT_B32, D(), {S(1), S(0), S(2)})};
    r.priority = 1;
    r.restriction = "a constant amount below 32 needs no clamping";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Clamp), "imm32", {A, A, Im});
    r.constraints = {when(c >= 32)};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(1)})};
    r.priority = 1;
    r.restriction = "clamped to 32, a right funnel shift gives b";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Clamp), "rotate", {R, R, R});
    r.sameReg = {{0, 1}};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {I(32), S(2)}), inst(Op::V_ALIGNBIT_B32, D(), {S(0), S(0), T(0)})};
    r.priority = 1;
    r.restriction = "for a rotate, a shift by 32 equals a shift by 0, so min(c,32) & 31 is exact";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Clamp), "pair64", {R, R, R});
    r.distinctReg = {{0, 1}};
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {I(32), S(2)}),
             inst(Op::V_LSHRREV_B64, pair(D(), T(1)), {O(T(0)), pair(S(0), S(1))})};
    r.restriction = "with {a,b} in an aligned VGPR pair, a 64-bit shift (6-bit amount) by min(c,32) is exact";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Right, ShfMode::Clamp), "alignbit-select", {A, A, R});
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_ALIGNBIT_B32, T(0), {S(1), S(0), S(2)}), inst(Op::V_CMP_GT_U32, VCC(), {I(32), S(2)}),
             inst(Op::V_CNDMASK_B32, D(), {S(1), T(0), VCC()})};
    r.restriction = "alignbit masks c to 5 bits: select b when c >= 32";
    out.push_back(std::move(r));
  }
  // ---- shf.l.clamp
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Clamp), "imm", {A, A, Im});
    r.constraints = {when(0 < c && c < 32)};
    r.immFns = {32 - c};
    r.seq = {inst(Op::V_ALIGNBIT_B32, D(), {S(1), S(0), F(0)})};
    r.priority = 1;
    r.restriction = "left by n = right by 32-n for 0 < n < 32";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Clamp), "imm0", {A, A, Im});
    r.constraints = {when(c == 0)};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(1)})};
    r.priority = 1;
    r.restriction = "a left shift by 0 gives b";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Clamp), "imm32", {A, A, Im});
    r.constraints = {when(c >= 32)};
    r.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
    r.priority = 1;
    r.restriction = "clamped to 32, a left funnel shift gives a";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Clamp), "rotate", {R, R, R});
    r.sameReg = {{0, 1}};
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(2)}), inst(Op::V_ALIGNBIT_B32, D(), {S(0), S(0), T(0)})};
    r.priority = 1;
    r.restriction = "rotate left by min(c,32) = right by 32-min(c,32) = the saturating 32-c (v_sub clamp)";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Clamp), "pair64", {R, R, R});
    r.distinctReg = {{0, 1}};
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_MIN_U32, T(0), {I(32), S(2)}),
             inst(Op::V_LSHLREV_B64, pair(T(1), D()), {O(T(0)), pair(S(0), S(1))})};
    r.restriction = "with {a,b} in an aligned VGPR pair, a 64-bit shift by min(c,32) is exact; d is the high half";
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(shfForm(ShfDir::Left, ShfMode::Clamp), "alignbit-select", {A, A, R});
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_SUB_U32_CLAMP, T(0), {I(32), S(2)}), inst(Op::V_ALIGNBIT_B32, T(1), {S(1), S(0), T(0)}),
             inst(Op::V_CMP_EQ_U32, VCC(), {I(0), S(2)}), inst(Op::V_CNDMASK_B32, D(), {T(1), S(1), VCC()})};
    r.restriction = "right by 32-min(c,32) via alignbit is exact except c = 0 (alignbit reads 32 as 0): select b there";
    out.push_back(std::move(r));
  }
}

// shl / shr with a register amount and with a constant amount.
void addShlShr(std::vector<Rule> &out) {
  struct Shape { TypeClass type; Opcode opc; };
  for (unsigned w : {16u, 32u, 64u}) {
    for (Shape sh : {Shape{TypeClass::B, Opcode::Shl}, Shape{TypeClass::B, Opcode::Shr},
                     Shape{TypeClass::U, Opcode::Shr}, Shape{TypeClass::S, Opcode::Shr}}) {
      Form f{sh.opc, sh.type, w};
      const bool left = sh.opc == Opcode::Shl;
      const bool arith = sh.type == TypeClass::S;
      Op op32 = left ? Op::V_LSHLREV_B32 : arith ? Op::V_ASHRREV_I32 : Op::V_LSHRREV_B32;
      Op op16 = left ? Op::V_LSHLREV_B16 : arith ? Op::V_ASHRREV_I16 : Op::V_LSHRREV_B16;
      Op op64 = left ? Op::V_LSHLREV_B64 : arith ? Op::V_ASHRREV_I64 : Op::V_LSHRREV_B64;
      Op native = w == 16 ? op16 : w == 32 ? op32 : op64;
      const uint64_t W = w;
      const Expr b = src(1, "b"); // the amount (PTX ISA: shl d, a, b)

      // Constant amounts.
      if (arith) {
        Rule r = makeRule(f, "imm", {A, Im});
        r.immFns = {min(b, W - 1)};
        r.seq = {inst(native, D(), {F(0), S(0)})};
        r.priority = 1;
        r.restriction = "amounts past the width give the sign fill: clamp the constant to width-1";
        out.push_back(std::move(r));
      } else {
        Rule r = makeRule(f, "imm", {A, Im});
        r.constraints = {when(b < W)};
        r.seq = {inst(native, D(), {S(1), S(0)})};
        r.priority = 1;
        r.restriction = "a constant amount below the width needs no clamping";
        out.push_back(r);
        Rule z = makeRule(f, "imm-zero", {A, Im});
        z.constraints = {when(b >= W)};
        if (w == 64)
          z.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {I(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
        else
          z.seq = {inst(Op::V_MOV_B32, D(), {I(0)})};
        z.priority = 1;
        z.restriction = "PTX clamps the amount to the width: the result is 0";
        out.push_back(std::move(z));
      }

      // Register amounts.
      if (arith) {
        // Clamping the amount to width-1 gives exactly the sign fill.
        Rule r = makeRule(f, "min", {A, R});
        r.temps = {TempKind::V32};
        r.seq = {inst(Op::V_MIN_U32, T(0), {I(W - 1), S(1)}), inst(native, D(), {T(0), S(0)})};
        r.restriction = "AMD masks the amount; PTX clamps it: min(b, width-1) gives the same sign fill";
        out.push_back(r);
        continue;
      }
      if (left && w == 16) {
        // A 32-bit shift by min(c,16) zeroes the low half exactly when c >= 16.
        Rule r = makeRule(f, "min-b32", {A, R});
        r.temps = {TempKind::V32};
        r.seq = {inst(Op::V_MIN_U32, T(0), {I(16), S(1)}), inst(Op::V_LSHLREV_B32, D(), {T(0), S(0)})};
        r.restriction = "v_lshlrev_b16 masks to 4 bits; a 32-bit shift by min(b,16) clears the low half when b >= 16";
        out.push_back(r);
        continue;
      }
      if (left && w == 32) {
        // {junk, a} << min(c,32) as a 64-bit shift: the low half is a << c, or 0 at 32.
        Rule r = makeRule(f, "pair64", {R, R});
        r.temps = {TempKind::V32, TempKind::V32, TempKind::V32};
        r.seq = {inst(Op::V_MIN_U32, T(0), {I(32), S(1)}),
                 inst(Op::V_LSHLREV_B64, pair(D(), T(2)), {O(T(0)), pair(S(0), T(1))})};
        r.restriction = "a in the low half of an aligned pair: a 64-bit shift by min(b,32) leaves 0 in the low half at 32";
        out.push_back(std::move(r));
      }
      if (!left && w == 16) {
        Rule r = makeRule(f, "sdwa", {A, R});
        r.target = {"gfx9 gfx10", [](const targets::TargetInfo &t) { return t.generation <= targets::Generation::GFX10; }};
        r.temps = {TempKind::V32};
        r.seq = {inst(Op::V_MIN_U32, T(0), {I(16), S(1)}), inst(Op::V_LSHRREV_B32_SDWA_W0, D(), {T(0), S(0)})};
        r.restriction = "16-bit shifts mask to 4 bits; SDWA zero-extends the low half so a 32-bit shift by min(b,16) is exact";
        out.push_back(std::move(r));
      }
      if (w == 64) {
        Rule r = makeRule(f, "select-vopd", {A, R});
        r.sameResultAs = f.name() + "/select";
        r.target = {"gfx11+", [](const targets::TargetInfo &t) { return t.generation >= targets::Generation::GFX11; }};
        r.temps = {TempKind::V64};
        r.seq = {inst(native, T(0), {S(1), S(0)}), inst(Op::V_CMP_GT_U32, VCC(), {I(W), S(1)}),
                 inst(Op::V_DUAL_CNDMASK_PAIR, D(), {I(0), T(0), VCC()})};
        r.restriction = "AMD masks the amount to 6 bits: select 0 when b >= 64, both halves in one VOPD issue";
        out.push_back(std::move(r));
      }
      {
        Rule r = makeRule(f, "select", {A, R});
        r.temps = {w == 64 ? TempKind::V64 : TempKind::V32};
        r.seq = {inst(native, T(0), {S(1), S(0)}), inst(Op::V_CMP_GT_U32, VCC(), {I(W), S(1)})};
        if (w == 64) {
          r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Lo), {I(0), T(0, Part::Lo), VCC()}));
          r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, Part::Hi), {I(0), T(0, Part::Hi), VCC()}));
        } else {
          r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {I(0), T(0), VCC()}));
        }
        r.restriction = "AMD masks the amount, PTX clamps it to the width: select 0 when b >= width";
        out.push_back(std::move(r));
      }
    }
  }
}

// rotl.b64 d, a, k: nvcc's 64-bit rotate, fused from {shl.b64 l, a, k;
// shr.b64 r, a, 64-k; add.u64 d, l, r} (kernel/transforms/instruction_fusion.cpp;
// PTX has no 64-bit rotate). Each half of the result is a funnel shift of the
// two halves, one v_alignbit_b32; past 32 the halves trade places. Both
// halves read both of a's halves after d's first write, so d must not be a
// (the fusion never makes it so).
void addRotates(std::vector<Rule> &out) {
  const Expr k = src(1, "b");
  const Form f{Opcode::Rotl, TypeClass::B, 64};
  struct Shape { const char *name; bool swapped; Expr when; const char *restriction; };
  for (const Shape &sh :
       {Shape{"alignbit", false, k < 32 && (k & 31) != 0,
              "no 64-bit rotate: each half is {hi,lo} or {lo,hi} >> 32-k, one v_alignbit_b32 (right shifts only)"},
        Shape{"alignbit-swapped", true, k > 32 && k < 64,
              "no 64-bit rotate: past 32 the halves trade places, each one v_alignbit_b32 by 64-k"}}) {
    Rule r = makeRule(f, sh.name, {R, Im});
    r.constraints = {when(sh.when)};
    r.immFns = {32 - (k & 31)};
    r.dstDistinct = true;
    const Part hiSrc = sh.swapped ? Part::Lo : Part::Hi, loSrc = sh.swapped ? Part::Hi : Part::Lo;
    r.seq = {inst(Op::V_ALIGNBIT_B32, D(0, Part::Hi), {S(0, hiSrc), S(0, loSrc), F(0)}),
             inst(Op::V_ALIGNBIT_B32, D(0, Part::Lo), {S(0, loSrc), S(0, hiSrc), F(0)})};
    r.restriction = sh.restriction;
    out.push_back(std::move(r));
  }
  {
    Rule r = makeRule(f, "swap", {R, Im});
    r.constraints = {when(k == 32)};
    r.dstDistinct = true;
    r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0, Part::Hi)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {S(0, Part::Lo)})};
    r.restriction = "a rotate by 32 swaps the halves: two moves";
    out.push_back(std::move(r));
  }
}

} // namespace

void addShiftRules(std::vector<Rule> &out) {
  addShf(out);
  addShlShr(out);
  addRotates(out);
}

} // namespace p2a::rules
