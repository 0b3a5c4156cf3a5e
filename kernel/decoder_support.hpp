// Pieces of the kernel decoder (kernel_decoder.cpp) kept apart: reading
// module and kernel variables and their initializers, special-register
// operands, and the names a block-scoped register may shadow. Private to
// kernel/.
#pragma once

#include "kernel/kernel_ir.hpp"

#include <llvm/ADT/StringMap.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace p2a::kernel::detail {

// `{1, 2, 3}` or `5`: integers (decimal, hex, octal), element by element.
// `addresses`: where 8-byte elements name a variable (generic(v)+N or v+N),
// left zero in `out`; without it, or for narrower elements, a name fails.
bool parseInitializer(const std::string &text, unsigned elemBytes, std::vector<uint8_t> &out,
                      std::vector<Variable::Address> *addresses = nullptr);

// A .global/.const/.shared/.local variable declaration: size, alignment,
// initial bytes (nullopt, with an error, for what is not supported).
std::optional<Variable> variableOf(const ::ptx::ast::Declaration &d, const ::ptx::ast::Declarator &dr,
                                   Diagnostics &diags);

// A special register operand (%tid.x, %laneid, WARP_SZ, ...) and its dimension.
std::optional<std::pair<Special, unsigned>> specialOf(const ::ptx::ast::Operand &o);

// The declarations a register declared in one of a function's blocks may
// shadow (scopeBlockRegisters): the function's parameters (and results) and
// the module's variables. The module's are counted once, at the first
// question (only a register declared in a nested block asks): a decoder
// asks for every body it decodes, each inlined call's included, and a
// module may hold thousands of variables (listing them per call made
// inlining quadratic).
class NamesOutsideBody {
public:
  explicit NamesOutsideBody(const ::ptx::ast::Module &m) : m_(m) {}
  // How many of them, for f's body, name `name`.
  unsigned count(const ::ptx::ast::Function &f, const std::string &name);

private:
  const ::ptx::ast::Module &m_;
  std::optional<llvm::StringMap<unsigned>> moduleVariables_;
};

// The module's functions that have a body, by name (a later definition of a
// name replaces an earlier one).
llvm::StringMap<const ::ptx::ast::Function *> functionsWithBody(const ::ptx::ast::Module &m);

} // namespace p2a::kernel::detail
