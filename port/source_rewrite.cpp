#include "port/source_rewrite.hpp"

#include <map>
#include <set>

namespace p2a::port {

namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string leadingSpace(std::string_view line) {
  return std::string(line.substr(0, std::min(line.size(), line.find_first_not_of(" \t"))));
}

void demote(PortedSite &site, const LineTable &lines, const std::string &why) {
  site.ported = false;
  const LineColumn lc = lines.at(site.statement->begin);
  warning(site.diags, {lc.line, lc.column}, "asm-not-ported", why + "; the asm statement is left as it is");
}

bool hasMemoryClobber(const AsmStatement &st) {
  for (const std::string &c : st.clobbers)
    if (c == "memory")
      return true;
  return false;
}

} // namespace

PortedFile portSource(const std::string &text, PortMode mode, cost::CostModel &costs) {
  PortedFile f;
  const LineTable lines(text);
  f.statements = scanInlineAsm(text);
  f.sites.reserve(f.statements.size());
  for (const AsmStatement &st : f.statements)
    f.sites.push_back(portSite(st, lines, costs));

  // The carry flag between statements: a reader needs an earlier ported
  // writer in its own block; a writer's value is kept only where a later
  // statement of the block reads it.
  std::set<unsigned> carrySet, declared;
  std::vector<bool> declareCarry(f.sites.size(), false);
  for (size_t i = 0; i < f.sites.size(); ++i) {
    PortedSite &s = f.sites[i];
    const AsmStatement &st = f.statements[i];
    if (!s.ported)
      continue;
    if (s.cxx.readsCarry && (st.inMacro || !carrySet.count(st.scope))) {
      demote(s, lines, st.inMacro ? "it reads PTX's carry flag CC.CF from outside its macro, which a port cannot follow"
                                  : "it reads PTX's carry flag CC.CF, which no earlier ported asm statement of its "
                                    "block sets");
      continue;
    }
    bool needed = false;
    if (s.cxx.carryOut && !st.inMacro)
      for (size_t j = i + 1; j < f.sites.size() && !needed; ++j)
        needed = f.statements[j].scope == st.scope && !f.statements[j].inMacro && f.sites[j].ported &&
                 f.sites[j].cxx.readsCarry;
    if (!needed) {
      s.cxx.carryOut = nullptr;
      continue;
    }
    carrySet.insert(st.scope);
    if (declared.insert(st.scope).second)
      declareCarry[i] = true;
  }

  auto portText = [&](size_t i, const std::string &indent) {
    std::string s = declareCarry[i] ? std::string("bool ") + kCarryVariable + " = false;\n" + indent : "";
    return s + printSite(f.sites[i].cxx, indent, hasMemoryClobber(f.statements[i])).substr(indent.size());
  };

  // Edits in source order: groups of adjacent statements, whole #defines.
  std::string &out = f.text;
  size_t copied = 0;
  for (size_t i = 0; i < f.sites.size();) {
    const AsmStatement &st = f.statements[i];
    if (st.inMacro) {
      size_t j = i;
      bool any = false;
      while (j < f.sites.size() && f.statements[j].inMacro && f.statements[j].macroBegin == st.macroBegin)
        any |= f.sites[j++].ported;
      if (any) {
        // The #define with each ported statement in its place, on spliced lines.
        std::string body;
        size_t at = st.macroBegin;
        for (size_t k = i; k < j; ++k) {
          if (!f.sites[k].ported)
            continue;
          const AsmStatement &s = f.statements[k];
          body.append(text, at, s.begin - at);
          std::string block = portText(k, "  ");
          if (!s.hasSemicolon)
            block = "do " + block + " while (0)";
          for (char c : block)
            body += c == '\n' ? std::string(" \\\n") : std::string(1, c);
          at = s.end;
        }
        body.append(text, at, st.macroEnd - at);
        out.append(text, copied, st.macroBegin - copied);
        if (mode == PortMode::Guard)
          out += std::string("#if ") + kGuardCondition + "\n" + body + "\n#else\n" +
                 text.substr(st.macroBegin, st.macroEnd - st.macroBegin) + "\n#endif";
        else
          out += body;
        copied = st.macroEnd;
      }
      i = j;
      continue;
    }
    if (!f.sites[i].ported) {
      ++i;
      continue;
    }
    if (!st.hasSemicolon) {
      demote(f.sites[i], lines, "it is not a statement of its own (no ';' follows)");
      ++i;
      continue;
    }
    // The group: ported statements of one block with only space between.
    size_t j = i + 1;
    while (j < f.sites.size() && f.sites[j].ported && !f.statements[j].inMacro && f.statements[j].hasSemicolon &&
           f.statements[j].scope == st.scope && blank(std::string_view(text).substr(f.statements[j - 1].end,
                                                                                     f.statements[j].begin -
                                                                                         f.statements[j - 1].end)))
      ++j;
    const size_t begin = st.begin, end = f.statements[j - 1].end;
    const size_t lineStart = lines.lineStart(begin);
    const std::string_view prefix = std::string_view(text).substr(lineStart, begin - lineStart);
    const std::string indent = leadingSpace(prefix);
    std::string ported;
    for (size_t k = i; k < j; ++k)
      ported += (k == i ? "" : "\n" + indent) + portText(k, indent);
    if (mode == PortMode::Replace) {
      out.append(text, copied, begin - copied);
      out += ported;
      copied = end;
    } else {
      // #if lines start a line: text before the statement stays on its own
      // line, text after it moves to the next.
      if (blank(prefix)) {
        out.append(text, copied, lineStart - copied);
      } else {
        const size_t keep = text.find_last_not_of(" \t", begin - 1) + 1;
        out.append(text, copied, keep - copied);
        out += "\n";
      }
      out += std::string("#if ") + kGuardCondition + "\n" + indent + ported + "\n#else\n" + indent +
             text.substr(begin, end - begin) + "\n#endif";
      const size_t eol = std::min(text.size(), text.find('\n', end));
      if (blank(std::string_view(text).substr(end, eol - end))) {
        copied = eol;
      } else {
        out += "\n" + indent;
        copied = text.find_first_not_of(" \t", end);
      }
    }
    i = j;
  }
  out.append(text, copied, std::string::npos);

  for (const PortedSite &s : f.sites) {
    f.ported += s.ported;
    f.diags.insert(f.diags.end(), s.diags.begin(), s.diags.end());
  }
  sortBySource(f.diags);
  return f;
}

} // namespace p2a::port
