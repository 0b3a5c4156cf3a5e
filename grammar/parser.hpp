// Public entry points of the PTX grammar. Only Boost (never LLVM) behind this
// header, so the heavy X3 instantiation stays in grammar/grammar.cpp.
#pragma once

#include "ast.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ptx {

struct SyntaxError {
  ast::SourceLoc loc;   // where the caret goes
  std::string message;  // "expected ';'" -- no file/line prefix
};

// A kernel body left unparsed by parseModule (ParseOptions::deferEntryBodies):
// where its `{ ... }` lies in the module's text.
struct DeferredBody {
  std::size_t function = 0; // its kernel: an index into module.functions
  std::size_t begin = 0;    // byte offset of the '{'
  std::size_t end = 0;      // byte offset just after the matching '}'
  ast::SourceLoc loc;       // of the '{'
};

struct ParseResult {
  ast::Module module;               // what parsed, even when errors were found (recovery)
  std::vector<SyntaxError> errors;  // in source order; empty on success
  std::vector<DeferredBody> deferredBodies; // in module order; their syntax errors are not in `errors`
  bool ok() const { return errors.empty(); }
};

struct ParseOptions {
  // Kernel (`.entry`) bodies are only delimited, their braces matched, and
  // left to parseDeferredBody: a translation parses each kernel when it
  // translates it and drops its tree after, so a module's syntax trees are
  // never all held at once (nvcomp's 445k-line RunLengthEncode: a 425 MiB
  // tree). `.func` bodies, which kernels inline, are parsed here as always.
  bool deferEntryBodies = false;
};

// A whole module as nvcc or a hand writer produces it.
ParseResult parseModule(std::string_view text, ParseOptions options = {});

// One body that parseModule deferred, from the same text: the tree and the
// syntax errors parseModule would have given for it, at the same lines and
// columns.
struct BodyParseResult {
  ast::Block body;
  std::vector<SyntaxError> errors; // in source order
};
BodyParseResult parseDeferredBody(std::string_view text, const DeferredBody& deferred);

// An inline-asm style snippet: a sequence of statements (instructions,
// `.reg` declarations, labels, `{ }` blocks) with no module header. The
// statements land in a single synthetic `.func` body (module.functions[0]).
ParseResult parseSnippet(std::string_view text);

} // namespace ptx
