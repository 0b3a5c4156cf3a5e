// A located message from any stage after parsing (decoder, selection, MC).
// The driver renders it clang-style through llvm::SourceMgr.
#pragma once

#include "grammar/ast.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace p2a {

struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  ::ptx::ast::SourceLoc loc;
  std::string message;
  std::string flag;              // a warning's option name: "empty-file" for [-Wempty-file]
  std::string unsupportedOpcode; // set for "unsupported PTX instruction" errors: "ld"
};

using Diagnostics = std::vector<Diagnostic>;

inline void error(Diagnostics &d, ::ptx::ast::SourceLoc loc, std::string msg) {
  d.push_back({Diagnostic::Severity::Error, loc, std::move(msg)});
}

// Source order (line, then column); equal positions keep their order.
// Whether an error (not a warning or note) was added at or after `from`:
// warnings never fail a step.
inline bool errorsSince(const Diagnostics &d, size_t from) {
  for (size_t i = from; i < d.size(); ++i)
    if (d[i].severity == Diagnostic::Severity::Error)
      return true;
  return false;
}

inline void sortBySource(Diagnostics &d) {
  std::stable_sort(d.begin(), d.end(), [](const Diagnostic &a, const Diagnostic &b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
}

inline void unsupported(Diagnostics &d, ::ptx::ast::SourceLoc loc, std::string opcode, std::string msg) {
  Diagnostic x{Diagnostic::Severity::Error, loc, std::move(msg)};
  x.unsupportedOpcode = std::move(opcode);
  d.push_back(std::move(x));
}

inline void warning(Diagnostics &d, ::ptx::ast::SourceLoc loc, std::string flag, std::string msg) {
  Diagnostic x{Diagnostic::Severity::Warning, loc, std::move(msg)};
  x.flag = std::move(flag);
  d.push_back(std::move(x));
}

} // namespace p2a
