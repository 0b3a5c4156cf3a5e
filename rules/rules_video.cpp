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

const auto A = OperandReq::Any;
const auto Im = OperandReq::Imm;

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
// PTX computes in an .s34 intermediate from .s33 inputs and clamps that to
// the destination type (.sat) before the secondary operation, whose .min and
// .max compare the wide value with c. The general rule does exactly that on
// 64-bit VGPR pairs: each input extended by its type, the operation with
// the carry through VCC, 64-bit compares and a select per half. Where the
// types change no bit, one or two 32-bit instructions serve.

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

// Stages 3 and 4 (PTX ISA 9.7.18.1) on the wide value in T(2), a V64
// temporary read as a signed 64-bit number; T(3) (V64) is scratch, `low` the
// exact value's low 32 bits. .sat clamps T(2) to the destination type with
// 64-bit compares; the secondary operation combines with c; d gets the low
// 32 bits.
void saturateAndCombine(Rule &r, const Form &f, Ref low, std::string &how) {
  const bool sgn = f.type == TypeClass::S;
  if (f.saturate) { // CLAMP(tmp, max, min) of the destination type
    r.seq.push_back(inst(Op::V_MOV_B32, T(3, Part::Lo), {I(sgn ? 0x7fffffffu : 0xffffffffu)}));
    r.seq.push_back(inst(Op::V_MOV_B32, T(3, Part::Hi), {I(0)}));
    r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(3)), O(T(2))}));
    select64(r, 2, 2, 3);
    if (sgn) {
      r.seq.push_back(inst(Op::V_MOV_B32, T(3, Part::Lo), {I(0x80000000u)}));
      r.seq.push_back(inst(Op::V_MOV_B32, T(3, Part::Hi), {I(0xffffffffu)}));
      r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(2)), O(T(3))}));
      select64(r, 2, 2, 3);
    } else { // below 0: 0 (only the low half is read after this)
      r.seq.push_back(inst(Op::V_CMP_GE_I64, O(VCC()), {O(T(2)), O(I(0))}));
      r.seq.push_back(inst(Op::V_CNDMASK_B32, T(2, Part::Lo), {I(0), T(2, Part::Lo), VCC()}));
      r.seq.push_back(inst(Op::V_MOV_B32, T(2, Part::Hi), {I(0)}));
    }
    low = T(2, Part::Lo);
    how += ", clamped with 64-bit compares";
  }
  switch (f.videoOp2) {
  case VideoOp2::None: r.seq.push_back(inst(Op::V_MOV_B32, D(), {low})); break;
  case VideoOp2::Add: r.seq.push_back(inst(Op::V_ADD_U32, D(), {low, S(2)})); break;
  case VideoOp2::Min:
  case VideoOp2::Max:
    extend(r, 3, S(2), f.type);
    r.seq.push_back(inst(Op::V_CMP_LT_I64, O(VCC()), {O(T(2)), O(T(3))}));
    r.seq.push_back(f.videoOp2 == VideoOp2::Min ? inst(Op::V_CNDMASK_B32, D(), {T(3, Part::Lo), low, VCC()})
                                                : inst(Op::V_CNDMASK_B32, D(), {low, T(3, Part::Lo), VCC()}));
    how += ", c compared with the wide value";
    break;
  }
}

