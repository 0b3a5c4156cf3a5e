#include "rules/rule_expr.hpp"

#include <cstdio>
#include <utility>

namespace p2a::rules {

using sem::BV;

struct Expr::Node {
  enum class Kind { Src, Literal, Named, Opaque, Binary, Zext, Bits, Ite };
  enum class Op { Add, Sub, And, Or, Xor, Shl, Lshr, Eq, Ne, Lt, Le, Gt, Ge, All, Min };
  Kind kind = Kind::Literal;
  Op op = Op::Add;           // Binary
  unsigned index = 0;        // Src
  uint64_t value = 0;        // Literal
  unsigned hexDigits = 0;    // Literal: 0 prints decimal (hex when large)
  unsigned hi = 0, lo = 0;   // Bits
  unsigned width = 0;        // Zext
  std::string name;          // Src, Named, Opaque
  Fn fn;                     // Opaque
  std::vector<Expr> args;
};

namespace {

using Node = Expr::Node;
using Kind = Node::Kind;
using Op = Node::Op;

Expr make(Node n) { return Expr(std::make_shared<const Node>(std::move(n))); }

Expr binary(Op op, const Expr &x, const Expr &y) {
  Node n;
  n.kind = Kind::Binary;
  n.op = op;
  n.args = {x, y};
  return make(std::move(n));
}

bool isLiteral(const Expr &e) { return e.node().kind == Kind::Literal; }

// The values of two operands of one operation, a literal made with the width
// (and Z3 context) of the other side, which is evaluated first.
std::pair<BV, BV> operands(const Expr &x, const Expr &y, const std::vector<BV> &srcs) {
  if (isLiteral(x) && isLiteral(y))
    throw std::logic_error("rule expression: both operands of an operation are literals (" + x.text() + ", " +
                           y.text() + "), so neither gives the width");
  if (isLiteral(x)) {
    BV r = y.eval(srcs);
    return {r.lit(x.node().value), r};
  }
  if (isLiteral(y)) {
    BV l = x.eval(srcs);
    return {l, l.lit(y.node().value)};
  }
  BV l = x.eval(srcs);
  return {l, y.eval(srcs)};
}

BV apply(Op op, const BV &l, const BV &r) {
  switch (op) {
  case Op::Add: return l + r;
  case Op::Sub: return l - r;
  case Op::And: return l & r;
  case Op::Or: return l | r;
  case Op::Xor: return l ^ r;
  case Op::Shl: return l.shl(r);
  case Op::Lshr: return l.lshr(r);
  case Op::Eq: return l.eq(r);
  case Op::Ne: return l.ne(r);
  case Op::Lt: return l.ult(r);
  case Op::Le: return l.ule(r);
  case Op::Gt: return r.ult(l);
  case Op::Ge: return r.ule(l);
  case Op::All:
    if (l.width() != 1 || r.width() != 1)
      throw std::logic_error("rule expression: && joins conditions (1-bit values) only");
    return l & r;
  case Op::Min: return l.umin(r);
  }
  throw std::logic_error("rule expression: unknown operation");
}

// Printing precedence, loosest first. Where readers' conventions differ the
// text is parenthesized even if C's precedence would not need it: the
// bitwise operands of a comparison (C and mathematics disagree on
// `c & 31 != 0`), mixed bitwise operations, and any compound operand of a
// shift. A comparison is never an operand of another unparenthesized.
enum Prec { Conj, Cond, Cmp, Or, Xor, And, Shift, Add, Atom };

Prec precOf(const Node &n) {
  if (n.kind == Kind::Ite)
    return Cond;
  if (n.kind != Kind::Binary)
    return Atom;
  switch (n.op) {
  case Op::Add:
  case Op::Sub: return Add;
  case Op::And: return And;
  case Op::Or: return Or;
  case Op::Xor: return Xor;
  case Op::Shl:
  case Op::Lshr: return Shift;
  case Op::Eq:
  case Op::Ne:
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge: return Cmp;
  case Op::All: return Conj;
  case Op::Min: return Atom;
  }
  return Atom;
}

const char *infix(Op op) {
  switch (op) {
  case Op::Add: return " + ";
  case Op::Sub: return " - ";
  case Op::And: return " & ";
  case Op::Or: return " | ";
  case Op::Xor: return " ^ ";
  case Op::Shl: return " << ";
  case Op::Lshr: return " >> ";
  case Op::Eq: return " == ";
  case Op::Ne: return " != ";
  case Op::Lt: return " < ";
  case Op::Le: return " <= ";
  case Op::Gt: return " > ";
  case Op::Ge: return " >= ";
  case Op::All: return ", ";
  case Op::Min: break;
  }
  return " ? ";
}

std::string print(const Expr &e, Prec context);

std::string render(const Node &n) {
  switch (n.kind) {
  case Kind::Src:
  case Kind::Named:
  case Kind::Opaque: return n.name;
  case Kind::Literal: {
    char buf[32];
    if (n.hexDigits || n.value >= 0x10000)
      std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(n.hexDigits),
                    static_cast<unsigned long long>(n.value));
    else
      std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n.value));
    return buf;
  }
  case Kind::Zext: return "zext" + std::to_string(n.width) + "(" + print(n.args[0], Cond) + ")";
  case Kind::Bits:
    return print(n.args[0], Atom) + "[" + std::to_string(n.hi) + ":" + std::to_string(n.lo) + "]";
  case Kind::Ite: return print(n.args[0], Cmp) + " ? " + print(n.args[1], Cmp) + " : " + print(n.args[2], Cond);
  case Kind::Binary: break;
  }
  const Expr &x = n.args[0], &y = n.args[1];
  const Prec p = precOf(n);
  switch (p) {
  case Atom: // min, the one binary operation printed as a call
    return "min(" + print(x, Cond) + ", " + print(y, Cond) + ")";
  case Conj: return print(x, Conj) + infix(n.op) + print(y, Cond);
  case Cmp: return print(x, Shift) + infix(n.op) + print(y, Shift);
  case Or:
  case Xor:
  case And: { // a chain of one bitwise operation reads plainly; mixed ones get parentheses
    const bool chain = x.node().kind == Kind::Binary && x.node().op == n.op;
    return print(x, chain ? p : Shift) + infix(n.op) + print(y, Shift);
  }
  case Shift: return print(x, Atom) + infix(n.op) + print(y, Atom);
  default: // + and -, left-associative: the right operand binds tighter
    return print(x, p) + infix(n.op) + print(y, Atom);
  }
}

