#include "port/inline_asm_scanner.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace p2a::port {

LineTable::LineTable(std::string_view text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      starts_.push_back(i + 1);
}

size_t LineTable::lineStart(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return *(it - 1);
}

LineColumn LineTable::at(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const size_t line = static_cast<size_t>(it - starts_.begin());
  return {static_cast<unsigned>(line), static_cast<unsigned>(offset - *(it - 1) + 1)};
}

namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A lexer over [0, end) of the source. In a macro body ("directive" mode) a
// newline not spliced by a backslash ends the text; elsewhere it is space.
class Lexer {
public:
  Lexer(std::string_view s, size_t end) : s_(s), end_(end) {}

  size_t end() const { return end_; }
  char at(size_t i) const { return i < end_ ? s_[i] : '\0'; }

  // Whitespace, line splices and comments.
  size_t skipSpace(size_t i) const {
    while (i < end_) {
      const char c = s_[i];
      if (c == '\\' && splice(i)) {
        i = afterSplice(i);
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (c == '/' && at(i + 1) == '/') {
        i = lineCommentEnd(i);
      } else if (c == '/' && at(i + 1) == '*') {
        const size_t close = s_.find("*/", i + 2);
        i = close == std::string_view::npos || close + 2 > end_ ? end_ : close + 2;
      } else {
        break;
      }
    }
    return i;
  }

  // A `//` comment runs to a newline that is not spliced.
  size_t lineCommentEnd(size_t i) const {
    while (i < end_ && s_[i] != '\n') {
      if (s_[i] == '\\' && splice(i))
        i = afterSplice(i);
      else
        ++i;
    }
    return i;
  }

  bool splice(size_t i) const {
    size_t j = i + 1;
    while (j < end_ && (s_[j] == ' ' || s_[j] == '\t' || s_[j] == '\r'))
      ++j;
    return j < end_ && s_[j] == '\n';
  }
  size_t afterSplice(size_t i) const { return s_.find('\n', i) + 1; }

  // The string literal starting at i (with an encoding prefix, raw or not);
  // returns its end, or npos when i starts none. `prefix` gets the prefix.
  size_t stringLiteral(size_t i, std::string *prefix = nullptr) const {
    size_t j = i;
    while (j < end_ && isIdentChar(s_[j]) && j - i < 3)
      ++j;
    const std::string_view p = s_.substr(i, j - i);
    if (at(j) != '"')
      return std::string_view::npos;
    const bool raw = !p.empty() && p.back() == 'R';
    const std::string_view enc = raw ? p.substr(0, p.size() - 1) : p;
    if (!(enc.empty() || enc == "u8" || enc == "u" || enc == "U" || enc == "L"))
      return std::string_view::npos;
    if (prefix)
      *prefix = std::string(p);
    if (raw) {
      const size_t open = s_.find('(', j);
      if (open == std::string_view::npos)
        return end_;
      const std::string close = ")" + std::string(s_.substr(j + 1, open - j - 1)) + "\"";
      const size_t c = s_.find(close, open);
      return c == std::string_view::npos ? end_ : std::min(end_, c + close.size());
    }
    return quoted(j, '"');
  }

  // A '...' or "..." literal from its opening quote.
  size_t quoted(size_t i, char q) const {
    size_t j = i + 1;
    while (j < end_ && s_[j] != q && s_[j] != '\n') {
      if (s_[j] == '\\')
        ++j;
      ++j;
    }
    return std::min(end_, j + 1);
  }

  // A preprocessing number (digit separators and exponent signs included).
  size_t ppNumber(size_t i) const {
    size_t j = i + 1;
    while (j < end_) {
      const char c = s_[j];
      if ((c == '+' || c == '-') && std::strchr("eEpP", s_[j - 1]))
        ++j;
      else if (isIdentChar(c) || c == '.' || (c == '\'' && j + 1 < end_ && isIdentChar(s_[j + 1])))
        ++j;
      else
        break;
    }
    return j;
  }

  // Skips one token that could hide a delimiter (a literal, a comment, a
  // number); returns i unchanged when the text at i is none of those.
  size_t skipOpaque(size_t i) const {
    const char c = s_[i];
    if (c == '/' && (at(i + 1) == '/' || at(i + 1) == '*'))
      return skipSpace(i);
    if (std::isdigit(static_cast<unsigned char>(c)))
      return ppNumber(i);
    if (c == '\'')
      return quoted(i, '\'');
    if (c == '"' || isIdentStart(c)) {
      const size_t e = stringLiteral(i);
      if (e != std::string_view::npos)
        return e;
    }
    return i;
  }

  // From an opening bracket: the offset after its matching close, or npos.
  size_t balanced(size_t i) const {
    std::string stack;
    while (i < end_) {
      const size_t skipped = skipOpaque(i);
      if (skipped != i) {
        i = skipped;
        continue;
      }
      const char c = s_[i];
      if (c == '\\' && splice(i)) {
        i = afterSplice(i);
        continue;
      }
      if (c == '(' || c == '[' || c == '{')
        stack.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      else if (c == ')' || c == ']' || c == '}') {
        if (stack.empty() || stack.back() != c)
          return std::string_view::npos;
        stack.pop_back();
        if (stack.empty())
          return i + 1;
      } else if (isIdentStart(c)) {
        while (i < end_ && isIdentChar(s_[i]))
          ++i;
        continue;
      }
      ++i;
    }
    return std::string_view::npos;
  }

  std::string identifier(size_t i) const {
    size_t j = i;
    while (j < end_ && isIdentChar(s_[j]))
      ++j;
    return std::string(s_.substr(i, j - i));
  }

  // Appends the characters of the plain string literal [i, e) to `out`,
  // escapes resolved, with each one's source offset.
  void decode(size_t i, size_t e, std::string &out, std::vector<size_t> &offsets) const {
    for (size_t j = i + 1; j + 1 < e;) {
      const size_t at = j;
      char c = s_[j++];
      if (c == '\\') {
        if (splice(at)) {
          j = afterSplice(at);
          continue;
        }
        const char x = s_[j++];
        switch (x) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'a': c = '\a'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'v': c = '\v'; break;
        case 'x': {
          unsigned v = 0;
          while (j + 1 < e && std::isxdigit(static_cast<unsigned char>(s_[j])))
            v = v * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(s_[j])) ? s_[j] - '0'
                                                                                                : (s_[j] | 32) - 'a' + 10),
            ++j;
          c = static_cast<char>(v);
          break;
        }
        default:
          if (x >= '0' && x <= '7') {
            unsigned v = static_cast<unsigned>(x - '0');
            for (int k = 0; k < 2 && j + 1 < e && s_[j] >= '0' && s_[j] <= '7'; ++k)
              v = v * 8 + static_cast<unsigned>(s_[j++] - '0');
            c = static_cast<char>(v);
          } else {
            c = x; // \\ \" \' \?
          }
        }
      }
      out.push_back(c);
      offsets.push_back(at);
    }
  }

