// Walks over the AST's nested `{ }` blocks.
#pragma once

#include "grammar/ast.hpp"

#include <vector>

namespace ptx::ast {

// The statements of `body` with nested `{ }` blocks flattened, in order.
std::vector<const Statement *> flatten(const Block &body);

} // namespace ptx::ast
