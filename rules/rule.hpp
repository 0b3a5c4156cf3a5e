// A rule is data (in the spirit of Cranelift's ISLE lowering rules): a PTX
// form pattern, operand constraints, a target predicate, an AMDGPU template
// sequence, a priority, the restriction it handles in words, and -- through
// ptx_semantics and amd_ops -- a bit-vector meaning on both sides that
// `rules --verify` proves equal. Cost is not written here: it is read from
// LLVM's scheduling model for each target (see cost_model.hpp).
#pragma once

#include "rules/rule_expr.hpp"
#include "semantics/amd_ops.hpp"
#include "semantics/bitvec.hpp"
#include "ptx/ptx_ir.hpp"

#include <llvm/ADT/iterator.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::rules {

// Which part of a (possibly 64-bit) value an operand names.
enum class Part : unsigned char { Whole, Lo, Hi };

// A reference to a 32-bit (or 64-bit / mask) value inside a template.
struct Ref {
  enum class Kind { None, Dst, Src, Temp, Imm, ImmFn, Vcc, Exec, Scc };
  Kind kind = Kind::None;
  unsigned index = 0; // Dst/Src/Temp/ImmFn index
  Part part = Part::Whole;
  uint64_t imm = 0;   // Kind::Imm
};

// A template operand: one Ref, or a register pair {lo, hi} built from two
// 32-bit refs (the rule then requires hi to live in the VGPR after lo, lo even).
struct TOperand {
  Ref lo;
  std::optional<Ref> hi;
  bool isPair() const { return hi.has_value(); }
};

struct TInst {
  amd::Op op;
  TOperand dst;
  std::vector<TOperand> srcs;
};

enum class TempKind { V32, V64, Mask, S32 };

// An immediate computed from the PTX operands (e.g. 32 - (c & 31)); used both
// concretely when emitting and symbolically in proofs. One expression gives
// its value and the text the rule table shows.
class ImmFn {
public:
  ImmFn(Expr value) : value_(std::move(value)) {} // implicit: r.immFns = {32 - (c & 31)}
  sem::BV value(const std::vector<sem::BV> &srcs) const { return value_.eval(srcs); } // 32 bits
  std::string text() const { return value_.text(); }
  const Expr &expr() const { return value_; }

private:
  Expr value_;
};

enum class OperandReq { Any, Reg, Imm };

// A condition on the (immediate) source operands, as a 1-bit BV; written
// with dsl::when, one expression for its meaning and its text.
struct ValueConstraint {
  Expr condition; // (c & 31) != 0
  sem::BV holds(const std::vector<sem::BV> &srcs) const { return condition.eval(srcs); }
  std::string text() const { return condition.text(); }
};

struct TargetPredicate {
  std::string text; // "all", "gfx10+", "gfx900", ...
  std::function<bool(const targets::TargetInfo &)> holds;
};

struct Rule {
  std::string name;                 // "shf.l.wrap.b32/imm"
  ptx::Form form;
  std::vector<OperandReq> srcReqs;  // one per PTX source
  std::vector<std::pair<unsigned, unsigned>> sameReg; // sources that must be one register
  std::vector<std::pair<unsigned, unsigned>> distinctReg; // sources that must differ (pair operands)
  // The destination is never one of the register sources (d != a): the
  // selector refuses the rule otherwise, and the proof needs no aliasing
  // case. For fused forms whose template reads both halves of a source
  // after writing a half of d (the fusion never names d as a source).
  bool dstDistinct = false;
  // The same, only on a target with gfx11's MAD forwarding bug
  // (TargetInfo::mad64_overlap_hazard): a v_mad_u64_u32 writing d must not
  // read a source d may be. A "-via-temp" twin serves d == a there.
  bool dstDistinctOnMadHazard = false;
  bool dstDistinctOn(const targets::TargetInfo &t) const;
  std::vector<ValueConstraint> constraints;
  TargetPredicate target;
  std::vector<TempKind> temps;
  std::vector<ImmFn> immFns;
  std::vector<TInst> seq;
  int priority = 0;                 // among equal costs, higher wins
  std::string restriction;          // the AMD restriction this rule works around
  bool dstIsSink = false;           // lop3.{and,or} with d = _ (d lives in a temp)
  // Proof by cases (optional): predicates over the sources and `written`, the
  // value each template instruction wrote, in order. The verifier checks that
  // their disjunction covers every allowed input, then proves each case with
  // its own solver (a case may fix values that make the rest fold).
  std::function<std::vector<sem::BV>(const std::vector<sem::BV> &srcs, const std::vector<sem::BV> &written)>
      proofCases;

  // Prove over the integers (integer_proof.hpp) instead of by bit-blasting:
  // for products wider than 32 bits built from 32-bit partial products,
  // which Z3 cannot compare as circuits in reasonable time.
  bool proveInIntegers = false;
  // Prove for an active lane only (EXEC's bit a constant 1): allowed where
  // every result is a VGPR value and no source a lane mask (the verifier
  // checks), so that carry and borrow terms are the plain ones the PTX
  // semantics builds. Opt-in: it makes the division rules' proofs instant;
  // the other rules keep the symbolic bit their proofs were tuned with.
  bool activeLaneProof = false;