private:
  std::string_view s_;
  size_t end_;
};

bool isAsmKeyword(const std::string &id) { return id == "asm" || id == "__asm__" || id == "__asm"; }

// Reads the statement whose keyword starts at `kw`. Returns false when the
// keyword begins no statement (`asm` followed by something other than `(`).
bool readStatement(const Lexer &lx, size_t kw, AsmStatement &st) {
  st.begin = kw;
  size_t i = lx.skipSpace(kw + lx.identifier(kw).size());
  while (isIdentStart(lx.at(i))) {
    const std::string q = lx.identifier(i);
    if (q == "volatile" || q == "__volatile__" || q == "__volatile")
      st.isVolatile = true;
    else if (q != "inline" && q != "goto" && q != "__inline__")
      return false;
    i = lx.skipSpace(i + q.size());
  }
  if (lx.at(i) != '(')
    return false;
  const size_t close = lx.balanced(i);
  auto fail = [&](size_t at, std::string why) {
    st.error = std::move(why);
    st.errorOffset = at;
    st.end = close == std::string_view::npos ? lx.end() : close;
    return true;
  };
  if (close == std::string_view::npos)
    return fail(i, "unbalanced parentheses in the asm statement");
  i = lx.skipSpace(i + 1);
  // The template: adjacent string literals.
  bool any = false;
  for (;;) {
    std::string prefix;
    const size_t e = lx.stringLiteral(i, &prefix);
    if (e == std::string_view::npos)
      break;
    if (!prefix.empty())
      return fail(i, "the asm template is a '" + prefix + "' string literal; only plain literals are read");
    lx.decode(i, e, st.templateText, st.templateOffsets);
    any = true;
    i = lx.skipSpace(e);
  }
  if (!any)
    return fail(i, "the asm template is not a string literal (a macro or an expression); it is left as it is");
  if (lx.at(i) != ':' && i + 1 != close)
    return fail(i, "the asm template is not only string literals (a macro or '#' in it); it is left as it is");
  // Sections: outputs, inputs, clobbers, goto labels.
  unsigned section = 0;
  while (lx.at(i) == ':') {
    ++section;
    i = lx.skipSpace(i + 1);
    while (i + 1 < close && lx.at(i) != ':') {
      if (section <= 2) {
        AsmOperand op;
        if (lx.at(i) == '[') {
          const size_t rb = lx.balanced(i);
          if (rb == std::string_view::npos)
            return fail(i, "unbalanced '[' in an operand name");
          op.name = lx.identifier(lx.skipSpace(i + 1));
          i = lx.skipSpace(rb);
        }
        const size_t ce = lx.stringLiteral(i);
        if (ce == std::string_view::npos)
          return fail(i, "expected an operand, \"constraint\"(expression) (operands a macro writes are not expanded)");
        std::vector<size_t> unused;
        lx.decode(i, ce, op.constraint, unused);
        op.constraintOffset = i;
        i = lx.skipSpace(ce);
        if (lx.at(i) != '(')
          return fail(i, "expected '(' and the operand's expression after its constraint");
        const size_t pe = lx.balanced(i);
        if (pe == std::string_view::npos || pe > close)
          return fail(i, "unbalanced parentheses in an operand");
        std::string expr;
        // Splices inside the expression (a macro body) are dropped.
        for (size_t k = i + 1; k + 1 < pe; ++k) {
          if (lx.at(k) == '\\' && lx.splice(k)) {
            k = lx.afterSplice(k) - 1;
            expr.push_back(' ');
            continue;
          }
          expr.push_back(lx.at(k));
        }
        const size_t first = expr.find_first_not_of(" \t\r\n"), last = expr.find_last_not_of(" \t\r\n");
        op.expr = first == std::string::npos ? "" : expr.substr(first, last - first + 1);
        (section == 1 ? st.outputs : st.inputs).push_back(std::move(op));
        i = lx.skipSpace(pe);
      } else if (section == 3) {
        const size_t ce = lx.stringLiteral(i);
        if (ce == std::string_view::npos)
          return fail(i, "expected a clobber string");
        std::string clobber;
        std::vector<size_t> unused;
        lx.decode(i, ce, clobber, unused);
        st.clobbers.push_back(clobber);
        i = lx.skipSpace(ce);
      } else {
        st.hasGotoLabels = true;
        i = lx.skipSpace(i + std::max<size_t>(1, lx.identifier(i).size()));
      }
      if (lx.at(i) == ',')
        i = lx.skipSpace(i + 1);
      else if (lx.at(i) != ':' && i + 1 != close)
        return fail(i, "expected ',' or ':' between asm operands");
    }
    if (section > 4)
      return fail(i, "too many ':' sections in the asm statement");
  }
  if (i + 1 != close)
    return fail(i, "unexpected text before the asm statement's ')'");
  st.end = close;
  const size_t after = lx.skipSpace(close);
  if (lx.at(after) == ';') {
    st.hasSemicolon = true;
    st.end = after + 1;
  }
  return true;
}