std::string print(const Expr &e, Prec context) {
  std::string s = render(e.node());
  return precOf(e.node()) < context ? "(" + s + ")" : s;
}

} // namespace

Expr Expr::literal(uint64_t value, unsigned hexDigits) {
  Node n;
  n.kind = Kind::Literal;
  n.value = value;
  n.hexDigits = hexDigits;
  return make(std::move(n));
}

BV Expr::eval(const std::vector<BV> &srcs) const {
  const Node &n = *node_;
  switch (n.kind) {
  case Kind::Src: return srcs.at(n.index);
  case Kind::Literal:
    throw std::logic_error("rule expression: the literal " + text() + " has no width of its own");
  case Kind::Named: return n.args[0].eval(srcs);
  case Kind::Opaque: return n.fn(srcs);
  case Kind::Binary: {
    auto [l, r] = operands(n.args[0], n.args[1], srcs);
    return apply(n.op, l, r);
  }
  case Kind::Zext: return n.args[0].eval(srcs).zext(n.width);
  case Kind::Bits: return n.args[0].eval(srcs).extract(n.hi, n.lo);
  case Kind::Ite: {
    BV cond = n.args[0].eval(srcs);
    auto [then, otherwise] = operands(n.args[1], n.args[2], srcs);
    return BV::ite(cond, then, otherwise);
  }
  }
  throw std::logic_error("rule expression: unknown node");
}

std::string Expr::text() const { return print(*this, Conj); }

void Expr::forEachSource(const std::function<void(unsigned index, const std::string &name)> &visit) const {
  if (node_->kind == Kind::Src)
    visit(node_->index, node_->name);
  if (node_->kind == Kind::Opaque)
    return;
  for (const Expr &a : node_->args)
    a.forEachSource(visit);
}

Expr src(unsigned index, std::string name) {
  Node n;
  n.kind = Kind::Src;
  n.index = index;
  n.name = std::move(name);
  return make(std::move(n));
}

Expr named(std::string name, Expr value) {
  Node n;
  n.kind = Kind::Named;
  n.name = std::move(name);
  n.args = {std::move(value)};
  return make(std::move(n));
}

Expr opaque(std::string name, Expr::Fn fn) {
  Node n;
  n.kind = Kind::Opaque;
  n.name = std::move(name);
  n.fn = std::move(fn);
  return make(std::move(n));
}

Expr operator+(const Expr &x, const Expr &y) { return binary(Op::Add, x, y); }
Expr operator-(const Expr &x, const Expr &y) { return binary(Op::Sub, x, y); }
Expr operator&(const Expr &x, const Expr &y) { return binary(Op::And, x, y); }
Expr operator|(const Expr &x, const Expr &y) { return binary(Op::Or, x, y); }
Expr operator^(const Expr &x, const Expr &y) { return binary(Op::Xor, x, y); }
Expr operator<<(const Expr &x, const Expr &amount) { return binary(Op::Shl, x, amount); }
Expr operator>>(const Expr &x, const Expr &amount) { return binary(Op::Lshr, x, amount); }
Expr operator==(const Expr &x, const Expr &y) { return binary(Op::Eq, x, y); }
Expr operator!=(const Expr &x, const Expr &y) { return binary(Op::Ne, x, y); }
Expr operator<(const Expr &x, const Expr &y) { return binary(Op::Lt, x, y); }
Expr operator<=(const Expr &x, const Expr &y) { return binary(Op::Le, x, y); }
Expr operator>(const Expr &x, const Expr &y) { return binary(Op::Gt, x, y); }
Expr operator>=(const Expr &x, const Expr &y) { return binary(Op::Ge, x, y); }
Expr operator&&(const Expr &x, const Expr &y) { return binary(Op::All, x, y); }
Expr min(const Expr &x, const Expr &y) { return binary(Op::Min, x, y); }

Expr zext(const Expr &x, unsigned width) {
  Node n;
  n.kind = Kind::Zext;
  n.width = width;
  n.args = {x};
  return make(std::move(n));
}

Expr bits(const Expr &x, unsigned hi, unsigned lo) {
  Node n;
  n.kind = Kind::Bits;
  n.hi = hi;
  n.lo = lo;
  n.args = {x};
  return make(std::move(n));
}

Expr ite(const Expr &cond, const Expr &then, const Expr &otherwise) {
  Node n;
  n.kind = Kind::Ite;
  n.args = {cond, then, otherwise};
  return make(std::move(n));
}

} // namespace p2a::rules
