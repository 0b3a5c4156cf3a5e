#include "port/form_cxx.hpp"

namespace p2a::port {

using ptx::Opcode;

namespace {

// a + b (+ cin) or a - b (- cin) with the carry (borrow) out, in the PTX
// ISA's terms (9.7.2: CC.CF): a wrap-around of either step.
std::vector<Expr> withCarry(const ptx::Form &f, bool add, Expr a, Expr b, Expr cin, const LocalFn &local) {
  Expr r = local(add ? a + b : a - b);
  Expr carry = add ? binary(CxxOp::Lt, r, a) : binary(CxxOp::Lt, a, b);
  if (cin) {
    Expr c = convert(a->type, cin);
    Expr r2 = local(add ? r + c : r - c);
    carry = binary(CxxOp::LogicalOr, carry, add ? binary(CxxOp::Lt, r2, r) : binary(CxxOp::Lt, r, c));
    r = r2;
  }
  if (!f.carryOut)
    return {r};
  return {r, carry};
}

} // namespace

std::optional<std::vector<Expr>> cxxForForm(const ptx::Form &f, const std::vector<Expr> &s, const LocalFn &local) {
  if ((f.opcode == Opcode::Add || f.opcode == Opcode::Sub) && (f.carryIn || f.carryOut) &&
      (f.width == 32 || f.width == 64))
    return withCarry(f, f.opcode == Opcode::Add, s[0], s[1], f.carryIn ? s[2] : nullptr, local);
  if (f.width != 64)
    return std::nullopt;
  switch (f.opcode) {
  case Opcode::MulLo: return std::vector<Expr>{s[0] * s[1]};
  case Opcode::MulHi: return std::vector<Expr>{mulHigh64(s[0], s[1], f.type == ptx::TypeClass::S)};
  case Opcode::MadLo:
  case Opcode::MadHi: {
    Expr product =
        local(f.opcode == Opcode::MadLo ? s[0] * s[1] : mulHigh64(s[0], s[1], f.type == ptx::TypeClass::S));
    if (!f.carryIn && !f.carryOut)
      return std::vector<Expr>{product + s[2]};
    return withCarry(f, true, product, s[2], f.carryIn ? s[3] : nullptr, local);
  }
  default: return std::nullopt;
  }
}

} // namespace p2a::port
