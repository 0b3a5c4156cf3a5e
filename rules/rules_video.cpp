// Rules for the scalar video instructions (PTX ISA 9.7.18.1); their operand
// selectors and data merge are separate instructions
// (ptx::expandOperandSelectors). The shifts vshl / vshr, without .sat and
// without .min/.max: d = (a shifted by b,
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

// The shift instruction: d = src shifted by amount (its low 5 bits).
TInst shift(Opcode op, bool arithmetic, Ref d, Ref amount, Ref value) {
  const Op o = op == Opcode::Vshl ? Op::V_LSHLREV_B32 : arithmetic ? Op::V_ASHRREV_I32 : Op::V_LSHRREV_B32;
  return inst(o, d, {amount, value});
}

// `shifted` into d, or shifted + c with the secondary .add (a left shift and
// the add are one v_lshl_add_u32).
void finish(Rule &r, const Form &f, bool arithmetic, Ref amount, Ref value) {
  if (!f.videoAdd()) {
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

// Whether a video shift's result depends on the value beyond 32 bits: with
// .sat or a secondary .min/.max (addVideoShiftWide); otherwise the low 32
// bits of a 32-bit shift serve (addVideoShift).
bool shiftReadsWideValue(const Form &f) {
  return f.saturate || (f.videoOp2 != Form::VideoOp2::None && !f.videoAdd());
}

void addVideoShift(const Form &f, std::vector<Rule> &out) {
  if (shiftReadsWideValue(f))
    return;
  const bool clamp = f.mode == ShfMode::Clamp;
  const bool arithmetic = f.opcode == Opcode::Vshr && f.fromType == TypeClass::S;
  const std::vector<OperandReq> any = f.videoAdd() ? std::vector{A, A, A} : std::vector{A, A};
  std::vector<OperandReq> immB = any;
  immB[1] = Im;
  const std::string plus = f.videoAdd() ? ", then + c" : "";
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
    out.push_back(std::move(r));
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
                    std::string(f.opcode == Opcode::Vshl && f.videoAdd() ? "v_lshl_add_u32" : "shift") +
                    (f.videoAdd() && f.opcode != Opcode::Vshl ? " and an add" : "");
    out.push_back(std::move(r));
  }
  if (clamp && !arithmetic) {
    Rule r = makeRule(f, "imm-all", immB);
    r.constraints = {when(b >= 32)};
    r.seq = {inst(Op::V_MOV_B32, D(), {f.videoAdd() ? S(2) : I(0)})};
    r.priority = 1;
    r.restriction = std::string("a constant amount of 32 or more: the shift leaves 0") + (f.videoAdd() ? ", d = c" : "");
    out.push_back(std::move(r));
  }
}

// ---- vadd, vsub, vabsdiff, vmin, vmax (PTX ISA 9.7.18.1.1) ----
//
// The semantics are what NVIDIA hardware computes (sem::bits::videoArith,
// measured: tests/hardware/README.md). The general rule works on 64-bit
// VGPR pairs: each input extended by its type, the operation with the carry
// through VCC, .sat and the secondary .min/.max by 64-bit compares and a
// select per half. Where the types change no bit, one or two 32-bit
// instructions serve.

using VideoOp2 = Form::VideoOp2;

// dst (a V64 temporary) = src extended to 64 bits by its type.
void extend(Rule &r, unsigned temp, Ref src, TypeClass type) {
  r.seq.push_back(inst(Op::V_MOV_B32, T(temp, Part::Lo), {src}));
  r.seq.push_back(type == TypeClass::S ? inst(Op::V_ASHRREV_I32, T(temp, Part::Hi), {I(31), src})
                                       : inst(Op::V_MOV_B32, T(temp, Part::Hi), {I(0)}));
}

// dst = cond ? whenSet : whenClear, per half of V64 temporaries.
void select64(Rule &r, unsigned dst, unsigned whenClear, unsigned whenSet) {
  for (Part p : {Part::Lo, Part::Hi})
    r.seq.push_back(inst(Op::V_CNDMASK_B32, T(dst, p), {T(whenClear, p), T(whenSet, p), VCC()}));
}

// T(v) (V64, read as signed) clamped to [lo, hi] with 64-bit compares;
// T(scratch) (V64) holds the bounds.
void clamp64(Rule &r, unsigned v, unsigned scratch, int64_t lo, int64_t hi) {
  r.seq.push_back(inst(Op::V_MOV_B32, T(scratch, Part::Lo), {I(uint32_t(hi))}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(scratch, Part::Hi), {I(uint32_t(uint64_t(hi) >> 32))}));
  r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(scratch)), O(T(v))}));
  select64(r, v, v, scratch);
  r.seq.push_back(inst(Op::V_MOV_B32, T(scratch, Part::Lo), {I(uint32_t(lo))}));
  r.seq.push_back(inst(Op::V_MOV_B32, T(scratch, Part::Hi), {I(uint32_t(uint64_t(lo) >> 32))}));
  r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(v)), O(T(scratch))}));
  select64(r, v, v, scratch);
}

