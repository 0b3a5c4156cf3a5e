// AST -> typed PTX IR (ptx_ir.hpp) for the forms rules translate, with validation.
#pragma once

#include "ptx/diagnostic.hpp"
#include "ptx/ptx_ir.hpp"

#include <map>
#include <optional>
#include <string>

namespace p2a::ptx {

// Decode one instruction. Returns nullopt (and appends errors) for a wrong or
// unsupported form.
std::optional<Instruction> decodeInstruction(const ::ptx::ast::Instruction &in, Diagnostics &diags);

// Register types from `.reg` declarations (ranges expanded), for typing checks.
using RegisterTypes = std::map<std::string, RegisterType>;
void collectRegisterDeclaration(const ::ptx::ast::Declaration &decl, RegisterTypes &types, Diagnostics &diags);

// Check (and, for undeclared registers, infer) the type of each register
// operand from the form. Conflicting uses are errors.
bool typeRegisters(const Instruction &inst, RegisterTypes &types, Diagnostics &diags);

} // namespace p2a::ptx
