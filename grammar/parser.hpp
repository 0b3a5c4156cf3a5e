// Public entry points of the PTX grammar. Only Boost (never LLVM) behind this
// header, so the heavy X3 instantiation stays in grammar/grammar.cpp.
#pragma once

#include "ast.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace ptx {

struct SyntaxError {
  ast::SourceLoc loc;   // where the caret goes
  std::string message;  // "expected ';'" -- no file/line prefix
};

struct ParseResult {
  ast::Module module;               // what parsed, even when errors were found (recovery)
  std::vector<SyntaxError> errors;  // in source order; empty on success
  bool ok() const { return errors.empty(); }
};

// A whole module as nvcc or a hand writer produces it.
ParseResult parseModule(std::string_view text);

// An inline-asm style snippet: a sequence of statements (instructions,
// `.reg` declarations, labels, `{ }` blocks) with no module header. The
// statements land in a single synthetic `.func` body (module.functions[0]).
ParseResult parseSnippet(std::string_view text);

} // namespace ptx
