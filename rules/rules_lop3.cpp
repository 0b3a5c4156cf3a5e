// Rules for lop3.b32 and lop3.{and,or}.b32 (PTX ISA 9.7.8.6). No AMD target in
// LLVM 19 has a 3-input LUT instruction (v_bitop3_b32 is gfx950/gfx1250), so
// each of the 256 LUTs maps to the minimal sequence of the target's logic
// instructions found by rules/lop3_search.cpp (exhaustive; committed as
// lop3_table.inc). Targets differ in what they have: v_xnor_b32 is missing on
// gfx900, v_xor3_b32 exists from gfx10 on -- hence three target classes.
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

#include <array>
#include <cstdio>

namespace p2a::rules {

using namespace dsl;

namespace {

enum class Lop3Op { And, Or, Xor, Xnor, Not, Bfi, AndOr, Or3, Xor3 };
enum Lop3Operand { A, B, C, ZERO, ONES, T0, T1, T2, T3, NONE };

struct Lop3Step {
  Lop3Op op;
  Lop3Operand s0, s1, s2;
};
struct Lop3Entry {
  int cls;
  unsigned lut;
  unsigned steps;
  Lop3Step seq[4];
};

const Lop3Entry kLop3Table[] = {
#include "rules/lop3_table.inc"
};

Op opOf(Lop3Op o) {
  switch (o) {
  case Lop3Op::And: return Op::V_AND_B32;
  case Lop3Op::Or: return Op::V_OR_B32;
  case Lop3Op::Xor: return Op::V_XOR_B32;
  case Lop3Op::Xnor: return Op::V_XNOR_B32;
  case Lop3Op::Not: return Op::V_NOT_B32;
  case Lop3Op::Bfi: return Op::V_BFI_B32;
  case Lop3Op::AndOr: return Op::V_AND_OR_B32;
  case Lop3Op::Or3: return Op::V_OR3_B32;
  case Lop3Op::Xor3: return Op::V_XOR3_B32;
  }
  return Op::V_MOV_B32;
}

unsigned arity(Lop3Op o) {
  switch (o) {
  case Lop3Op::Not: return 1;
  case Lop3Op::Bfi:
  case Lop3Op::AndOr:
  case Lop3Op::Or3:
  case Lop3Op::Xor3: return 3;
  default: return 2;
  }
}

Ref refOf(Lop3Operand o) {
  switch (o) {
  case A: return S(0);
  case B: return S(1);
  case C: return S(2);
  case ZERO: return I(0);
  case ONES: return I(0xffffffffu);
  case T0: return T(0);
  case T1: return T(1);
  case T2: return T(2);
  case T3: return T(3);
  case NONE: break;
  }
  return Ref{};
}

// The 0-step LUTs are one of the inputs or a constant.
Ref trivialRef(unsigned lut) {
  switch (lut) {
  case 0x00: return I(0);
  case 0xff: return I(0xffffffffu);
  case 0xf0: return S(0);
  case 0xcc: return S(1);
  default: return S(2); // 0xaa
  }
}

// Sequence computing the LUT into `result` using temps starting at 0.
std::vector<TInst> lutSequence(const Lop3Entry &e, Ref result, unsigned &tempsUsed) {
  std::vector<TInst> seq;
  if (e.steps == 0) {
    seq.push_back(inst(Op::V_MOV_B32, result, {trivialRef(e.lut)}));
    tempsUsed = 0;
    return seq;
  }
  for (unsigned i = 0; i < e.steps; ++i) {
    const Lop3Step &st = e.seq[i];
    Ref dst = i + 1 == e.steps ? result : T(i);
    std::vector<TOperand> srcs;
    Lop3Operand ops[3] = {st.s0, st.s1, st.s2};
    for (unsigned k = 0; k < arity(st.op); ++k)
      srcs.push_back(O(refOf(ops[k])));
    seq.push_back(inst(opOf(st.op), O(dst), srcs));
  }
  tempsUsed = e.steps - 1;
  return seq;
}

bool sameSequence(const Lop3Entry &x, const Lop3Entry &y) {
  if (x.steps != y.steps)
    return false;
  for (unsigned i = 0; i < x.steps; ++i) {
    const Lop3Step &a = x.seq[i], &b = y.seq[i];
    if (a.op != b.op || a.s0 != b.s0 || a.s1 != b.s1 || a.s2 != b.s2)
      return false;
  }
  return true;
}

// Target class by available logic instructions: 0 = no v_xnor_b32 (gfx900),
// 1 = v_xnor_b32 but no v_xor3_b32 (gfx90a, gfx942), 2 = both (gfx10+).
int classOf(const targets::TargetInfo &t) { return !t.has_xnor ? 0 : !t.has_xor3 ? 1 : 2; }

const char *kClassNames[3] = {"gfx900", "gfx90a gfx942", "gfx10+"};
const char *kClassTags[3] = {"gfx900", "cdna", "gfx10"};

TargetPredicate classRange(int first, int last) {
  std::string text;
  if (first == 0 && last == 2)
    text = "all";
  else
    for (int c = first; c <= last; ++c)
      text += std::string(text.empty() ? "" : " ") + kClassNames[c];
  return {text, [first, last](const targets::TargetInfo &t) {
            int c = classOf(t);
            return c >= first && c <= last;
          }};
}

std::string classSuffix(int first, int last) {
  if (first == 0 && last == 2)
    return "";
  std::string s = "@";
  for (int c = first; c <= last; ++c)
    s += std::string(c == first ? "" : "+") + kClassTags[c];
  return s;
}

std::string hex2(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", v);
  return buf;
}

// The rules of lop3.b32 (boolop None) or of lop3.{and,or}.b32: families of
// their own, so that a module with plain lop3 only (nvcc's output) builds
// a third of the rules.
void addLop3RulesOf(ptx::BoolOp boolop, std::vector<Rule> &out) {
  const Lop3Entry *byClass[3][256] = {};
  for (const Lop3Entry &e : kLop3Table)
    byClass[e.cls][e.lut] = &e;

  ptx::Form form{ptx::Opcode::Lop3, ptx::TypeClass::B, 32};
  form.boolop = boolop;
  for (unsigned lut = 0; lut < 256; ++lut) {
    // Group consecutive classes with the same sequence into one rule.
    int cls = 0;
    while (cls < 3) {
      int last = cls;
      while (last + 1 < 3 && sameSequence(*byClass[cls][lut], *byClass[last + 1][lut]))
        ++last;
      const Lop3Entry &e = *byClass[cls][lut];
      Rule r;
      r.form = form;
      r.name = form.name() + "/" + hex2(lut) + classSuffix(cls, last);
      r.srcReqs = {OperandReq::Any, OperandReq::Any, OperandReq::Any, OperandReq::Imm};
      if (boolop != ptx::BoolOp::None)
        r.srcReqs.push_back(OperandReq::Reg);
      r.constraints = {when(src(3, "immLut") == Expr::literal(lut, 2))};
      r.target = classRange(cls, last);
      unsigned temps = 0;
      r.seq = lutSequence(e, D(0), temps);
      r.temps.assign(temps, TempKind::V32);
      if (boolop != ptx::BoolOp::None) {
        // p = (d != 0) op q; the compare leaves inactive lanes 0.
        r.seq.push_back(inst(Op::V_CMP_NE_U32, VCC(), {I(0), D(0)}));
        r.seq.push_back(inst(boolop == ptx::BoolOp::And ? Op::S_AND_MASK : Op::S_OR_MASK, D(1), {VCC(), S(4)}));
      }
      r.restriction = std::string("no 3-input LUT instruction: minimal ") + std::to_string(e.steps) +
                      "-instruction sequence from the exhaustive search" +
                      (boolop != ptx::BoolOp::None ? "; the predicate is v_cmp_ne + SALU on the lane mask" : "");
      out.push_back(std::move(r));
      cls = last + 1;
    }
  }
}

} // namespace

void addLop3Rules(std::vector<Rule> &out) { addLop3RulesOf(ptx::BoolOp::None, out); }
void addLop3AndRules(std::vector<Rule> &out) { addLop3RulesOf(ptx::BoolOp::And, out); }
void addLop3OrRules(std::vector<Rule> &out) { addLop3RulesOf(ptx::BoolOp::Or, out); }

} // namespace p2a::rules