  // A scalar rule computes a uniform value (one for the whole wave) with the
  // scalar ALU: its destination, register sources and temporaries are SGPRs.
  // The selector never picks it for a PTX instruction on its own; the kernel
  // lowering asks for it where a register is uniform (kernel/analysis/uniform_values.hpp,
  // lowering/statement_lowering.cpp).
  // Its proof claims the result for every lane, whatever EXEC holds.
  bool scalar = false;

  // A proved rule reused as a lemma (optional): the template's first
  // `length` instructions are rule `rule`'s template over the same (leading) sources,
  // with its destination renamed to temporary `into`. The proof takes them
  // as computing that rule's PTX meaning (checked: the instructions match,
  // and the lemma rule is proved on its own), so only the rest is compared
  // -- a signed 64-bit high product as the proved unsigned one plus sign
  // corrections. Concrete evaluation still runs every instruction.
  struct Lemma {
    std::string rule;
    unsigned length = 0;
    unsigned into = 0;
  };
  std::optional<Lemma> lemma;

  // The rule, by name, whose results this one's template computes too
  // (optional): a VOPD twin, which issues both halves of a 64-bit select at
  // once where that rule issues two. Its proof shows that the two templates
  // agree, in every scenario, and rests on that rule's own proof of the PTX
  // meaning (required to hold on the same target). The twins' shared prefix
  // builds the same terms on both sides, so the comparison is immediate
  // where proving the meaning again took seconds (bfe.s64/sar-select-vopd:
  // 7.8 s of rules --verify's CPU).
  std::string sameResultAs;

  // The proof replaces the signed and the unsigned 128-bit product of the
  // two 64-bit sources by fresh values related by the two's-complement
  // identity sext(a)*sext(b) = zext(a)*zext(b) - ((a<0 ? b : 0) << 64)
  // - ((b<0 ? a : 0) << 64) mod 2^128 (itself proved over the integers,
  // verify::signedProductIdentity), so what is left is linear and
  // bit-blasts at once. For the signed high product, and for the carry
  // forms built on a high product (mad.hi.cc.u64, madc.hi.s64), whose
  // template takes the product from a lemma and whose PTX meaning reads
  // the same product term. Of 32-bit sources (vmad) the 64-bit products are
  // fresh values with no relation: both sides read the same product terms.
  bool opaqueProducts = false;

  // Where the rule lives in the table (set when its family is built;
  // inRuleTable tells a table rule from a copy that carries the same).
  unsigned family = 0, familyIndex = 0;

  // Does the rule serve target t: its target predicate holds and every AMD
  // instruction it emits exists there?
  bool servesTarget(const targets::TargetInfo &t) const;

  std::string constraintText() const;
  std::string templateText(const targets::TargetInfo &t) const; // symbolic listing
};

// Source i's name as the PTX ISA writes the form's operands (a, b, c; pos and
// len for bfe/bfi, immLut for lop3): the operand column and the expressions
// of constraints and immediates both use it.
const char *sourceName(unsigned i, const ptx::Form &f);

// The table is built a family at a time, on first use (rule_table.cpp): a
// translation builds only the families of the opcodes it meets, so a small
// file does not pay for 948 lop3 and 598 video rules it never looks at.
// A built rule never moves.

// The rules of a table, as `const Rule &`, in table order.
class RuleList {
public:
  using iterator = llvm::pointee_iterator<std::vector<const Rule *>::const_iterator>;
  explicit RuleList(const std::vector<const Rule *> &rules) : rules_(&rules) {}
  iterator begin() const { return iterator(rules_->begin()); }
  iterator end() const { return iterator(rules_->end()); }
  size_t size() const { return rules_->size(); }
  bool empty() const { return rules_->empty(); }
  const Rule &operator[](size_t i) const { return *(*rules_)[i]; }
  const Rule &front() const { return *rules_->front(); }

private:
  const std::vector<const Rule *> *rules_;
};

// The whole table (every family built). Ordered by family, then form, then priority.
RuleList ruleTable();

// The rules of one form, in table order (an index per opcode and boolean
// combiner, built with the families it needs on its first lookup;
// selection looks up each instruction's form here instead of scanning the
// table).
const std::vector<const Rule *> &rulesForForm(const ptx::Form &form);

// The families, in table order: their names, and the rules of one (built
// on first use). Rule::family indexes these.
inline constexpr unsigned kRuleFamilyCount = 16; // (rule_table.cpp's list has exactly these)
const char *ruleFamilyName(unsigned family);
const std::vector<Rule> &ruleFamily(unsigned family);
// The opcodes family f declares it serves: rulesForForm builds f for these
// only (rules_test checks that every rule of f has one of them). lop3's
// families also name their boolean combiner (rules_test's check that each
// form's lookup equals the table's rules of that form catches a rule in
// the wrong one).
bool familyServesOpcode(unsigned family, ptx::Opcode op);

// Is r a rule of the table itself (not a copy of one)?
bool inRuleTable(const Rule &r);

// Can registers lo and hi form an aligned pair (lo even, hi = lo + 1) beside
// the pairs already required? Not if they are one register, or either of
// them is already half of another pair. The selector asks it of virtual
// registers, the verifier of a template's operands: one rule for both.
template <class Reg>
bool pairConsistent(const std::vector<std::pair<Reg, Reg>> &pairs, const Reg &lo, const Reg &hi) {
  if (lo == hi)
    return false;
  for (const auto &[l, h] : pairs) {
    if (l == lo && h == hi)
      continue;
    if (l == lo || h == hi || l == hi || h == lo)
      return false;
  }
  return true;
}

} // namespace p2a::rules