// Does the '{' at `open` start a function body: is it preceded by ')'
// (with cv-qualifiers and noexcept between)? Blocks of if/for/while are
// too, which is why callers take the outermost such brace.
bool opensFunctionLikeBody(std::string_view src, size_t open) {
  size_t i = open;
  for (;;) {
    while (i > 0 && std::isspace(static_cast<unsigned char>(src[i - 1])))
      --i;
    size_t j = i;
    while (j > 0 && isIdentChar(src[j - 1]))
      --j;
    const std::string_view word = src.substr(j, i - j);
    if (j < i && (word == "const" || word == "noexcept" || word == "override" || word == "final" ||
                  word == "mutable" || word == "volatile")) {
      i = j;
      continue;
    }
    return i > 0 && src[i - 1] == ')';
  }
}

struct RegionScan {
  std::string_view src;
  const std::set<std::string> *names = nullptr; // report uses of these as NAME(
  std::vector<AsmStatement> *statements = nullptr;
  std::vector<NameUse> *uses = nullptr;
};

// Scans [begin, end) for asm statements and name uses: the whole file
// (macroName empty), or one #define's body.
void scanRegion(const RegionScan &rs, size_t begin, size_t end, const std::string &macroName, size_t macroBegin) {
  const std::string_view src = rs.src;
  const bool macro = !macroName.empty();
  const Lexer lx(src, end);
  struct Scope {
    unsigned id;
    size_t open;
    bool functionLike;
  };
  std::vector<Scope> scopes{{0, std::string_view::npos, false}};
  unsigned nextScope = 1;
  auto functionBody = [&]() -> size_t {
    for (const Scope &sc : scopes)
      if (sc.functionLike)
        return sc.open;
    return std::string_view::npos;
  };
  bool lineStart = true;
  for (size_t i = begin; i < end;) {
    const char c = src[i];
    if (c == '\n') {
      lineStart = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || (c == '\\' && lx.splice(i)) ||
        (c == '/' && (lx.at(i + 1) == '/' || lx.at(i + 1) == '*'))) {
      const size_t j = c == '/' || c == '\\' ? lx.skipSpace(i) : i + 1;
      // A skipped newline (a block comment over lines) starts a line too.
      if (src.substr(i, j - i).find('\n') != std::string_view::npos && c == '/')
        lineStart = true;
      i = j;
      continue;
    }
    if (c == '#' && lineStart && !macro) {
      // A directive: to the first newline that is not spliced.
      size_t e = i;
      while (e < end && src[e] != '\n') {
        if (src[e] == '\\' && lx.splice(e))
          e = lx.afterSplice(e);
        else if (src[e] == '/' && lx.at(e + 1) == '*')
          e = lx.skipSpace(e);
        else if (src[e] == '/' && lx.at(e + 1) == '/')
          e = lx.lineCommentEnd(e);
        else if (src[e] == '"' || src[e] == '\'')
          e = lx.quoted(e, src[e]);
        else
          ++e;
      }
      const size_t nameAt = lx.skipSpace(i + 1);
      if (lx.identifier(nameAt) == "define") {
        const size_t defined = lx.skipSpace(nameAt + 6);
        const std::string name = lx.identifier(defined);
        if (!name.empty())
          scanRegion(rs, defined + name.size(), e, name, i);
      }
      i = e;
      continue;
    }
    lineStart = false;
    const size_t skipped = lx.skipOpaque(i); // literals, numbers
    if (skipped != i) {
      i = skipped;
      continue;
    }
    if (isIdentStart(c)) {
      const std::string id = lx.identifier(i);
      if (isAsmKeyword(id) && rs.statements) {
        AsmStatement st;
        if (readStatement(lx, i, st)) {
          st.scope = scopes.back().id;
          st.functionBody = macro ? std::string_view::npos : functionBody();
          st.inMacro = macro;
          if (macro) {
            st.macroName = macroName;
            st.macroBegin = macroBegin;
            st.macroEnd = end;
          }
          i = std::max(st.end, i + id.size());
          rs.statements->push_back(std::move(st));
          continue;
        }
      }
      if (rs.names && rs.names->count(id) && lx.at(lx.skipSpace(i + id.size())) == '(')
        rs.uses->push_back({i, id, macroName, macro ? std::string_view::npos : functionBody()});
      i += id.size();
      continue;
    }
    if (c == '{' && !macro) {
      scopes.push_back({nextScope++, i, scopes.back().functionLike || opensFunctionLikeBody(src, i)});
    } else if (c == '}' && !macro && scopes.size() > 1) {
      scopes.pop_back();
    }
    ++i;
  }
}

} // namespace

std::vector<AsmStatement> scanInlineAsm(std::string_view source) {
  std::vector<AsmStatement> out;
  scanRegion(RegionScan{source, nullptr, &out, nullptr}, 0, source.size(), "", 0);
  return out;
}

std::vector<NameUse> findNameUses(std::string_view source, const std::set<std::string> &names) {
  std::vector<NameUse> out;
  scanRegion(RegionScan{source, &names, nullptr, &out}, 0, source.size(), "", 0);
  return out;
}

} // namespace p2a::port
