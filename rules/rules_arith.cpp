// Rules for the integer arithmetic and moves that kernels need around the
// Logic & Shift family: mov, add, sub, mul.{lo,hi,wide}, mad.lo and the
// 32<->64-bit cvt forms (PTX ISA 9.7.1.1-9.7.1.4, 9.7.9.3, 9.7.9.21). Each
// is proved like the family's rules; the products share one definition on
// both sides (sem::mulWide), so their proofs compare equal terms.
#include "rules/rules_builtin.hpp"
#include "rules/rule_dsl.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::Form;
using ptx::Opcode;
using ptx::TypeClass;

namespace {
// cvt.sat (PTX ISA 9.7.9.21): the source value clamped to the destination
// type's range. Sources up to 32 bits: extended to 32 (v_bfe), then one
// v_med3_i32 / v_max_i32 (signed) or v_min_u32 (unsigned); the result's low
// 16 bits are an 8- or 16-bit result already extended by its type. 64-bit
// sources: 64-bit compares against the bounds and a select per half.
Rule cvtSaturateRule(const Form &f) {
  const bool srcSigned = f.fromType == TypeClass::S;
  Rule r = makeRule(f, "clamp", {OperandReq::Reg});
  const ptx::IntegerRange dst = ptx::integerRange(f.type, f.width); // two's-complement bits
  if (f.fromWidth <= 32) {
    Ref x = S(0);
    if (f.fromWidth < 32) {
      r.temps.push_back(TempKind::V32);
      r.seq.push_back(inst(srcSigned ? Op::V_BFE_I32 : Op::V_BFE_U32, T(0), {S(0), I(0), I(f.fromWidth)}));
      x = T(0);
    }
    const Ref low = f.width == 64 ? D(0, Part::Lo) : D();
    if (!srcSigned) { // only the upper bound binds
      r.seq.push_back(inst(Op::V_MIN_U32, low, {x, I(uint32_t(dst.max))}));
    } else if (dst.max >= 0x7fffffffu) { // only 0 below binds
      r.seq.push_back(inst(Op::V_MAX_I32, low, {I(0), x}));
    } else {
      r.seq.push_back(inst(Op::V_MED3_I32, low, {x, I(uint32_t(dst.min)), I(uint32_t(dst.max))}));
    }
    if (f.width == 64)
      r.seq.push_back(inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)}));
    r.restriction = "the clamp of a value up to 32 bits is one v_min/v_max/v_med3" +
                    std::string(f.fromWidth < 32 ? " after a v_bfe extracts it" : "");
    return r;
  }
  // A 64-bit source: T(0) holds a bound, VCC the compare.
  r.temps = {TempKind::V64};
  auto bound = [&](uint64_t v) {
    r.seq.push_back(inst(Op::V_MOV_B32, T(0, Part::Lo), {I(uint32_t(v))}));
    r.seq.push_back(inst(Op::V_MOV_B32, T(0, Part::Hi), {I(uint32_t(v >> 32))}));
  };
  if (f.width == 64) { // s64 -> u64: below 0 is 0; u64 -> s64: above 2^63 - 1 is 2^63 - 1
    if (srcSigned) {
      r.seq.push_back(inst(Op::V_CMP_GT_I64, O(VCC()), {O(I(0)), O(S(0))}));
      for (Part p : {Part::Lo, Part::Hi})
        r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, p), {S(0, p), I(0), VCC()}));
    } else {
      bound(dst.max);
      r.seq.push_back(inst(Op::V_CMP_GT_U64, O(VCC()), {O(S(0)), O(T(0))}));
      for (Part p : {Part::Lo, Part::Hi})
        r.seq.push_back(inst(Op::V_CNDMASK_B32, D(0, p), {S(0, p), T(0, p), VCC()}));
    }
    r.restriction = "no 64-bit clamp: a 64-bit compare with the bound and a select per half";
    return r;
  }
  bound(dst.max);
  r.seq.push_back(inst(srcSigned ? Op::V_CMP_GT_I64 : Op::V_CMP_GT_U64, O(VCC()), {O(S(0)), O(T(0))}));
  r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {S(0, Part::Lo), T(0, Part::Lo), VCC()}));
  if (srcSigned) {
    bound(dst.min);
    r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(S(0)), O(T(0))}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {D(), T(0, Part::Lo), VCC()}));
  }
  r.restriction = "no 64-bit clamp: 64-bit compares with the bounds, a select of the low half";
  return r;
}
// gfx11's MAD forwarding bug (TargetInfo::mad64_overlap_hazard): a rule
// whose v_mad_u64_u32 writes its 64-bit d while reading a source that d may
// be refuses d == that source there (dstDistinctOnMadHazard). This twin
// serves that case on gfx11: d's value is built in a fresh 64-bit
// temporary, which no source is, and copied to d last.
Rule viaTempOnMadHazard(const Rule &r) {
  Rule v = r;
  v.name = r.name + "-via-temp";
  v.dstDistinctOnMadHazard = false;
  const unsigned tmp = static_cast<unsigned>(v.temps.size());
  v.temps.push_back(TempKind::V64);
  auto toTemp = [&](Ref &x) {
    if (x.kind == Ref::Kind::Dst && x.index == 0)
      x = T(tmp, x.part);
  };
  for (TInst &ti : v.seq) {
    toTemp(ti.dst.lo);
    if (ti.dst.hi)
      toTemp(*ti.dst.hi);
    for (TOperand &o : ti.srcs) {
      toTemp(o.lo);
      if (o.hi)
        toTemp(*o.hi);
    }
  }
  v.seq.push_back(inst(Op::V_MOV_B32, D(0, Part::Lo), {T(tmp, Part::Lo)}));
  v.seq.push_back(inst(Op::V_MOV_B32, D(0, Part::Hi), {T(tmp, Part::Hi)}));
  const TargetPredicate base = r.target;
  v.target = {"gfx11", [base](const targets::TargetInfo &t) { return t.mad64_overlap_hazard && base.holds(t); }};
  v.restriction = r.restriction + "; on gfx11, where d is a source, built in a temporary and copied to d (a "
                                  "v_mad_u64_u32 must not overlap its sources there: the MAD forwarding bug)";
  return v;
}

} // namespace

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
    // mov.pred: a predicate is a lane mask. A constant true is EXEC (set in
    // every active lane; inactive lanes' bits are 0, as a compare leaves them).
    Rule p = makeRule(Form{Opcode::Mov, TypeClass::Pred, 1}, "salu", {OperandReq::Reg});
    p.seq = {inst(Op::S_MOV_MASK, D(), {S(0)})};
    p.restriction = "none: one SALU move of the lane mask";
    out.push_back(p);
    Rule t = makeRule(Form{Opcode::Mov, TypeClass::Pred, 1}, "true", {OperandReq::Imm});
    const Expr a = src(0, "a");
    t.constraints = {when(a == 1)};
    t.seq = {inst(Op::S_MOV_MASK, D(), {EXEC()})};
    t.restriction = "a constant predicate is a lane mask: true is EXEC (a literal 1 would set lane 0 only)";
    out.push_back(t);
    Rule f = makeRule(Form{Opcode::Mov, TypeClass::Pred, 1}, "false", {OperandReq::Imm});
    f.constraints = {when(a == 0)};
    f.seq = {inst(Op::S_MOV_MASK, D(), {I(0)})};
    f.restriction = "a constant predicate is a lane mask: false is 0";
    out.push_back(std::move(f));
  }
  // 16-bit values live in the low half of a VGPR with a don't-care high half
  // (PTX ISA 5.2.2 register sizes): the low 16 bits of a 32-bit sum,
  // difference or product depend on the low 16 bits of the sources only, so
  // the 32-bit ops serve, and a move copies the whole register.
  {
    Rule mov = makeRule(Form{Opcode::Mov, TypeClass::B, 16}, "vop1", {OperandReq::Any});
    mov.seq = {inst(Op::V_MOV_B32, D(), {S(0)})};
    mov.restriction = "none: v_mov_b32 (the high half is don't-care)";
    out.push_back(mov);
    Rule add = makeRule(Form{Opcode::Add, TypeClass::U, 16}, "vop2", {OperandReq::Any, OperandReq::Any});
    add.seq = {inst(Op::V_ADD_U32, D(), {S(0), S(1)})};
    add.restriction = "no carry across halves matters: the low 16 bits of a 32-bit add are the 16-bit sum";
    out.push_back(add);
    Rule sub = makeRule(Form{Opcode::Sub, TypeClass::U, 16}, "vop2", {OperandReq::Any, OperandReq::Any});
    sub.seq = {inst(Op::V_SUB_U32, D(), {S(0), S(1)})};
    sub.restriction = "the low 16 bits of a 32-bit subtraction are the 16-bit difference";
    out.push_back(sub);
    Rule mul = makeRule(Form{Opcode::MulLo, TypeClass::U, 16}, "u24", {OperandReq::Any, OperandReq::Any});
    mul.seq = {inst(Op::V_MUL_U32_U24, D(), {S(0), S(1)})};
    mul.restriction = "full-rate v_mul_u32_u24: bits 16-23 of the sources are junk, but the product's low 16 bits "
                      "depend only on the sources' low 16 bits";
    out.push_back(std::move(mul));
  }
  {
    Rule add = makeRule(Form{Opcode::Add, TypeClass::U, 32}, "vop2", {OperandReq::Any, OperandReq::Any});
    add.seq = {inst(Op::V_ADD_U32, D(), {S(0), S(1)})};
    add.restriction = "none: v_add_u32 (v_add_nc_u32 on gfx10+) without carry out";
    out.push_back(add);
    Rule sub = makeRule(Form{Opcode::Sub, TypeClass::U, 32}, "vop2", {OperandReq::Any, OperandReq::Any});
    sub.seq = {inst(Op::V_SUB_U32, D(), {S(0), S(1)})};
    sub.restriction = "none: v_sub_u32 (v_sub_nc_u32 on gfx10+)";
    out.push_back(std::move(sub));
  }
  {
    Rule add = makeRule(Form{Opcode::Add, TypeClass::U, 64}, "carry-chain", {OperandReq::Any, OperandReq::Any});
    add.seq = {inst(Op::V_ADD_CO_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
               inst(Op::V_ADDC_CO_U32, D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi), VCC()})};
    add.restriction = "no 64-bit VALU add before gfx942's v_lshl_add_u64: low halves carry through VCC into the high";
    out.push_back(add);
    // gfx942's whole 64-bit add. A VOP3 takes no literal on CDNA3: a
    // constant b outside the inline range would cost two moves, where the
    // carry chain's VOP2 halves take it as it is.
    for (const bool inlineB : {false, true}) {
      Rule lshlAdd = makeRule(Form{Opcode::Add, TypeClass::U, 64}, inlineB ? "lshl-add-inline" : "lshl-add",
                              {OperandReq::Reg, inlineB ? OperandReq::Imm : OperandReq::Reg});
      if (inlineB) // -16..64, the integer inline constants (sign-extended to 64 bits)
        lshlAdd.constraints = {when(src(1, "b") + 16 <= 80)};
      lshlAdd.seq = {inst(Op::V_LSHL_ADD_U64, D(), {S(0), I(0), S(1)})};
      lshlAdd.priority = 1;
      lshlAdd.target = {"gfx942", [](const targets::TargetInfo &t) { return t.has_lshl_add_u64; }};
      lshlAdd.restriction = inlineB ? "gfx942 (CDNA3 ISA): v_lshl_add_u64 d, a, 0, b adds an inline constant b "
                                      "(-16..64) in one VALU instruction"
                                    : "gfx942 (CDNA3 ISA): v_lshl_add_u64 d, a, 0, b is a whole 64-bit add in one "
                                      "VALU instruction";
      out.push_back(std::move(lshlAdd));
    }
    Rule sub = makeRule(Form{Opcode::Sub, TypeClass::U, 64}, "borrow-chain", {OperandReq::Any, OperandReq::Any});
    sub.seq = {inst(Op::V_SUB_CO_U32, D(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
               inst(Op::V_SUBB_CO_U32, D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi), VCC()})};
    sub.restriction = "no 64-bit VALU subtract: the low halves' borrow goes through VCC";
    out.push_back(std::move(sub));
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
      out.push_back(std::move(w));
    }
    Rule mad = makeRule(Form{Opcode::MadLo, TypeClass::U, 32}, "mul-add",
                        {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    mad.temps = {TempKind::V32};
    mad.seq = {inst(Op::V_MUL_LO_U32, T(0), {S(0), S(1)}), inst(Op::V_ADD_U32, D(), {T(0), S(2)})};
    mad.restriction = "no 32-bit integer multiply-add (v_mad_u32_u24 is 24-bit only): multiply, then add";
    out.push_back(std::move(mad));
    // With a constant addend, the low word of one v_mad_u64_u32: a*b + c
    // mod 2^32 is the low word of the 64-bit a*b + c whatever c's high word
    // is, so the 32-bit literal's extension to 64 bits does not matter
    // (gfx10+: VOP3 takes a literal; clang emits the same for murmur3's
    // h*5 + 0xe6546b64). The high word lands in a temporary nobody reads.
    // One literal per VOP3 instruction: b a register, or an inline constant
    // (-16..64); a literal b keeps the multiply and add.
    for (const bool inlineB : {false, true}) {
      Rule madLit = makeRule(Form{Opcode::MadLo, TypeClass::U, 32}, inlineB ? "mad64-lo-inline-b" : "mad64-lo",
                             {OperandReq::Reg, inlineB ? OperandReq::Imm : OperandReq::Reg, OperandReq::Imm});
      if (inlineB)
        madLit.constraints = {when(src(1, "b") + 16 <= 80)};
      madLit.temps = {TempKind::V32};
      madLit.seq = {inst(Op::V_MAD_U64_U32, pair(D(), T(0)), {O(S(0)), O(S(1)), O(S(2))})};
      madLit.target = {"gfx10+", [](const targets::TargetInfo &t) { return t.has_literal_in_vop3; }};
      madLit.dstDistinct = true; // (gfx11's MAD forwarding bug; d == a keeps the multiply and add)
      madLit.restriction = "no 32-bit integer multiply-add: the low word of v_mad_u64_u32 with the constant as its "
                           "(literal) 64-bit addend, whose high word does not reach the low word";
      out.push_back(std::move(madLit));
    }
  }
  for (TypeClass t : {TypeClass::U, TypeClass::S}) {
    const bool sgn = t == TypeClass::S;
    const Op mulLo24 = sgn ? Op::V_MUL_I32_I24 : Op::V_MUL_U32_U24;
    const Op mulHi24 = sgn ? Op::V_MUL_HI_I32_I24 : Op::V_MUL_HI_U32_U24;
    Rule lo = makeRule(Form{Opcode::Mul24Lo, t, 32}, "vop2", {OperandReq::Any, OperandReq::Any});
    lo.seq = {inst(mulLo24, D(), {S(0), S(1)})};
    lo.restriction = "none: the 24-bit multiply gives the product's bits 31..0 (full rate, unlike v_mul_lo_u32)";
    out.push_back(lo);
    // PTX's .hi is bits 47..16 of the 48-bit product; AMD's _hi gives bits
    // 47..32, so the two halves are funnel-shifted together.
    auto bits47to16 = [&](Ref dst) { // into dst, from the two halves in T(0), T(1)
      return std::vector<TInst>{inst(mulLo24, T(0), {S(0), S(1)}), inst(mulHi24, T(1), {S(0), S(1)}),
                                inst(Op::V_ALIGNBIT_B32, dst, {T(1), T(0), I(16)})};
    };
    Rule hi = makeRule(Form{Opcode::Mul24Hi, t, 32}, "lo-hi-alignbit", {OperandReq::Any, OperandReq::Any});
    hi.temps = {TempKind::V32, TempKind::V32};
    hi.seq = bits47to16(D());
    hi.restriction = "AMD's 24-bit _hi multiply gives bits 47..32, PTX's .hi bits 47..16: both halves, then v_alignbit_b32 by 16";
    out.push_back(hi);
    Rule madLo = makeRule(Form{Opcode::Mad24Lo, t, 32}, "vop3", {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    madLo.seq = {inst(sgn ? Op::V_MAD_I32_I24 : Op::V_MAD_U32_U24, D(), {S(0), S(1), S(2)})};
    madLo.restriction = "none: one 24-bit multiply-add (VOP3: a literal needs a register first on gfx9/CDNA)";
    out.push_back(madLo);
    Rule madHi = makeRule(Form{Opcode::Mad24Hi, t, 32}, "lo-hi-alignbit-add",
                          {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    madHi.temps = {TempKind::V32, TempKind::V32, TempKind::V32};
    madHi.seq = bits47to16(T(2));
    madHi.seq.push_back(inst(Op::V_ADD_U32, D(), {T(2), S(2)}));
    madHi.restriction = "as mul24.hi (bits 47..16 by v_alignbit_b32), then the add";
    out.push_back(madHi);
    Rule mh = makeRule(Form{Opcode::MadHi, t, 32}, "mulhi-add", {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    mh.temps = {TempKind::V32};
    mh.seq = {inst(sgn ? Op::V_MUL_HI_I32 : Op::V_MUL_HI_U32, T(0), {S(0), S(1)}), inst(Op::V_ADD_U32, D(), {T(0), S(2)})};
    mh.restriction = "no multiply-add of the high half: v_mul_hi, then the add";
    out.push_back(mh);
    Rule mw = makeRule(Form{Opcode::MadWide, t, 32}, "mad64", {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    mw.seq = {inst(sgn ? Op::V_MAD_I64_I32 : Op::V_MAD_U64_U32, D(), {S(0), S(1), S(2)})};
    mw.restriction = "none: one VOP3B multiply-add into a VGPR pair (its carry-out mask is written to VCC and unused)";
    mw.dstDistinctOnMadHazard = true;
    out.push_back(mw);
    out.push_back(viaTempOnMadHazard(mw));
    // mul.wide as the same multiply-add with c = 0: one quarter-rate
    // instruction instead of v_mul_lo_u32 + v_mul_hi_u32.
    Rule w = makeRule(Form{Opcode::MulWide, t, 32}, "mad64-zero", {OperandReq::Any, OperandReq::Any});
    w.seq = {inst(sgn ? Op::V_MAD_I64_I32 : Op::V_MAD_U64_U32, D(), {S(0), S(1), I(0)})};
    w.restriction = "no plain 32x32->64 multiply into a pair: v_mad_{u64_u32,i64_i32} with a zero addend";
    out.push_back(std::move(w));
  }
  // 64-bit multiplies from 32-bit partial products (PTX ISA 9.7.1.3/9.7.1.4;
  // a = ah:al, b = bh:bl). Proved over the integers (rule.proveInIntegers):
  // Z3 cannot compare a 64x64 multiplier with its partial products by
  // bit-blasting, but the identity is polynomial algebra.
  {
    // a*b mod 2^64 = al*bl + ((al*bh + ah*bl) mod 2^32) << 32: the cross
    // products' low halves join the high half of one 32x32->64 product.
    auto crossTerms = [](Ref d) {
      return std::vector<TInst>{inst(Op::V_MUL_LO_U32, T(0), {S(0, Part::Lo), S(1, Part::Hi)}),
                                inst(Op::V_MUL_LO_U32, T(1), {S(0, Part::Hi), S(1, Part::Lo)}),
                                inst(Op::V_ADD3_U32, d, {D(0, Part::Hi), T(0), T(1)})};
    };
    Rule lo = makeRule(Form{Opcode::MulLo, TypeClass::U, 64}, "mad64-cross", {OperandReq::Any, OperandReq::Any});
    lo.temps = {TempKind::V32, TempKind::V32};
    std::vector<TInst> cross = crossTerms(D(0, Part::Hi));
    lo.seq = {cross[0], cross[1], inst(Op::V_MAD_U64_U32, D(), {S(0, Part::Lo), S(1, Part::Lo), I(0)}), cross[2]};
    lo.restriction = "no 64x64 multiply: al*bl as one v_mad_u64_u32, the cross products' low halves added to its high half";
    lo.proveInIntegers = true;
    lo.dstDistinctOnMadHazard = true;
    out.push_back(lo);
    out.push_back(viaTempOnMadHazard(lo));
    Rule mad = makeRule(Form{Opcode::MadLo, TypeClass::U, 64}, "mad64-cross",
                        {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    mad.temps = {TempKind::V32, TempKind::V32};
    mad.seq = {cross[0], cross[1], inst(Op::V_MAD_U64_U32, D(), {S(0, Part::Lo), S(1, Part::Lo), S(2)}), cross[2]};
    mad.restriction = "as mul.lo.u64, with c as the v_mad_u64_u32 addend";
    mad.proveInIntegers = true;
    mad.dstDistinctOnMadHazard = true;
    out.push_back(mad);
    out.push_back(viaTempOnMadHazard(mad));
    // The high half of the 128-bit product: P = al*bh + hi(al*bl),
    // Q = ah*bl + lo(P), then ah*bh + hi(P) + hi(Q) (each step fits 64 bits).
    // No multiply-add accumulates in place (gfx11's MAD forwarding bug):
    // P goes to T(1), its high word aside to T(2), so that T(1) = (lo(P), 0)
    // is Q's addend and Q lands in T(0).
    Rule hi = makeRule(Form{Opcode::MulHi, TypeClass::U, 64}, "mad64-chain", {OperandReq::Any, OperandReq::Any});
    hi.temps = {TempKind::V64, TempKind::V64, TempKind::V32};
    hi.seq = {inst(Op::V_MUL_HI_U32, T(0, Part::Lo), {S(0, Part::Lo), S(1, Part::Lo)}),
              inst(Op::V_MOV_B32, T(0, Part::Hi), {I(0)}),
              inst(Op::V_MAD_U64_U32, T(1), {S(0, Part::Lo), S(1, Part::Hi), T(0)}),
              inst(Op::V_MOV_B32, T(2), {T(1, Part::Hi)}),
              inst(Op::V_MOV_B32, T(1, Part::Hi), {I(0)}),
              inst(Op::V_MAD_U64_U32, T(0), {S(0, Part::Hi), S(1, Part::Lo), T(1)}),
              inst(Op::V_ADD_CO_U32, T(1, Part::Lo), {T(2), T(0, Part::Hi)}),
              inst(Op::V_ADDC_CO_U32, T(1, Part::Hi), {I(0), I(0), VCC()}),
              inst(Op::V_MAD_U64_U32, D(), {S(0, Part::Hi), S(1, Part::Hi), T(1)})};
    hi.restriction = "no 64x64 multiply: four 32x32 partial products chained through v_mad_u64_u32 addends, "
                     "the middle carries added into the last";
    hi.proveInIntegers = true;
    hi.dstDistinctOnMadHazard = true;
    out.push_back(hi);
    out.push_back(viaTempOnMadHazard(hi));
    // Signed: with a = A - 2^64*sa and b = B - 2^64*sb (sa, sb the sign
    // bits), a*b = A*B - 2^64*(sa*B + sb*A) + 2^128*sa*sb, so the signed high
    // half is the unsigned one minus (a < 0 ? b : 0) and (b < 0 ? a : 0),
    // modulo 2^64. The unsigned part is the rule above, used as a lemma
    // (rule.lemma), and the products are related by that identity, proved
    // once over the integers (rule.opaqueProducts): what the proof
    // compares is then the corrections, a linear circuit.
    Rule shi = makeRule(Form{Opcode::MulHi, TypeClass::S, 64}, "umulhi-corrected", {OperandReq::Any, OperandReq::Any});
    // hi's temporaries, then the unsigned product (T(3)) and two words.
    shi.temps = hi.temps;
    shi.temps.insert(shi.temps.end(), {TempKind::V64, TempKind::V32, TempKind::V32});
    constexpr unsigned kProduct = 3;
    for (const TInst &ti : hi.seq) { // the unsigned high half, into T(kProduct)
      TInst renamed = ti;
      auto toProduct = [](Ref &r) {
        if (r.kind == Ref::Kind::Dst)
          r = T(kProduct, r.part);
      };
      toProduct(renamed.dst.lo);
      for (TOperand &o : renamed.srcs)
        toProduct(o.lo);
      shi.seq.push_back(renamed);
    }
    // Subtract (x < 0 ? y : 0) from T(kProduct): into `d` (a 64-bit ref's halves).
    auto correct = [&](unsigned x, unsigned y, Ref lo, Ref hi) {
      shi.seq.push_back(inst(Op::V_CMP_GT_I32, VCC(), {I(0), S(x, Part::Hi)}));
      shi.seq.push_back(inst(Op::V_CNDMASK_B32, T(kProduct + 1), {I(0), S(y, Part::Lo), VCC()}));
      shi.seq.push_back(inst(Op::V_CNDMASK_B32, T(kProduct + 2), {I(0), S(y, Part::Hi), VCC()}));
      shi.seq.push_back(inst(Op::V_SUB_CO_U32, lo, {T(kProduct, Part::Lo), T(kProduct + 1)}));
      shi.seq.push_back(inst(Op::V_SUBB_CO_U32, hi, {T(kProduct, Part::Hi), T(kProduct + 2), VCC()}));
    };
    correct(0, 1, T(kProduct, Part::Lo), T(kProduct, Part::Hi));
    correct(1, 0, D(0, Part::Lo), D(0, Part::Hi));
    shi.lemma = Rule::Lemma{hi.name, static_cast<unsigned>(hi.seq.size()), kProduct};
    shi.opaqueProducts = true;
    shi.restriction = "no 64x64 multiply: the unsigned high half (the rule above), then minus b where a < 0 and "
                      "minus a where b < 0 (two's complement correction)";
    out.push_back(shi);
    // mad.hi.cc.u64 / madc.hi[.cc].{u64,s64} (PTX ISA 9.7.2.5-6; secp256k1
    // field multiplication chains them): the high product into T(2) as
    // above (signed: with the corrections), then c and CC.CF added through
    // VCC across both halves. The proof takes the product from the lemma
    // and treats the 128-bit products as opaque (opaqueProducts), so the
    // carry chain is all that is compared.
    for (const Form &f : ptx::allForms()) {
      if ((f.opcode != Opcode::MadHi && f.opcode != Opcode::MadLo) || f.width != 64 || !(f.carryIn || f.carryOut))
        continue;
      const bool low = f.opcode == Opcode::MadLo, sgn = !low && f.type == TypeClass::S;
      std::vector<OperandReq> reqs{OperandReq::Any, OperandReq::Any, OperandReq::Any};
      if (f.carryIn)
        reqs.push_back(OperandReq::Reg);
      Rule r = makeRule(f, std::string(low ? "mullo" : "mulhi") + (f.carryIn ? "-vcc-in" : "-vcc-out"), reqs);
      // The product rule's whole template, its destination renamed to the
      // temporary `product` (unsigned: shi's T(3), after hi's three; signed:
      // a seventh temporary, shi keeps its unsigned product in T(3); the low
      // half: mul.lo.u64's, after its two temporaries).
      const Rule &product = low ? lo : sgn ? shi : hi;
      const unsigned into = low ? 2 : sgn ? 6 : 3;
      r.temps = low ? lo.temps : shi.temps;
      if (sgn || low)
        r.temps.push_back(TempKind::V64);
      for (TInst ti : product.seq) {
        auto rename = [&](Ref &x) {
          if (x.kind == Ref::Kind::Dst)
            x = T(into, x.part);
        };
        rename(ti.dst.lo);
        for (TOperand &o : ti.srcs)
          rename(o.lo);
        r.seq.push_back(ti);
      }
      if (f.carryIn) {
        r.seq.push_back(inst(Op::S_MOV_MASK, VCC(), {S(3)}));
        r.seq.push_back(inst(Op::V_ADDC_CO_U32, D(0, Part::Lo), {T(into, Part::Lo), S(2, Part::Lo), VCC()}));
      } else {
        r.seq.push_back(inst(Op::V_ADD_CO_U32, D(0, Part::Lo), {T(into, Part::Lo), S(2, Part::Lo)}));
      }
      r.seq.push_back(inst(Op::V_ADDC_CO_U32, D(0, Part::Hi), {T(into, Part::Hi), S(2, Part::Hi), VCC()}));
      if (f.carryOut)
        r.seq.push_back(inst(Op::S_MOV_MASK, D(1), {VCC()}));
      r.lemma = Rule::Lemma{product.name, static_cast<unsigned>(product.seq.size()), into};
      r.opaqueProducts = true;
      r.restriction = std::string("no multiply-add with a carry: the ") + (sgn ? "signed " : "") + "64-bit " +
                      (low ? "low" : "high") + " product (mul." + (low ? "lo.u64" : sgn ? "hi.s64" : "hi.u64") +
                      "'s sequence) into a temporary, then c added through VCC across both halves (CC.CF, a lane "
                      "mask, copied in and out)";
      out.push_back(std::move(r));
    }
  }
  // Fused forms (kernel/transforms/instruction_fusion.cpp): two PTX instructions, one VOP3.
  {
    Rule a3 = makeRule(Form{Opcode::Add3, TypeClass::U, 32}, "vop3", {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    a3.seq = {inst(Op::V_ADD3_U32, D(), {S(0), S(1), S(2)})};
    a3.restriction = "none: an add of an add's result (read only there) is one v_add3_u32 (gfx9+)";
    out.push_back(a3);
    Rule x = makeRule(Form{Opcode::Xad, TypeClass::U, 32}, "vop3", {OperandReq::Any, OperandReq::Any, OperandReq::Any});
    x.seq = {inst(Op::V_XAD_U32, D(), {S(0), S(1), S(2)})};
    x.restriction = "none: an add of a xor's result (read only there) is one v_xad_u32 (gfx9+)";
    out.push_back(std::move(x));
  }
  // Extended precision: CC.CF is a lane mask between instructions; AMD's
  // carry lives in VCC only within one rule, so it is copied in and out.
  for (const Form &f : ptx::allForms()) {
    if ((f.opcode != Opcode::Add && f.opcode != Opcode::Sub) || !(f.carryIn || f.carryOut))
      continue;
    const bool add = f.opcode == Opcode::Add, wide = f.width == 64;
    std::vector<OperandReq> reqs{OperandReq::Any, OperandReq::Any};
    if (f.carryIn)
      reqs.push_back(OperandReq::Reg);
    Rule r = makeRule(f, f.carryIn ? "vcc-in" : "vcc-out", reqs);
    const Op withCarry = add ? Op::V_ADDC_CO_U32 : Op::V_SUBB_CO_U32;
    if (f.carryIn)
      r.seq.push_back(inst(Op::S_MOV_MASK, VCC(), {S(2)}));
    const Part lo = wide ? Part::Lo : Part::Whole;
    if (f.carryIn)
      r.seq.push_back(inst(withCarry, D(0, lo), {S(0, lo), S(1, lo), VCC()}));
    else
      r.seq.push_back(inst(add ? Op::V_ADD_CO_U32 : Op::V_SUB_CO_U32, D(0, lo), {S(0, lo), S(1, lo)}));
    if (wide) // the high halves continue the chain (each half reads only its own half of a and b)
      r.seq.push_back(inst(withCarry, D(0, Part::Hi), {S(0, Part::Hi), S(1, Part::Hi), VCC()}));
    if (f.carryOut)
      r.seq.push_back(inst(Op::S_MOV_MASK, D(1), {VCC()}));
    r.restriction = std::string("the carry chain runs through VCC") + (wide ? ", through both halves" : "") +
                    ": CC.CF (a lane mask) is copied " +
                    (f.carryIn && f.carryOut ? "into VCC and back out" : f.carryIn ? "into VCC first" : "out of VCC after");
    out.push_back(std::move(r));
  }
  // Extended-precision multiply-add (mad.lo.cc, madc.hi.cc, ...: nvcc's
  // multi-word products): the product half into a temporary, then the same
  // VCC carry chain as addc.
  for (const Form &f : ptx::allForms()) {
    if ((f.opcode != Opcode::MadLo && f.opcode != Opcode::MadHi) || !(f.carryIn || f.carryOut) || f.width != 32)
      continue;
    std::vector<OperandReq> reqs{OperandReq::Any, OperandReq::Any, OperandReq::Any};
    if (f.carryIn)
      reqs.push_back(OperandReq::Reg);
    Rule r = makeRule(f, f.carryIn ? "mul-vcc-in" : "mul-vcc-out", reqs);
    r.temps = {TempKind::V32};
    const Op mul = f.opcode == Opcode::MadLo ? Op::V_MUL_LO_U32
                   : f.type == TypeClass::S   ? Op::V_MUL_HI_I32
                                              : Op::V_MUL_HI_U32;
    r.seq = {inst(mul, T(0), {S(0), S(1)})};
    if (f.carryIn) {
      r.seq.push_back(inst(Op::S_MOV_MASK, VCC(), {S(3)}));
      r.seq.push_back(inst(Op::V_ADDC_CO_U32, D(), {T(0), S(2), VCC()}));
    } else {
      r.seq.push_back(inst(Op::V_ADD_CO_U32, D(), {T(0), S(2)}));
    }
    if (f.carryOut)
      r.seq.push_back(inst(Op::S_MOV_MASK, D(1), {VCC()}));
    r.restriction = "no multiply-add with a carry: the product half into a temporary, then an add whose carry "
                    "runs through VCC (CC.CF, a lane mask, copied in and out)";
    out.push_back(std::move(r));
  }
  // Packing moves: a 64-bit value is a VGPR pair (two copies); a 32-bit one
  // from 16-bit halves, whose high bits are don't-care, is one byte permute.
  {
    Rule p64 = makeRule(Form{Opcode::MovPack, TypeClass::B, 64}, "halves", {OperandReq::Any, OperandReq::Any});
    p64.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {S(1)})};
    p64.restriction = "none: each half is a VGPR of the pair";
    out.push_back(p64);
    Rule u64 = makeRule(Form{Opcode::MovUnpack, TypeClass::B, 64}, "halves", {OperandReq::Any});
    u64.seq = {inst(Op::V_MOV_B32, D(0), {S(0, Part::Lo)}), inst(Op::V_MOV_B32, D(1), {S(0, Part::Hi)})};
    u64.restriction = "none: each half is a VGPR of the pair";
    out.push_back(u64);
    Rule p32 = makeRule(Form{Opcode::MovPack, TypeClass::B, 32}, "perm", {OperandReq::Any, OperandReq::Any});
    p32.seq = {inst(Op::V_PERM_B32, D(), {S(1), S(0), I(0x05040100)})};
    p32.restriction = "16-bit values sit in the low half of a VGPR with a don't-care high half: v_perm_b32 takes bytes 0-1 of each";
    out.push_back(p32);
    Rule u32 = makeRule(Form{Opcode::MovUnpack, TypeClass::B, 32}, "mov-shift", {OperandReq::Any});
    u32.seq = {inst(Op::V_MOV_B32, D(0), {S(0)}), inst(Op::V_LSHRREV_B32, D(1), {I(16), S(0)})};
    u32.restriction = "a 16-bit register's high half is don't-care: the low half is the register itself, the high one a shift";
    out.push_back(std::move(u32));
  }
  // cvt between 16-, 32- and 64-bit integers, and widening from 8 bits. A
  // 16-bit register's high half is don't-care (and an 8-bit value is the low
  // byte of one), so widening from 8 or 16 bits extracts first.
  for (const Form &f : ptx::allForms()) {
    if (f.opcode == Opcode::Cvt && f.saturate) {
      out.push_back(cvtSaturateRule(f));
    } else if (f.opcode == Opcode::Cvt && f.width < 16) {
      // The low byte, extended into the 16-bit register by the destination type.
      Rule r = makeRule(f, f.type == TypeClass::S ? "sext-byte" : "zext-byte", {OperandReq::Reg});
      r.seq = {inst(f.type == TypeClass::S ? Op::V_BFE_I32 : Op::V_BFE_U32, D(),
                    {S(0, f.fromWidth == 64 ? Part::Lo : Part::Whole), I(0), I(8)})};
      r.restriction = "an 8-bit result fills its register extended by its type: one v_bfe of the low byte";
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::Cvt) {
      const bool sgn = f.fromType == TypeClass::S;
      const Op ext16 = sgn ? Op::V_BFE_I32 : Op::V_BFE_U32;
      Rule r = makeRule(f, f.width > f.fromWidth ? (sgn ? "sext" : "zext") : "low-bits", {OperandReq::Reg});
      if (f.width < f.fromWidth) {
        r.seq = {inst(Op::V_MOV_B32, D(), {S(0, f.fromWidth == 64 ? Part::Lo : Part::Whole)})};
        r.restriction = "none: the low bits are the value (a narrower register's high bits are don't-care)";
      } else if (f.width <= 32) { // 32 from 16 or 8, 16 from 8
        r.seq = {inst(ext16, D(), {S(0), I(0), I(f.fromWidth)})};
        r.restriction = f.fromWidth == 16 ? "a 16-bit value's high half is don't-care in its VGPR: extract and extend it"
                                          : "an 8-bit value is the low byte of its register: extract and extend it";
      } else if (f.fromWidth < 32) { // 64 from 16 or 8
        r.seq = {inst(ext16, D(0, Part::Lo), {S(0), I(0), I(f.fromWidth)}),
                 sgn ? inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), D(0, Part::Lo)})
                     : inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
        r.restriction = "extract and extend the " + std::to_string(f.fromWidth) +
                        "-bit value into the low VGPR, then fill the high one";
      } else { // 64 from 32
        r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {S(0)}),
                 sgn ? inst(Op::V_ASHRREV_I32, D(0, Part::Hi), {I(31), S(0)}) : inst(Op::V_MOV_B32, D(0, Part::Hi), {I(0)})};
        r.restriction = sgn ? "a 64-bit value is a VGPR pair: copy the low half, fill the high with the sign"
                            : "a 64-bit value is a VGPR pair: copy the low half, zero the high";
      }
      out.push_back(std::move(r));
    } else if (f.opcode == Opcode::MulWide && f.width == 16) {
      // 16 x 16 -> 32: extend both (their high halves are don't-care), multiply.
      const Op ext16 = f.type == TypeClass::S ? Op::V_BFE_I32 : Op::V_BFE_U32;
      Rule r = makeRule(f, "extend-mul", {OperandReq::Any, OperandReq::Any});
      r.temps = {TempKind::V32, TempKind::V32};
      r.seq = {inst(ext16, T(0), {S(0), I(0), I(16)}), inst(ext16, T(1), {S(1), I(0), I(16)}),
               inst(Op::V_MUL_LO_U32, D(), {T(0), T(1)})};
      r.restriction = "no 16-bit widening multiply: extend both halves to 32 bits, then one 32-bit multiply";
      out.push_back(std::move(r));
    }
  }
}

} // namespace p2a::rules
