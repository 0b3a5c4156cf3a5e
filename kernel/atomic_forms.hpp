// The form of an atom or red instruction, decoded into an Atomic statement
// (kernel_decoder.cpp decodes its operands). Private to kernel/.
#pragma once

#include "kernel/kernel_ir.hpp"

#include <string>

namespace p2a::kernel {

// Sets s.kind, atomicOp, elemBits, elemType, regWidth, space (Generic unless
// .global or .shared), scope (.gpu unless given) and ordered from the
// modifiers of `in` (whose full name is `full`). False, with a located error
// ("invalid form" where PTX has no such atom, "unsupported form" where the
// translation lacks it), otherwise.
bool decodeAtomicForm(const ::ptx::ast::Instruction &in, const std::string &full, Stmt &s, Diagnostics &diags);

} // namespace p2a::kernel
