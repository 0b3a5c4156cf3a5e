// A located message from any stage after parsing (decoder, selection, MC).
// The driver renders it clang-style through llvm::SourceMgr.
#pragma once

#include "grammar/ast.hpp"

#include <string>
#include <vector>

namespace p2a {

struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  ::ptx::ast::SourceLoc loc;
  std::string message;
};

using Diagnostics = std::vector<Diagnostic>;

inline void error(Diagnostics &d, ::ptx::ast::SourceLoc loc, std::string msg) {
  d.push_back({Diagnostic::Severity::Error, loc, std::move(msg)});
}

} // namespace p2a
