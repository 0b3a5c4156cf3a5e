// Small vocabulary for writing rules as data (rules_*.cpp).
#pragma once

#include "targets/target_info.hpp"
#include "rules/rule.hpp"

namespace p2a::rules::dsl {

using amd::Op;
using sem::BV;

// Operand requirements, as the family files spell them in a rule's list.
inline constexpr OperandReq R = OperandReq::Reg;
inline constexpr OperandReq A = OperandReq::Any;
inline constexpr OperandReq Im = OperandReq::Imm;

inline Ref D(unsigned i = 0, Part p = Part::Whole) { return Ref{Ref::Kind::Dst, i, p, 0}; }
inline Ref S(unsigned i, Part p = Part::Whole) { return Ref{Ref::Kind::Src, i, p, 0}; }
inline Ref T(unsigned i, Part p = Part::Whole) { return Ref{Ref::Kind::Temp, i, p, 0}; }
inline Ref I(uint64_t v) { return Ref{Ref::Kind::Imm, 0, Part::Whole, v}; }
inline Ref F(unsigned i) { return Ref{Ref::Kind::ImmFn, i, Part::Whole, 0}; }
inline Ref VCC() { return Ref{Ref::Kind::Vcc, 0, Part::Whole, 0}; }
inline Ref EXEC() { return Ref{Ref::Kind::Exec, 0, Part::Whole, 0}; }
inline Ref SCC() { return Ref{Ref::Kind::Scc, 0, Part::Whole, 0}; }
inline TOperand O(Ref r) { return TOperand{r, std::nullopt}; }
inline TOperand pair(Ref lo, Ref hi) { return TOperand{lo, hi}; }

inline TInst inst(Op op, Ref dst, std::initializer_list<Ref> srcs) {
  TInst t{op, O(dst), {}};
  for (const Ref &r : srcs)
    t.srcs.push_back(O(r));
  return t;
}
inline TInst inst(Op op, TOperand dst, std::vector<TOperand> srcs) { return TInst{op, dst, std::move(srcs)}; }

inline TargetPredicate allTargets() {
  return {"all", [](const targets::TargetInfo &) { return true; }};
}

// A rule for `f` named "<form>/<suffix>", serving all targets, with the
// given operand requirements; callers fill in the rest.
inline Rule makeRule(const ptx::Form &f, const std::string &suffix, std::vector<OperandReq> reqs) {
  Rule r;
  r.form = f;
  r.name = f.name() + "/" + suffix;
  r.srcReqs = std::move(reqs);
  r.target = allTargets();
  return r;
}

// A value constraint over PTX sources: when((c & 31) != 0).
inline ValueConstraint when(Expr condition) { return ValueConstraint{std::move(condition)}; }

} // namespace p2a::rules::dsl
