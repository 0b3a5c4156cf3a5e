// Clang-style rendering of diagnostics (file:line:col: error: msg, the source
// line and a caret) through llvm::SourceMgr, for parse errors and all later
// stages alike.
#pragma once

#include "grammar/parser.hpp"
#include "ptx/diagnostic.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace llvm {
class raw_ostream;
class SourceMgr;
} // namespace llvm

namespace p2a {

// A file name as the tool shows it (diagnostics, the header of its output):
// control bytes become '?', so a name cannot move the cursor, colour the
// terminal or start a new line in an assembly file.
std::string printableName(std::string_view name);

// Source text without a leading UTF-8 byte-order mark (editors on Windows
// write one; ptxas accepts it), so that it parses and columns count from
// the first character.
std::string withoutByteOrderMark(std::string text);

class SourceFile {
public:
  SourceFile(std::string name, std::string text);
  ~SourceFile();
  const std::string &name() const { return name_; }
  const std::string &text() const { return text_; }

  void print(llvm::raw_ostream &os, const Diagnostic &d) const;
  void print(llvm::raw_ostream &os, const ::ptx::SyntaxError &e) const;

private:
  std::string name_, text_;
  std::unique_ptr<llvm::SourceMgr> sm_;
};

} // namespace p2a
