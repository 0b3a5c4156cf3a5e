// Character-level helpers shared by the X3 grammar (grammar_def.hpp) and the
// statement driver (parser.cpp). Plain C++, no Spirit: these are the loops that
// must never recurse (balanced-brace skipping, error recovery), and the trivia
// skipper that runs between every pair of tokens, so they are hand-written for
// speed and bounded stack use.
//
// All functions take a half-open byte range [p, end) and never read past `end`;
// any byte value (NUL, >= 0x80) is accepted and treated as "not PTX".
#pragma once

#include <cstddef>
#include <cstring>

namespace ptx::parser::scan {

// PTX ISA 9.x §4.4 Identifiers: followsym = [a-zA-Z0-9_$].
inline bool isFollowSym(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

// PTX ISA 9.x §4.1 Source Format: whitespace is ignored except as a separator.
inline bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// If p starts a comment (PTX ISA 9.x §4.2 Comments: `//` to end of line and
// `/* */`, which do not nest), returns the position after it; otherwise p.
// An unterminated `/*` runs to the end of input.
inline const char* skipComment(const char* p, const char* end) {
  if (end - p < 2 || p[0] != '/') return p;
  if (p[1] == '/') {
    p += 2;
    while (p != end && *p != '\n') ++p;
    return p;
  }
  if (p[1] == '*') {
    p += 2;
    while (end - p >= 2 && !(p[0] == '*' && p[1] == '/')) ++p;
    return end - p >= 2 ? p + 2 : end;
  }
  return p;
}

// Whitespace and comments between tokens.
inline const char* skipTrivia(const char* p, const char* end) {
  for (;;) {
    while (p != end && isSpace(*p)) ++p;
    const char* after = skipComment(p, end);
    if (after == p) return p;
    p = after;
  }
}

// p at '"': returns the position after the closing quote. PTX uses string
// literals only in .file and .pragma (§11.4, §11.5), always on one line, so an
// unterminated one stops at the newline instead of swallowing the file.
inline const char* skipString(const char* p, const char* end) {
  ++p;
  while (p != end && *p != '"' && *p != '\n') {
    if (*p == '\\' && end - p >= 2) ++p;
    ++p;
  }
  return (p != end && *p == '"') ? p + 1 : p;
}

// Skips one comment or string literal if p starts one; otherwise returns p.
inline const char* skipCommentOrString(const char* p, const char* end) {
  if (p != end && *p == '"') return skipString(p, end);
  return skipComment(p, end);
}

// What a balanced scan does with what it meets. Every skip over nested
// brackets in the parser (directive tails, initializers, error recovery) is
// one of these settings of scanBalanced.
struct BalancedScan {
  bool parens = false;        // '(' ')' nest like '{' '}'
  const char* stopAt = ";";   // characters that end the scan outside brackets
  bool includeStop = true;    // end after the stop character (else at it)
  bool endAfterBlock = false; // a '}' closing the outermost block ends the scan, after it
  enum class Stray { Fail, Before, After };
  Stray stray = Stray::Fail;  // a closer outside brackets: nullptr, or end at / after it
};

// Scans from p, skipping comments and strings, with brackets nested as `how`
// says. Returns where the scan ends, or nullptr when the input ends first (or
// a stray closer fails it). Iterative, so 10^6 nested braces cost no stack.
inline const char* scanBalanced(const char* p, const char* end, const BalancedScan& how) {
  std::size_t depth = 0;
  while (p != end) {
    const char* after = skipCommentOrString(p, end);
    if (after != p) {
      p = after;
      continue;
    }
    const char c = *p;
    if (c == '{' || (how.parens && c == '(')) {
      ++depth;
    } else if (c == '}' || (how.parens && c == ')')) {
      if (depth == 0) {
        if (how.stray == BalancedScan::Stray::Fail) return nullptr;
        return how.stray == BalancedScan::Stray::Before ? p : p + 1;
      }
      if (--depth == 0 && how.endAfterBlock) return p + 1;
    } else if (depth == 0 && c != '\0' && std::strchr(how.stopAt, c)) {
      return how.includeStop ? p + 1 : p;
    }
    ++p;
  }
  return nullptr;
}

// p at '{': returns the position just after the matching '}', or nullptr when
// the input ends first.
inline const char* matchBraces(const char* p, const char* end) {
  return scanBalanced(p, end, {.stopAt = "", .endAfterBlock = true, .stray = BalancedScan::Stray::After});
}

// Raw initializer text after '=' in a declarator (PTX ISA 9.x §5.4.4
// Initializers): runs until ',' or ';' outside braces/parentheses. Returns that
// position, or nullptr when the input ends or an unmatched closer appears.
inline const char* scanInitializer(const char* p, const char* end) {
  return scanBalanced(p, end, {.parens = true, .stopAt = ",;", .includeStop = false});
}

// Arguments of a directive the grammar does not know: everything up to and
// including the next ';' outside braces, or up to and including a balanced
// `{ ... }` block (whichever ends first). Returns the position after it, or
// nullptr when the input ends, or a '}' closes an enclosing block first, so
// that an unknown directive can never swallow the end of a function body.
inline const char* scanDirectiveTail(const char* p, const char* end) {
  return scanBalanced(p, end, {.endAfterBlock = true});
}

// Trims trailing whitespace of [begin, end).
inline const char* trimRight(const char* begin, const char* end) {
  while (end != begin && isSpace(end[-1])) --end;
  return end;
}

} // namespace ptx::parser::scan