// T(v) clamped to .s32's range or .u32's, as `sgn` says.
void clampTo32(Rule &r, unsigned v, unsigned scratch, bool sgn) {
  if (sgn)
    clamp64(r, v, scratch, INT32_MIN, INT32_MAX);
  else
    clamp64(r, v, scratch, 0, UINT32_MAX);
}

// T(dst) = 0 - T(src) (V64 temporaries), the borrow through VCC.
void negate64(Rule &r, unsigned dst, unsigned src) {
  r.seq.push_back(inst(Op::V_SUB_CO_U32, T(dst, Part::Lo), {I(0), T(src, Part::Lo)}));
  r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(dst, Part::Hi), {I(0), T(src, Part::Hi), VCC()}));
}

// T(w) (V64) = the low 32 bits of T(v), sign-extended.
void sextLow(Rule &r, unsigned w, unsigned v) {
  r.seq.push_back(inst(Op::V_MOV_B32, T(w, Part::Lo), {T(v, Part::Lo)}));
  r.seq.push_back(inst(Op::V_ASHRREV_I32, T(w, Part::Hi), {I(31), T(v, Part::Lo)}));
}

// The secondary operation (sem::bits combine): d = low + c, or .min/.max of
// the 64-bit value T(w) against c extended by the destination type and
// compared as it is signed or not; T(3) (V64) is scratch.
void combine(Rule &r, const Form &f, Ref low, unsigned w, std::string &how) {
  const bool sgn = f.type == TypeClass::S;
  switch (f.videoOp2) {
  case VideoOp2::None: r.seq.push_back(inst(Op::V_MOV_B32, D(), {low})); break;
  case VideoOp2::Add: r.seq.push_back(inst(Op::V_ADD_U32, D(), {low, S(2)})); break;
  case VideoOp2::Min:
  case VideoOp2::Max:
    extend(r, 3, S(2), f.type);
    r.seq.push_back(inst(sgn ? Op::V_CMP_LT_I64 : Op::V_CMP_LT_U64, O(VCC()), {O(T(w)), O(T(3))}));
    r.seq.push_back(f.videoOp2 == VideoOp2::Min ? inst(Op::V_CNDMASK_B32, D(), {T(3, Part::Lo), low, VCC()})
                                                : inst(Op::V_CNDMASK_B32, D(), {low, T(3, Part::Lo), VCC()}));
    how += std::string(", c compared with the 64-bit value, ") + (sgn ? "signed" : "unsigned");
    break;
  }
}

