// Value constraints and immediate functions of rules, each written once: an
// Expr over the PTX source operands both evaluates on BVs (concrete when the
// selector matches an instruction, symbolic in the proofs) and prints itself
// for the rule table, so the text cannot drift from the code.
//
//   const Expr c = src(2, "c");
//   when((c & 31) != 0)        // prints "(c & 31) != 0"
//   32 - (c & 31)              // an ImmFn; prints "32 - (c & 31)"
//   when(0 < len && pos + len < 32)  // prints "0 < len, pos + len < 32"
//
// Arithmetic is modular and comparisons, min and >> are unsigned, as the
// BV operations they stand for. A literal has no width of its own: it takes
// the width of the other operand of the operation it appears in.
#pragma once

#include "semantics/bitvec.hpp"

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace p2a::rules {

class Expr {
public:
  using Fn = std::function<sem::BV(const std::vector<sem::BV> &srcs)>;
  struct Node; // rule_expr.cpp

  // An integer literal (printed in decimal, large values in hex).
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Expr(T value) : Expr(literal(static_cast<uint64_t>(value), 0)) {
    if constexpr (std::signed_integral<T>)
      if (value < 0)
        throw std::logic_error("rule expression: negative literal");
  }
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

  // A literal printed in hex with at least `digits` digits (lop3's 0x96).
  static Expr literal(uint64_t value, unsigned hexDigits);

  sem::BV eval(const std::vector<sem::BV> &srcs) const;
  std::string text() const;
  // The source leaves it reads, with the names they print as (not those an
  // opaque function reads: its name is all it shows).
  void forEachSource(const std::function<void(unsigned index, const std::string &name)> &visit) const;

  const Node &node() const { return *node_; }

private:
  std::shared_ptr<const Node> node_;
};

// PTX source operand `index`, printed as `name` (the operand's name in the
// PTX ISA: a, b, c, pos, len, immLut, ...).
Expr src(unsigned index, std::string name);
// A sub-expression that prints as `name` and evaluates `value`: bfe.u32's
// `pos` is low8(pos) -- the 8 bits PTX reads.
Expr named(std::string name, Expr value);
// Escape hatch for a function no formula would show readably (a byte
// permutation's selector, constant folding through the PTX semantics): it
// prints `name` and calls `fn`. Each use says why.
Expr opaque(std::string name, Expr::Fn fn);

Expr operator+(const Expr &x, const Expr &y);
Expr operator-(const Expr &x, const Expr &y);
Expr operator&(const Expr &x, const Expr &y);
Expr operator|(const Expr &x, const Expr &y);
Expr operator^(const Expr &x, const Expr &y);
Expr operator<<(const Expr &x, const Expr &amount); // an amount >= the width gives 0
Expr operator>>(const Expr &x, const Expr &amount); // logical
Expr operator==(const Expr &x, const Expr &y);
Expr operator!=(const Expr &x, const Expr &y);
Expr operator<(const Expr &x, const Expr &y);
Expr operator<=(const Expr &x, const Expr &y);
Expr operator>(const Expr &x, const Expr &y);
Expr operator>=(const Expr &x, const Expr &y);
// Both conditions hold; prints "x, y" as the rule table lists conditions.
Expr operator&&(const Expr &x, const Expr &y);

Expr min(const Expr &x, const Expr &y);                  // unsigned
Expr zext(const Expr &x, unsigned width);                // prints zext64(x)
Expr bits(const Expr &x, unsigned hi, unsigned lo);      // prints x[hi:lo]
Expr ite(const Expr &cond, const Expr &then, const Expr &otherwise); // prints cond ? then : otherwise

} // namespace p2a::rules
