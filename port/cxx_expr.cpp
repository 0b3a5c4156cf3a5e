#include "port/cxx_expr.hpp"

#include <stdexcept>

namespace p2a::port {

using sem::BV;

std::string typeName(CxxType t) {
  if (t.width == 1)
    return "bool";
  return std::string(t.isSigned ? "int" : "uint") + std::to_string(t.width) + "_t";
}

namespace {

[[noreturn]] void badTypes(const char *what) { throw std::logic_error(std::string("port: ill-typed C++ ") + what); }

Expr make(CxxExpr e) { return std::make_shared<const CxxExpr>(std::move(e)); }

bool isComparison(CxxOp op) {
  return op == CxxOp::Eq || op == CxxOp::Ne || op == CxxOp::Lt || op == CxxOp::Le || op == CxxOp::Gt ||
         op == CxxOp::Ge;
}
bool isShift(CxxOp op) { return op == CxxOp::Shl || op == CxxOp::Shr; }

const char *spelling(CxxOp op) {
  switch (op) {
  case CxxOp::BitNot: return "~";
  case CxxOp::LogicalNot: return "!";
  case CxxOp::Negate: return "-";
  case CxxOp::And: return " & ";
  case CxxOp::Or: return " | ";
  case CxxOp::Xor: return " ^ ";
  case CxxOp::Add: return " + ";
  case CxxOp::Sub: return " - ";
  case CxxOp::Mul: return " * ";
  case CxxOp::Shl: return " << ";
  case CxxOp::Shr: return " >> ";
  case CxxOp::Eq: return " == ";
  case CxxOp::Ne: return " != ";
  case CxxOp::Lt: return " < ";
  case CxxOp::Le: return " <= ";
  case CxxOp::Gt: return " > ";
  case CxxOp::Ge: return " >= ";
  case CxxOp::LogicalAnd: return " && ";
  case CxxOp::LogicalOr: return " || ";
  }
  return "?";
}

// Integers narrower than int promote to int in C++ arithmetic; the port
// converts 16-bit values to 32 bits at its boundaries and never computes on them.
void requireArithmetic(CxxType t, const char *what) {
  if (t.width < 32)
    badTypes(what);
}

} // namespace

Expr var(const std::string &name, CxxType t) {
  CxxExpr e;
  e.kind = CxxExpr::Kind::Var;
  e.type = t;
  e.name = name;
  return make(std::move(e));
}

Expr constant(CxxType t, uint64_t v) {
  CxxExpr e;
  e.kind = CxxExpr::Kind::Const;
  e.type = t;
  e.value = v & sem::maskOf(t.width);
  return make(std::move(e));
}
Expr lit(CxxType t, uint64_t v) { return constant(t, v); }

Expr unary(CxxOp op, Expr a) {
  CxxExpr e;
  e.kind = CxxExpr::Kind::Unary;
  e.op = op;
  if (op == CxxOp::LogicalNot) {
    if (a->type != kBool)
      badTypes("!");
  } else if (op == CxxOp::BitNot || op == CxxOp::Negate) {
    requireArithmetic(a->type, "~ or -");
    if (a->type.isSigned)
      badTypes("signed ~ or -");
  } else {
    badTypes("unary operator");
  }
  e.type = a->type;
  e.args = {std::move(a)};
  return make(std::move(e));
}

namespace {

bool isConst(const Expr &e, uint64_t v) { return e->kind == CxxExpr::Kind::Const && e->value == v; }

// Identities that keep the printed C++ short (x | 0, x & ~0, 0 & x, ...).
// Sound by construction, and proved anyway: a site's proof evaluates the
// folded tree, which is what is printed.
Expr folded(CxxOp op, const Expr &a, const Expr &b) {
  if (a->type == kBool || a->type.isSigned || a->type != b->type)
    return nullptr;
  const uint64_t ones = sem::maskOf(a->type.width);
  switch (op) {
  case CxxOp::Or:
  case CxxOp::Xor:
  case CxxOp::Add:
    return isConst(a, 0) ? b : isConst(b, 0) ? a : nullptr;
  case CxxOp::Sub: return isConst(b, 0) ? a : nullptr;
  case CxxOp::And:
    return isConst(a, 0) ? a : isConst(b, 0) ? b : isConst(a, ones) ? b : isConst(b, ones) ? a : nullptr;
  default: return nullptr;
  }
}

} // namespace

Expr binary(CxxOp op, Expr a, Expr b) {
  if (Expr f = folded(op, a, b))
    return f;
  CxxExpr e;
  e.kind = CxxExpr::Kind::Binary;
  e.op = op;
  if (op == CxxOp::LogicalAnd || op == CxxOp::LogicalOr) {
    if (a->type != kBool || b->type != kBool)
      badTypes("&& or ||");
    e.type = kBool;
  } else if (isShift(op)) {
    requireArithmetic(a->type, "shift");
    requireArithmetic(b->type, "shift amount");
    if (b->type.isSigned || (op == CxxOp::Shl && a->type.isSigned))
      badTypes("signed shift");
    e.type = a->type;
  } else if (isComparison(op)) {
    if (a->type != b->type || (a->type == kBool && op != CxxOp::Eq && op != CxxOp::Ne))
      badTypes("comparison");
    if (a->type != kBool)
      requireArithmetic(a->type, "comparison");
    e.type = kBool;
  } else {
    if (a->type != b->type)
      badTypes("binary operator");
    if (a->type == kBool && (op == CxxOp::Xor || op == CxxOp::And || op == CxxOp::Or))
      badTypes("bitwise operator on bool");
    requireArithmetic(a->type, "arithmetic");
    // Signed overflow is undefined: the port computes in unsigned types.
    if (a->type.isSigned)
      badTypes("signed arithmetic");
    e.type = a->type;
  }
  e.args = {std::move(a), std::move(b)};
  return make(std::move(e));
}

Expr select(Expr cond, Expr a, Expr b) {
  if (cond->type != kBool || a->type != b->type)
    badTypes("?:");
  CxxExpr e;
  e.kind = CxxExpr::Kind::Select;
  e.type = a->type;
  e.args = {std::move(cond), std::move(a), std::move(b)};
  return make(std::move(e));
}

Expr convert(CxxType to, Expr a) {
  if (a->type == to)
    return a;
  CxxExpr e;
  e.kind = CxxExpr::Kind::Convert;
  e.type = to;
  e.args = {std::move(a)};
  return make(std::move(e));
}

Expr amdBuiltin(const std::string &name, amd::Op op, CxxType result, std::vector<Expr> args) {
  CxxExpr e;
  e.kind = CxxExpr::Kind::AmdBuiltin;
  e.type = result;
  e.name = name;
  e.amdOp = op;
  e.args = std::move(args);
  return make(std::move(e));
}

Expr generic(GenericBuiltin g, Expr a) {
  if (a->type != kU32)
    badTypes("builtin argument");
  CxxExpr e;
  e.kind = CxxExpr::Kind::Generic;
  e.type = kU32;
  e.generic = g;
  e.args = {std::move(a)};
  return make(std::move(e));
}

// A constant amount is masked here rather than in the text.
static Expr maskedAmount(const Expr &a, const Expr &n) {
  const uint64_t m = a->type.width - 1;
  return n->kind == CxxExpr::Kind::Const ? lit(n->type, n->value & m) : binary(CxxOp::And, n, lit(n->type, m));
}
Expr mulHigh64(Expr a, Expr b, bool isSigned) {
  if (a->type != kU64 || b->type != kU64)
    badTypes("64-bit multiply");
  CxxExpr e;
  e.kind = CxxExpr::Kind::MulHigh;
  e.type = kU64;
  e.value = isSigned;
  e.args = {std::move(a), std::move(b)};
  return make(std::move(e));
}

Expr shlMasked(Expr a, Expr n) { return binary(CxxOp::Shl, a, maskedAmount(a, n)); }
Expr shrMasked(Expr a, Expr n) { return binary(CxxOp::Shr, a, maskedAmount(a, n)); }

// ---- printing ----

namespace {

std::string constantText(CxxType t, uint64_t v) {
  if (t == kBool)
    return v ? "true" : "false";
  char buf[40];
  const bool hex = v > 64;
  if (t.width == 64)
    std::snprintf(buf, sizeof buf, hex ? "0x%llxull" : "%lluull", static_cast<unsigned long long>(v));
  else
    std::snprintf(buf, sizeof buf, hex ? "0x%llxu" : "%lluu", static_cast<unsigned long long>(v));
  std::string s = buf;
  // Signed constants are written as the unsigned pattern, converted.
  return t.isSigned ? "(" + typeName(t) + ")" + s : s;
}

const char *genericName(GenericBuiltin g) {
  switch (g) {
  case GenericBuiltin::Popcount: return "__builtin_popcount";
  case GenericBuiltin::BitReverse32: return "__builtin_bitreverse32";
  case GenericBuiltin::Clz: return "__builtin_clz";
  case GenericBuiltin::Ctz: return "__builtin_ctz";
  }
  return "?";
}

} // namespace

std::string print(const Expr &e) {
  switch (e->kind) {
  case CxxExpr::Kind::Var: return e->name;
  case CxxExpr::Kind::Const: return constantText(e->type, e->value);
  case CxxExpr::Kind::Unary: return spelling(e->op) + print(e->args[0]);
  case CxxExpr::Kind::Binary: return "(" + print(e->args[0]) + spelling(e->op) + print(e->args[1]) + ")";
  case CxxExpr::Kind::Select:
    return "(" + print(e->args[0]) + " ? " + print(e->args[1]) + " : " + print(e->args[2]) + ")";
  case CxxExpr::Kind::Convert: return "(" + typeName(e->type) + ")" + print(e->args[0]);
  case CxxExpr::Kind::AmdBuiltin: {
    std::string s = e->name + "(";
    for (size_t i = 0; i < e->args.size(); ++i)
      s += (i ? ", " : "") + print(e->args[i]);
    return s + ")";
  }
  case CxxExpr::Kind::MulHigh: {
    const std::string t = e->value ? "(__int128)(int64_t)" : "(unsigned __int128)";
    return "(uint64_t)((" + t + print(e->args[0]) + " * " + t + print(e->args[1]) + ") >> 64)";
  }
  case CxxExpr::Kind::Generic: {
    // popcount/clz/ctz return int; bitreverse32 returns unsigned int.
    const std::string call = std::string(genericName(e->generic)) + "(" + print(e->args[0]) + ")";
    return e->generic == GenericBuiltin::BitReverse32 ? call : "(uint32_t)" + call;
  }
  }
  return "?";
}

// ---- evaluation ----

namespace {

BV signFlip(const BV &v) { return v ^ v.lit(uint64_t(1) << (v.width() - 1)); }

BV resizeAmount(const BV &n, unsigned width) { return n.width() >= width ? n.trunc(width) : n.zext(width); }

// x when `e` is a 32-bit value x extended to 64 bits: (uint64_t)x for an
// unsigned x (isSigned = false), (uint64_t)(int64_t)x for a signed one.
const Expr *extendedFrom32(const Expr &e, bool &isSigned) {
  if (e->kind != CxxExpr::Kind::Convert || e->type.width != 64)
    return nullptr;
  const Expr &in = e->args[0];
  if (in->type == kU32) {
    isSigned = false;
    return &in;
  }
  if (in->type == kI64 && in->kind == CxxExpr::Kind::Convert && in->args[0]->type == kI32) {
    isSigned = true;
    return &in->args[0];
  }
  return nullptr;
}

void require(const EvalEnv &env, const BV &cond) {
  if (env.defined)
    env.defined->push_back(cond);
}

} // namespace

BV eval(const Expr &e, const EvalEnv &env) {
  switch (e->kind) {
  case CxxExpr::Kind::Var: {
    auto it = env.vars->find(e->name);
    if (it == env.vars->end())
      throw std::logic_error("port: C++ variable '" + e->name + "' has no value");
    if (it->second.width() != e->type.width)
      throw std::logic_error("port: C++ variable '" + e->name + "' has the wrong width");
    return it->second;
  }
  case CxxExpr::Kind::Const: return BV::constant(e->type.width, e->value);
  case CxxExpr::Kind::Unary: {
    const BV a = eval(e->args[0], env);
    return e->op == CxxOp::Negate ? a.lit(0) - a : ~a;
  }
  case CxxExpr::Kind::Binary: {
    const BV a = eval(e->args[0], env), b = eval(e->args[1], env);
    const bool sgn = e->args[0]->type.isSigned;
    switch (e->op) {
    case CxxOp::And:
    case CxxOp::LogicalAnd: return a & b;
    case CxxOp::Or:
    case CxxOp::LogicalOr: return a | b;
    case CxxOp::Xor: return a ^ b;
    case CxxOp::Add: return a + b;
    case CxxOp::Sub: return a - b;
    case CxxOp::Mul: {
      // The product term the PTX and AMD semantics use (sem::mulWide, the
      // full product of the extended operands), so that proofs compare like
      // terms rather than two multipliers: a 64-bit product of two extended
      // 32-bit values is that term, a 32-bit product its low half.
      bool sa = false, sb = false;
      const Expr *na = extendedFrom32(e->args[0], sa), *nb = extendedFrom32(e->args[1], sb);
      if (na && nb && sa == sb)
        return sem::mulWide(eval(*na, env), eval(*nb, env), sa);
      return sem::mulLow(a, b);
    }
    case CxxOp::Shl:
    case CxxOp::Shr: {
      // [expr.shift]: the amount must be below the promoted left operand's width.
      require(env, b.ult(b.lit(a.width())));
      const BV n = resizeAmount(b, a.width());
      return e->op == CxxOp::Shl ? a.shl(n) : sgn ? a.ashr(n) : a.lshr(n);
    }
    case CxxOp::Eq: return a.eq(b);
    case CxxOp::Ne: return a.ne(b);
    case CxxOp::Lt: return sgn ? signFlip(a).ult(signFlip(b)) : a.ult(b);
    case CxxOp::Le: return sgn ? signFlip(a).ule(signFlip(b)) : a.ule(b);
    case CxxOp::Gt: return sgn ? signFlip(b).ult(signFlip(a)) : b.ult(a);
    case CxxOp::Ge: return sgn ? signFlip(b).ule(signFlip(a)) : b.ule(a);
    default: break;
    }
    throw std::logic_error("port: bad binary operator");
  }
  case CxxExpr::Kind::Select: {
    // Only the chosen operand is evaluated: its preconditions hold under its
    // side of the condition (`x == 0 ? ~0u : __builtin_clz(x)` is defined).
    const BV c = eval(e->args[0], env);
    std::vector<BV> thenDefined, elseDefined;
    EvalEnv thenEnv = env, elseEnv = env;
    thenEnv.defined = &thenDefined;
    elseEnv.defined = &elseDefined;
    const BV a = eval(e->args[1], thenEnv), b = eval(e->args[2], elseEnv);
    for (const BV &d : thenDefined)
      require(env, ~c | d);
    for (const BV &d : elseDefined)
      require(env, c | d);
    return BV::ite(c, a, b);
  }
  case CxxExpr::Kind::Convert: {
    const BV a = eval(e->args[0], env);
    const CxxType from = e->args[0]->type, to = e->type;
    if (to.width == 1)
      return a.ne(a.lit(0));
    if (to.width == from.width)
      return a;
    if (to.width < from.width)
      return a.trunc(to.width);
    return from.isSigned ? a.sext(to.width) : a.zext(to.width);
  }
  case CxxExpr::Kind::AmdBuiltin: {
    if (!env.amd)
      throw std::logic_error("port: an AMD builtin evaluated without a target context");
    std::vector<BV> args;
    for (const Expr &a : e->args)
      args.push_back(eval(a, env));
    return amd::execute(e->amdOp, args, *env.amd).dst;
  }
  case CxxExpr::Kind::MulHigh: // the term PTX's mul.hi uses
    return sem::mulHigh(eval(e->args[0], env), eval(e->args[1], env), e->value != 0);
  case CxxExpr::Kind::Generic: {
    const BV a = eval(e->args[0], env);
    amd::EvalContext ec;
    switch (e->generic) {
    case GenericBuiltin::Popcount: return sem::popcount(a);
    // The same functions as the instructions' definitions, where C defines them.
    case GenericBuiltin::BitReverse32: return amd::execute(amd::Op::V_BFREV_B32, {a}, ec).dst;
    case GenericBuiltin::Clz:
      require(env, a.ne(a.lit(0))); // __builtin_clz(0) is undefined
      return amd::execute(amd::Op::V_FFBH_U32, {a}, ec).dst;
    case GenericBuiltin::Ctz:
      require(env, a.ne(a.lit(0)));
      return amd::execute(amd::Op::V_FFBL_B32, {a}, ec).dst;
    }
    break;
  }
  }
  throw std::logic_error("port: bad C++ expression");
}

} // namespace p2a::port