void addVideoArithWide(const Form &f, std::vector<Rule> &out) {
  const bool withC = f.videoOp2 != VideoOp2::None;
  Rule r = makeRule(f, "wide", withC ? std::vector{A, A, A} : std::vector{A, A});
  r.temps = {TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V64}; // ta, tb, value, scratch
  extend(r, 0, S(0), f.fromType);
  extend(r, 1, S(1), f.videoBType);
  switch (f.opcode) {
  case Opcode::Vadd:
    r.seq.push_back(inst(Op::V_ADD_CO_U32, T(2, Part::Lo), {T(0, Part::Lo), T(1, Part::Lo)}));
    r.seq.push_back(inst(Op::V_ADDC_CO_U32, T(2, Part::Hi), {T(0, Part::Hi), T(1, Part::Hi), VCC()}));
    break;
  case Opcode::Vsub:
  case Opcode::Vabsdiff:
    r.seq.push_back(inst(Op::V_SUB_CO_U32, T(2, Part::Lo), {T(0, Part::Lo), T(1, Part::Lo)}));
    r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(2, Part::Hi), {T(0, Part::Hi), T(1, Part::Hi), VCC()}));
    if (f.opcode == Opcode::Vabsdiff) { // |value|: 0 - value where value < 0
      negate64(r, 3, 2);
      r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(2)), O(I(0))}));
      select64(r, 2, 2, 3);
    }
    break;
  case Opcode::Vmin:
  case Opcode::Vmax:
    r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(0)), O(T(1))}));
    if (f.opcode == Opcode::Vmin)
      select64(r, 2, 1, 0);
    else
      select64(r, 2, 0, 1);
    break;
  default: break;
  }
  std::string how = "no 34-bit video arithmetic: inputs extended to 64 bits by their types";
  if (f.saturate) {
    if (f.type == TypeClass::S) {
      clampTo32(r, 2, 3, true);
      how += ", clamped to .s32 with 64-bit compares";
    } else { // below 0: 0; no upper bound (as NVIDIA hardware)
      r.seq.push_back(inst(Op::V_CMP_GT_I64, O(VCC()), {O(I(0)), O(T(2))}));
      for (Part p : {Part::Lo, Part::Hi})
        r.seq.push_back(inst(Op::V_CNDMASK_B32, T(2, p), {T(2, p), I(0), VCC()}));
      how += ", 0 below 0 (NVIDIA hardware keeps the low 32 bits above 2^32 - 1)";
    }
  }
  // ptxas computes vadd and vsub in 32 bits: .min/.max see those bits sign-extended.
  unsigned w = 2;
  if ((f.opcode == Opcode::Vadd || f.opcode == Opcode::Vsub) &&
      (f.videoOp2 == VideoOp2::Min || f.videoOp2 == VideoOp2::Max)) {
    sextLow(r, 1, 2);
    w = 1;
    how += ", the 32-bit result sign-extended for .min/.max (as NVIDIA hardware)";
  }
  combine(r, f, T(2, Part::Lo), w, how);
  r.restriction = how;
  out.push_back(std::move(r));
}

// vshl / vshr with .sat or a secondary .min/.max, where the value beyond 32
// bits matters (sem::bits::videoShift): a extended to 64 bits by its type
// and shifted by one 64-bit shift; .sat keeps the low 34 bits sign-extended
// (v_bfe_i32 of the high dword's two low bits), clamps to the destination
// type, and .min/.max then compare the clamped 32 bits sign-extended.
void addVideoShiftWide(const Form &f, std::vector<Rule> &out) {
  if (!shiftReadsWideValue(f))
    return;
  const bool left = f.opcode == Opcode::Vshl, signedA = f.fromType == TypeClass::S;
  Rule r = makeRule(f, "wide", f.videoOp2 != VideoOp2::None ? std::vector{A, A, A} : std::vector{A, A});
  r.temps = {TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V32}; // ta, w, value, scratch, amount
  extend(r, 0, S(0), f.fromType);
  r.seq.push_back(f.mode == ShfMode::Clamp ? inst(Op::V_MIN_U32, T(4), {I(32), S(1)})
                                           : inst(Op::V_AND_B32, T(4), {I(31), S(1)}));
  const Op shift = left ? Op::V_LSHLREV_B64 : signedA ? Op::V_ASHRREV_I64 : Op::V_LSHRREV_B64;
  r.seq.push_back(inst(shift, O(T(2)), {O(T(4)), O(T(0))}));
  std::string how = "no 34-bit video shift: a extended to 64 bits by its type, one 64-bit shift";
  unsigned w = 2;
  if (f.saturate) {
    r.seq.push_back(inst(Op::V_BFE_I32, T(2, Part::Hi), {T(2, Part::Hi), I(0), I(2)}));
    clampTo32(r, 2, 3, f.type == TypeClass::S);
    sextLow(r, 1, 2);
    w = 1;
    how += ", cut to 34 bits and clamped with 64-bit compares (as NVIDIA hardware)";
  }
  combine(r, f, T(2, Part::Lo), w, how);
  r.restriction = how;
  out.push_back(std::move(r));
}

