// Walks over the AST's nested `{ }` blocks.
#pragma once

#include "grammar/ast.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptx::ast {

// The statements of `body` with nested `{ }` blocks flattened, in order.
std::vector<const Statement *> flatten(const Block &body);

// A `.reg` declared in a `{ }` block is visible in that block only, and
// shadows a register of the same name outside it (PTX ISA 5.3 "Scope";
// nvcc's inline-asm blocks rely on it: `.reg .u64 n;` in one block, `.reg
// .u32 n;` in the next). So is a `.param`: nvcc declares `param0` and
// `retval0` afresh in each call sequence's block, and one name per call
// keeps each argument a value written once (a copy that register
// assignment can make free). Flattening would merge such registers, so this
// returns a copy of `body` (kept in `renamed`) in which a register declared in a nested block
// under a name declared more than once in the function is renamed to
// `NAME#B` (B numbers the blocks in source order), along with every use
// inside that block. A name counts as declared by ranges that cover it
// (`%r<5>` declares `%r1`), by variables, and by the declarations outside
// the body (parameters, module variables) that `declaredOutside` counts: it
// is asked only about names blocks declare, so a module's thousands of
// variables are not listed for every body. Names declared once keep
// their spelling; ranges declared inside blocks are not renamed. Where no
// name needs renaming it returns `body` itself (no copy: a big kernel's
// statements are most of the syntax tree) and leaves `renamed` empty.
const Block &scopeBlockRegisters(const Block &body, std::optional<Block> &renamed,
                                 const std::function<unsigned(const std::string &)> &declaredOutside = {});

} // namespace ptx::ast
