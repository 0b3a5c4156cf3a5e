// PTX forms that HIP C++ states directly, where C++ has the operation and
// the rule table's 32-bit decomposition would only be re-derived by clang:
// 32- and 64-bit adds and subtracts with the carry flag (r = a + b; carry = r < a,
// as the PTX ISA's CC.CF), and 64-bit multiplies and multiply-adds (the
// high half through __int128). Each is proved per site like the rest.
#pragma once

#include "port/cxx_expr.hpp"
#include "ptx/ptx_ir.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace p2a::port {

// `srcs` typed by the form's sources (64-bit: uint64_t; the carry flag:
// bool). The form's destinations in order (the carry flag last), or nullopt
// for a form the rule table's instructions spell. `local` names a value
// read more than once (a C++ local), so that it is written once.
using LocalFn = std::function<Expr(Expr)>;
std::optional<std::vector<Expr>> cxxForForm(const ptx::Form &f, const std::vector<Expr> &srcs, const LocalFn &local);

} // namespace p2a::port