// vmad (sem::bits::videoMad, as NVIDIA hardware computes it): the signed
// 32 x 32 -> 64-bit product by v_mad_i64_i32 whatever the operand types,
// negated by a 64-bit subtraction from 0 (-a*b); c sign-extended (or
// negated: -c) and added with the carry through VCC; .po's + 1 as one more
// carry chain; .shr7/.shr15 by a 64-bit shift (arithmetic where the final
// type is signed); .sat with 64-bit compares.
void addVideoMad(const Form &f, std::vector<Rule> &out) {
  using Mode = Form::VmadMode;
  const bool signedFinal = f.type == TypeClass::S;
  Rule r = makeRule(f, "wide", {A, A, A});
  r.opaqueProducts = true; // (the semantics reads the same product: sem::bits::videoMad)
  // product, sum, c extended, clamp scratch
  r.temps = {TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V64};
  r.seq.push_back(inst(Op::V_MAD_I64_I32, O(T(0)), {O(S(0)), O(S(1)), O(I(0))}));
  std::string how = "the signed 64-bit product (v_mad_i64_i32) whatever the types, as NVIDIA hardware";
  if (f.vmadMode == Mode::NegProduct) {
    negate64(r, 0, 0);
    how += ", negated";
  }
  extend(r, 2, S(2), TypeClass::S);
  if (f.vmadMode == Mode::NegC) {
    negate64(r, 2, 2);
    how += ", c negated";
  }
  r.seq.push_back(inst(Op::V_ADD_CO_U32, T(1, Part::Lo), {T(0, Part::Lo), T(2, Part::Lo)}));
  r.seq.push_back(inst(Op::V_ADDC_CO_U32, T(1, Part::Hi), {T(0, Part::Hi), T(2, Part::Hi), VCC()}));
  how += ", + c sign-extended";
  if (f.vmadMode == Mode::PlusOne) {
    r.seq.push_back(inst(Op::V_ADD_CO_U32, T(1, Part::Lo), {I(1), T(1, Part::Lo)}));
    r.seq.push_back(inst(Op::V_ADDC_CO_U32, T(1, Part::Hi), {T(1, Part::Hi), I(0), VCC()}));
    how += ", + 1 by a carry chain";
  }
  if (f.vmadShift) {
    r.seq.push_back(
        inst(signedFinal ? Op::V_ASHRREV_I64 : Op::V_LSHRREV_B64, O(T(1)), {O(I(f.vmadShift)), O(T(1))}));
    how += ", scaled by a 64-bit shift";
  }
  if (f.saturate) {
    clampTo32(r, 1, 3, signedFinal);
    how += ", clamped with 64-bit compares";
  }
  r.seq.push_back(inst(Op::V_MOV_B32, D(), {T(1, Part::Lo)}));
  r.restriction = how;
  out.push_back(std::move(r));
}

// Where the 32-bit result is all that matters: no .sat, no secondary .min
// or .max. vadd/vsub: the low 32 bits of the sum whatever the types;
// vmin/vmax of equally typed inputs: one VOP2; vabsdiff of unsigned inputs:
// max - min.
void addVideoArith32(const Form &f, std::vector<Rule> &out) {
  if (f.saturate || f.videoOp2 == VideoOp2::Min || f.videoOp2 == VideoOp2::Max)
    return;
  const bool plus = f.videoOp2 == VideoOp2::Add;
  const std::vector<OperandReq> reqs = plus ? std::vector{A, A, A} : std::vector{A, A};
  Rule r = makeRule(f, "vop2", reqs);
  const std::string then = plus ? ", then + c" : "";
  auto finishWith = [&](Op op, std::vector<Ref> srcs) { // into d, or a temporary and + c
    if (!plus) {
      TInst t{op, O(D()), {}};
      for (const Ref &s : srcs)
        t.srcs.push_back(O(s));
      r.seq.push_back(t);
      return;
    }
    r.temps.push_back(TempKind::V32);
    const Ref t = T(static_cast<unsigned>(r.temps.size() - 1));
    TInst i{op, O(t), {}};
    for (const Ref &s : srcs)
      i.srcs.push_back(O(s));
    r.seq.push_back(i);
    r.seq.push_back(inst(Op::V_ADD_U32, D(), {t, S(2)}));
  };
  switch (f.opcode) {
  case Opcode::Vadd:
    if (plus) {
      r.seq = {inst(Op::V_ADD3_U32, D(), {S(0), S(1), S(2)})};
      r.restriction = "none: the low 32 bits of a + b + c, one v_add3_u32";
    } else {
      r.seq = {inst(Op::V_ADD_U32, D(), {S(0), S(1)})};
      r.restriction = "none: the low 32 bits of a + b";
    }
    break;
  case Opcode::Vsub:
    finishWith(Op::V_SUB_U32, {S(0), S(1)});
    r.restriction = "none: the low 32 bits of a - b" + then;
    break;
  case Opcode::Vmin:
  case Opcode::Vmax: {
    if (f.fromType != f.videoBType)
      return;
    const bool s = f.fromType == TypeClass::S, min = f.opcode == Opcode::Vmin;
    finishWith(min ? (s ? Op::V_MIN_I32 : Op::V_MIN_U32) : (s ? Op::V_MAX_I32 : Op::V_MAX_U32), {S(0), S(1)});
    r.restriction = "inputs of one type: a 32-bit min/max compares as the wide one" + then;
    break;
  }
  case Opcode::Vabsdiff: {
    if (f.fromType != TypeClass::U || f.videoBType != TypeClass::U)
      return;
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_MAX_U32, T(0), {S(0), S(1)}), inst(Op::V_MIN_U32, T(1), {S(0), S(1)})};
    finishWith(Op::V_SUB_U32, {T(0), T(1)});
    r.restriction = "unsigned inputs: |a - b| is max - min" + then;
    break;
  }
  default: return;
  }
  out.push_back(std::move(r));
}

