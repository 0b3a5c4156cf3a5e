// Each AMD instruction the rule table selects for value computations, spelled
// as HIP C++: plain operators where clang selects the instruction itself
// (`(a & b) | (~a & c)` is v_bfi_b32), clang's AMDGPU builtins where C++ has
// no operator for it (v_alignbit_b32, v_perm_b32, v_bfe_u32/i32). port_test
// proves every spelling equal to the instruction's semantics on every target
// (the bits the instruction defines), and compiles the builtins with clang-19
// for each target to check the instruction they become.
#pragma once

#include "port/cxx_expr.hpp"

#include <optional>
#include <vector>

namespace p2a::port {

// The C++ type a value of slot `s` has: V32 uint32_t, V64 uint64_t, Mask bool.
CxxType cxxTypeOf(amd::Slot s);

struct OpCxx {
  Expr dst;
  Expr carry;              // the carry (borrow) the instruction writes to VCC, or null
  bool clobbersVcc = false; // VCC holds a value nothing may read afterwards
  unsigned definedBits = 0; // the low bits of dst the instruction defines on every target (16 for 16-bit ops)
};

// `srcs` typed by the op's source slots. nullopt: the op has no C++ spelling
// (memory, control flow, scalar-unit and cross-lane instructions).
std::optional<OpCxx> cxxForOp(amd::Op op, const std::vector<Expr> &srcs);

// The AMDGPU builtins spelled, with the instruction each lowers to.
struct BuiltinUse {
  const char *builtin;
  amd::Op op;
};
const std::vector<BuiltinUse> &amdBuiltins();

} // namespace p2a::port
