// The HIP C++ that port-asm writes, as expression trees that both print and
// evaluate (one source: what is printed is what is proved). Values are
// unsigned 32/64-bit integers, their signed views, and bool; the evaluator
// follows C++20's rules for them ([expr.shift], [expr.mul], [conv.integral]:
// modular conversions, arithmetic right shift of negative values) and records
// each operation's precondition (a shift amount below the width, a nonzero
// argument of __builtin_clz) so that a proof can show it always holds.
//
// An AMDGPU builtin (__builtin_amdgcn_alignbit, _perm, _ubfe, _sbfe)
// evaluates as the AMD instruction it lowers to (semantics/amd_ops.cpp); which
// instruction that is, clang decides, and port_test checks it per target.
#pragma once

#include "semantics/amd_ops.hpp"
#include "semantics/bitvec.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace p2a::port {

// width 1: bool; 16, 32 or 64: (u)intN_t.
struct CxxType {
  unsigned width = 32;
  bool isSigned = false;
  bool operator==(const CxxType &) const = default;
};
inline constexpr CxxType kBool{1, false}, kU16{16, false}, kU32{32, false}, kU64{64, false}, kI32{32, true},
    kI64{64, true};

// "uint32_t", "bool", ...
std::string typeName(CxxType t);

enum class CxxOp {
  // unary
  BitNot, LogicalNot, Negate,
  // binary (operands of one type; a shift's amount may be any unsigned type)
  And, Or, Xor, Add, Sub, Mul, Shl, Shr, Eq, Ne, Lt, Le, Gt, Ge, LogicalAnd, LogicalOr,
};

struct CxxExpr;
using Expr = std::shared_ptr<const CxxExpr>;

// The generic clang builtins used, with C semantics (not AMD-specific).
enum class GenericBuiltin { Popcount, BitReverse32, Clz, Ctz };

struct CxxExpr {
  // MulHigh: the high half of the double-width product (value: 1 if signed).
  enum class Kind { Var, Const, Unary, Binary, Select, Convert, AmdBuiltin, Generic, MulHigh };
  Kind kind = Kind::Const;
  CxxType type;
  std::string name;  // Var; AmdBuiltin: the builtin's name
  uint64_t value = 0; // Const
  CxxOp op = CxxOp::And;
  amd::Op amdOp = amd::Op::V_MOV_B32; // AmdBuiltin: its semantics
  GenericBuiltin generic = GenericBuiltin::Popcount;
  std::vector<Expr> args;
};

// Builders. They check operand types (a mismatch is a bug in the caller:
// std::logic_error) so that every tree is well typed C++ without implicit
// promotions: no operand is narrower than int, signedness never mixes.
Expr var(const std::string &name, CxxType t);
Expr constant(CxxType t, uint64_t v);
Expr unary(CxxOp op, Expr a);
Expr binary(CxxOp op, Expr a, Expr b);
Expr select(Expr cond, Expr a, Expr b);
Expr convert(CxxType to, Expr a);
Expr amdBuiltin(const std::string &name, amd::Op op, CxxType result, std::vector<Expr> args);
Expr generic(GenericBuiltin g, Expr a);
// The high half of a 64x64-bit product, through (unsigned) __int128.
Expr mulHigh64(Expr a, Expr b, bool isSigned);

// Short forms for the common cases.
inline Expr operator&(Expr a, Expr b) { return binary(CxxOp::And, std::move(a), std::move(b)); }
inline Expr operator|(Expr a, Expr b) { return binary(CxxOp::Or, std::move(a), std::move(b)); }
inline Expr operator^(Expr a, Expr b) { return binary(CxxOp::Xor, std::move(a), std::move(b)); }
inline Expr operator+(Expr a, Expr b) { return binary(CxxOp::Add, std::move(a), std::move(b)); }
inline Expr operator-(Expr a, Expr b) { return binary(CxxOp::Sub, std::move(a), std::move(b)); }
inline Expr operator*(Expr a, Expr b) { return binary(CxxOp::Mul, std::move(a), std::move(b)); }
inline Expr operator~(Expr a) { return unary(CxxOp::BitNot, std::move(a)); }
// `a << (n & (width-1))`: every shift the port writes masks its amount.
Expr shlMasked(Expr a, Expr n);
Expr shrMasked(Expr a, Expr n);
Expr lit(CxxType t, uint64_t v);

// C++ source text (fully parenthesised where precedence could surprise).
std::string print(const Expr &e);

// Evaluation. Variables come from `env`; `defined` collects 1-bit conditions
// under which each evaluated operation is defined in C++ (appended).
struct EvalEnv {
  const std::map<std::string, sem::BV> *vars = nullptr;
  const amd::EvalContext *amd = nullptr; // for AmdBuiltin
  std::vector<sem::BV> *defined = nullptr;
};
sem::BV eval(const Expr &e, const EvalEnv &env);

} // namespace p2a::port