void addVideoArithWide(const Form &f, std::vector<Rule> &out) {
  const bool withC = f.videoOp2 != VideoOp2::None;
  Rule r = makeRule(f, "wide", withC ? std::vector{A, A, A} : std::vector{A, A});
  r.temps = {TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V64}; // ta, tb, tmp, scratch
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
    if (f.opcode == Opcode::Vabsdiff) { // |tmp|: 0 - tmp where tmp < 0
      r.seq.push_back(inst(Op::V_SUB_CO_U32, T(3, Part::Lo), {I(0), T(2, Part::Lo)}));
      r.seq.push_back(inst(Op::V_SUBB_CO_U32, T(3, Part::Hi), {I(0), T(2, Part::Hi), VCC()}));
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
  saturateAndCombine(r, f, T(2, Part::Lo), how);
  r.restriction = how;
  out.push_back(std::move(r));
}

// vshl / vshr with .sat or a secondary .min/.max, where the value beyond
// 32 bits matters: a extended to 64 bits by its type and shifted by a 64-bit
// shift (exact: |ta| < 2^32 and the amount is at most 32); an unsigned a
// shifted left can pass 2^63, so its compares see min(value, 2^33), which
// orders as the value does against every 32-bit bound and c.
void addVideoShiftWide(const Form &f, std::vector<Rule> &out) {
  if (!shiftReadsWideValue(f))
    return;
  const bool left = f.opcode == Opcode::Vshl, signedA = f.fromType == TypeClass::S;
  Rule r = makeRule(f, "wide", f.videoOp2 != VideoOp2::None ? std::vector{A, A, A} : std::vector{A, A});
  r.temps = {TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V64, TempKind::V32}; // ta, shifted, tmp, scratch, amount
  extend(r, 0, S(0), f.fromType);
  r.seq.push_back(f.mode == ShfMode::Clamp ? inst(Op::V_MIN_U32, T(4), {I(32), S(1)})
                                           : inst(Op::V_AND_B32, T(4), {I(31), S(1)}));
  const Op shift = left ? Op::V_LSHLREV_B64 : signedA ? Op::V_ASHRREV_I64 : Op::V_LSHRREV_B64;
  std::string how = "no 34-bit video shift: a extended to 64 bits by its type, one exact 64-bit shift";
  if (left && !signedA) {
    r.seq.push_back(inst(shift, O(T(1)), {O(T(4)), O(T(0))}));
    r.seq.push_back(inst(Op::V_MOV_B32, T(3, Part::Lo), {I(0)}));
    r.seq.push_back(inst(Op::V_MOV_B32, T(3, Part::Hi), {I(2)}));
    r.seq.push_back(inst(Op::V_CMP_LT_U64, O(VCC()), {O(T(1)), O(T(3))}));
    select64(r, 2, 3, 1);
    how += ", compared as min(value, 2^33) (an unsigned a shifted left can pass 2^63)";
    saturateAndCombine(r, f, T(1, Part::Lo), how);
  } else {
    r.seq.push_back(inst(shift, O(T(2)), {O(T(4)), O(T(0))}));
    saturateAndCombine(r, f, T(2, Part::Lo), how);
  }
  r.restriction = how;
  out.push_back(std::move(r));
}

// vmad (PTX ISA 9.7.18.1.4): the product by v_mad_{u64_u32,i64_i32}
// (mixed signs: the unsigned product less a * 2^32 where the signed factor
// is negative), its sign in a third dword, the negation by complements, c
// extended and added with the carries through VCC, .po's or the negation's
// + 1 as one more carry chain, .shr7/.shr15 by v_alignbit_b32 across the
// dwords, .sat with 64-bit compares (signed) or a look at the high dword.
void addVideoMad(const Form &f, std::vector<Rule> &out) {
  using Mode = Form::VmadMode;
  const bool sa = f.fromType == TypeClass::S, sb = f.videoBType == TypeClass::S;
  const bool signedFinal = f.type == TypeClass::S;
  Rule r = makeRule(f, "wide", {A, A, A});
  r.opaqueProducts = true; // (the semantics reads the same products: sem::bits::videoMad)
  // product, scratch, result, saturation scratch, 64-bit sum, top dword, c, c's fill
  r.temps = {TempKind::V64, TempKind::V32, TempKind::V64, TempKind::V64,
             TempKind::V64, TempKind::V32, TempKind::V32, TempKind::V32};
  const unsigned sum = f.vmadShift ? 4 : 2; // the 64-bit sum is the result unless scaled
  const Ref product = T(0), top = T(5);
  r.seq.push_back(inst(sa && sb ? Op::V_MAD_I64_I32 : Op::V_MAD_U64_U32, O(product), {O(S(0)), O(S(1)), O(I(0))}));
  std::string how = std::string("the ISA's 128-bit intermediate in ") + (f.vmadShift ? "three" : "two") +
                    " dwords: the 64-bit product";
  if (sa != sb) {
    const Ref unsignedFactor = sa ? S(1) : S(0), signedFactor = sa ? S(0) : S(1);
    r.seq.push_back(inst(Op::V_ASHRREV_I32, T(1), {I(31), signedFactor}));
    r.seq.push_back(inst(Op::V_AND_B32, T(1), {T(1), unsignedFactor}));
    r.seq.push_back(inst(Op::V_SUB_U32, T(0, Part::Hi), {T(0, Part::Hi), T(1)}));
    how += " (mixed signs: the unsigned one corrected)";
  }
  // The third dword matters only to a scale (unscaled, d and .sat read bits 63..0).
  const bool wide = f.vmadShift != 0;
  if (wide)
    r.seq.push_back(sa || sb ? inst(Op::V_ASHRREV_I32, top, {I(31), T(0, Part::Hi)}) : inst(Op::V_MOV_B32, top, {I(0)}));
  Ref c = S(2);
  if (f.vmadMode == Mode::NegProduct) {
    for (Ref x : {T(0, Part::Lo), T(0, Part::Hi)})
      r.seq.push_back(inst(Op::V_NOT_B32, x, {x}));
    if (wide)
      r.seq.push_back(inst(Op::V_NOT_B32, top, {top}));
    how += ", complemented";
  } else if (f.vmadMode == Mode::NegC) {
    r.seq.push_back(inst(Op::V_NOT_B32, T(6), {S(2)}));
    c = T(6);
    how += ", c complemented";
  }
  Ref cFill = I(0);
  if (signedFinal) {
    r.seq.push_back(inst(Op::V_ASHRREV_I32, T(7), {I(31), c}));
    cFill = T(7);
  }
  r.seq.push_back(inst(Op::V_ADD_CO_U32, T(sum, Part::Lo), {T(0, Part::Lo), c}));
  r.seq.push_back(inst(Op::V_ADDC_CO_U32, T(sum, Part::Hi), {T(0, Part::Hi), cFill, VCC()}));
  if (wide)
    r.seq.push_back(inst(Op::V_ADDC_CO_U32, top, {top, cFill, VCC()}));
  if (f.vmadMode != Mode::Plain) { // + 1
    r.seq.push_back(inst(Op::V_ADD_CO_U32, T(sum, Part::Lo), {I(1), T(sum, Part::Lo)}));
    r.seq.push_back(inst(Op::V_ADDC_CO_U32, T(sum, Part::Hi), {T(sum, Part::Hi), I(0), VCC()}));
    if (wide)
      r.seq.push_back(inst(Op::V_ADDC_CO_U32, top, {top, I(0), VCC()}));
    how += ", + 1 by a carry chain";
  }
  if (f.vmadShift) {
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(2, Part::Lo), {T(4, Part::Hi), T(4, Part::Lo), I(f.vmadShift)}));
    r.seq.push_back(inst(Op::V_ALIGNBIT_B32, T(2, Part::Hi), {top, T(4, Part::Hi), I(f.vmadShift)}));
    how += ", scaled by v_alignbit_b32";
  }
  if (f.saturate && !signedFinal) { // above 2^32 - 1: all ones
    r.seq.push_back(inst(Op::V_CMP_EQ_U32, O(VCC()), {O(I(0)), O(T(2, Part::Hi))}));
    r.seq.push_back(inst(Op::V_CNDMASK_B32, D(), {I(0xffffffffu), T(2, Part::Lo), VCC()}));
    how += ", clamped by the high dword";
  } else {
    saturateAndCombine(r, f, T(2, Part::Lo), how);
  }
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
// operation (d and c unsigned). Inputs of one type compare in 32 bits;
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
    const Op op2 = f.videoOp2 == VideoOp2::Add ? Op::V_ADD_U32 : f.videoOp2 == VideoOp2::Min ? Op::V_MIN_U32 : Op::V_MAX_U32;
    r.seq.push_back(inst(op2, D(), {t, S(2)}));
    r.restriction += ", then the secondary operation, unsigned";
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
