// Finds GNU inline asm statements in CUDA C++ source: `asm`, `__asm__`,
// `__asm` with `volatile`/`__volatile__` and `inline`, their template (one
// or more adjacent string literals, escapes resolved), output and input
// operands (`[name] "constraint" (expression)`), clobbers and goto labels.
// Comments, string and character literals, raw strings and digit
// separators are skipped; line splices are whitespace; statements inside a
// `#define` are found with the directive they belong to. Brace scopes are
// numbered so that statements of one block can share a variable (the carry
// flag between `add.cc` and `addc` in separate statements).
//
// A lexer, not a C++ parser: macros are not expanded, so a template built
// by a macro or by `#` stringification is reported, not guessed.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace p2a::port {

struct AsmOperand {
  std::string name;       // %[name], or empty
  std::string constraint; // as written: "=r", "+l", "n", "0"
  std::string expr;       // the C++ expression, trimmed
  size_t constraintOffset = 0;
};

struct AsmStatement {
  size_t begin = 0;          // the `asm` keyword
  size_t end = 0;            // after `)`, and after the `;` that follows when hasSemicolon
  bool hasSemicolon = false;
  bool isVolatile = false;
  std::string templateText;            // the concatenated literals, escapes resolved
  std::vector<size_t> templateOffsets; // per templateText character: its source offset
  std::vector<AsmOperand> outputs, inputs;
  std::vector<std::string> clobbers;
  bool hasGotoLabels = false;
  // Inside a #define: the macro's name and the directive's extent ('#' to
  // the end of its last line).
  bool inMacro = false;
  std::string macroName;
  size_t macroBegin = 0, macroEnd = 0;
  // The '{' of the function body around it (outside macros; npos: none).
  size_t functionBody = std::string_view::npos;
  // The innermost enclosing `{ }` block outside macros (0: file scope).
  unsigned scope = 0;
  // Why the statement cannot be read (a template that is not string
  // literals, an unbalanced operand); errorOffset locates it.
  std::string error;
  size_t errorOffset = 0;
};

std::vector<AsmStatement> scanInlineAsm(std::string_view source);

// A use `NAME(` of one of a set of names (macros), outside comments and
// literals: in a #define's body (macro: that macro's name) or in code
// (functionBody: the '{' of the function body around it, or npos).
struct NameUse {
  size_t offset = 0;
  std::string name;
  std::string macro;
  size_t functionBody = std::string_view::npos;
};
std::vector<NameUse> findNameUses(std::string_view source, const std::set<std::string> &names);

// 1-based line and column of a byte offset.
struct LineColumn {
  unsigned line = 1, column = 1;
};
class LineTable {
public:
  explicit LineTable(std::string_view text);
  LineColumn at(size_t offset) const;
  size_t lineStart(size_t offset) const; // the offset its line starts at
private:
  std::vector<size_t> starts_;
};

} // namespace p2a::port