// vset: a compare into VCC, 0 or 1 by a select, then the secondary
// operation (.min/.max signed as a is). Inputs of one type compare in 32 bits;
// mixed ones after extension to 64.
void addVideoSet(const Form &f, std::vector<Rule> &out) {
  const bool withC = f.videoOp2 != VideoOp2::None, same = f.fromType == f.videoBType;
  Rule r = makeRule(f, same ? "vopc" : "wide-vopc", withC ? std::vector{A, A, A} : std::vector{A, A});
  if (same) {
    r.seq.push_back(inst(compareOp(f.cmp, f.fromType == TypeClass::S, 32), O(VCC()), {O(S(0)), O(S(1))}));
    r.restriction = "inputs of one type: one 32-bit compare";
  } else {
    r.temps = {TempKind::V64, TempKind::V64};
    extend(r, 0, S(0), f.fromType);
    extend(r, 1, S(1), f.videoBType);
    r.seq.push_back(inst(compareOp(f.cmp, true, 64), O(VCC()), {O(T(0)), O(T(1))}));
    r.restriction = "inputs of mixed types: both extended to 64 bits, one signed 64-bit compare";
  }
  if (!withC) {
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {I(0), I(1), VCC()}));
  } else {
    r.temps.push_back(TempKind::V32);
    const Ref t = T(static_cast<unsigned>(r.temps.size() - 1));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, t, {I(0), I(1), VCC()}));
    // .min/.max compare signed where a is signed (sem::bits::videoSet).
    const bool sgn = f.fromType == TypeClass::S;
    const Op op2 = f.videoOp2 == VideoOp2::Add ? Op::V_ADD_U32
                   : f.videoOp2 == VideoOp2::Min ? (sgn ? Op::V_MIN_I32 : Op::V_MIN_U32)
                                                 : (sgn ? Op::V_MAX_I32 : Op::V_MAX_U32);
    r.seq.push_back(inst(op2, D(), {t, S(2)}));
    r.restriction += f.videoOp2 == VideoOp2::Add ? ", then + c" : sgn ? ", then the secondary operation, signed as a is"
                                                                       : ", then the secondary operation, unsigned as a is";
  }
  out.push_back(std::move(r));
}

} // namespace

void addVideoRules(std::vector<Rule> &out) {
  for (const Form &f : ptx::allForms()) {
    if (f.isVideoShift()) {
      addVideoShift(f, out);
      addVideoShiftWide(f, out);
    }
    if (f.isVideoArith()) {
      addVideoArith32(f, out);
      addVideoArithWide(f, out);
    }
    if (f.opcode == Opcode::Vset)
      addVideoSet(f, out);
    if (f.opcode == Opcode::Vmad)
      addVideoMad(f, out);
  }
}

} // namespace p2a::rules
