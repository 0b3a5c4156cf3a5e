#include "port/source_rewrite.hpp"

#include <algorithm>
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

bool usesCarry(const PortedSite &s) { return s.ported && (s.cxx.readsCarry || s.cxx.carryOut); }

// A replacement of [begin, end) of the source.
struct Edit {
  size_t begin, end;
  std::string text;
};

struct FileState {
  const std::string *text;
  LineTable lines;
  PortedFile result;
};

// The macros that touch the carry flag, across all files: those with a
// ported statement that reads or sets it, and those that expand them.
std::set<std::string> carryMacros(std::vector<FileState> &files) {
  std::set<std::string> names;
  for (FileState &f : files)
    for (const PortedSite &s : f.result.sites)
      if (s.statement->inMacro && usesCarry(s))
        names.insert(s.statement->macroName);
  for (bool grew = !names.empty(); grew;) {
    grew = false;
    for (FileState &f : files)
      for (const NameUse &u : findNameUses(*f.text, names))
        if (!u.macro.empty())
          grew |= names.insert(u.macro).second;
  }
  return names;
}

// After a function body's '{': on lines of its own, so that code after
// the brace (`{ return x; }`) is neither commented out nor on the #endif.
std::string declarationText(PortMode mode, bool codeFollows) {
  const std::string decl = std::string("bool ") + kCarryVariable + " = false; /* PTX's carry flag CC.CF (port-asm) */";
  const std::string text =
      mode == PortMode::Guard ? std::string("\n#if ") + kGuardCondition + "\n  " + decl + "\n#endif" : "\n  " + decl;
  return codeFollows ? text + "\n" : text;
}

void rewrite(FileState &fs, PortMode mode, const std::set<std::string> &macros) {
  PortedFile &f = fs.result;
  const std::string &text = *fs.text;
  const LineTable &lines = fs.lines;

  // Function bodies that need the carry variable: those that expand a carry
  // macro, and those whose own ported statements read it or hand it on.
  std::set<size_t> bodies, readingBodies;
  std::map<size_t, std::vector<size_t>> macroUseOffsets; // body -> offsets of carry macro uses
  if (!macros.empty())
    for (const NameUse &u : findNameUses(text, macros))
      if (u.macro.empty() && u.functionBody != std::string_view::npos) {
        bodies.insert(u.functionBody);
        macroUseOffsets[u.functionBody].push_back(u.offset);
      }
  for (size_t i = 0; i < f.sites.size(); ++i) {
    PortedSite &s = f.sites[i];
    const AsmStatement &st = f.statements[i];
    if (!usesCarry(s) || st.inMacro)
      continue;
    if (st.functionBody == std::string_view::npos) {
      demote(s, lines, "it uses PTX's carry flag CC.CF outside a function body");
      continue;
    }
    if (!s.cxx.readsCarry)
      continue;
    // The flag must come from somewhere: an earlier ported statement of the
    // function that sets it, or an earlier expansion of a carry macro.
    bool set = false;
    for (size_t j = 0; j < i && !set; ++j)
      set = f.sites[j].ported && !f.statements[j].inMacro && f.statements[j].functionBody == st.functionBody &&
            f.sites[j].cxx.carryOut;
    if (auto it = macroUseOffsets.find(st.functionBody); it != macroUseOffsets.end())
      for (size_t at : it->second)
        set |= at < st.begin;
    if (set)
      bodies.insert(st.functionBody);
    else
      demote(s, lines, "it reads PTX's carry flag CC.CF, which no earlier ported asm statement of its function sets");
  }
  // A statement's carry is handed on only where something later in its
  // function reads it: a ported statement or a carry macro.
  for (size_t i = 0; i < f.sites.size(); ++i) {
    PortedSite &s = f.sites[i];
    const AsmStatement &st = f.statements[i];
    if (!s.ported || st.inMacro || !s.cxx.carryOut)
      continue;
    bool needed = false;
    for (size_t j = i + 1; j < f.sites.size() && !needed; ++j)
      needed = f.statements[j].functionBody == st.functionBody && !f.statements[j].inMacro && f.sites[j].ported &&
               f.sites[j].cxx.readsCarry;
    if (auto it = macroUseOffsets.find(st.functionBody); it != macroUseOffsets.end())
      for (size_t at : it->second)
        needed |= at > st.begin;
    if (needed)
      bodies.insert(st.functionBody);
    else if (s.cxx.exportsCarry)
      // `add.cc` as the last word of a function (CGBN's add_cc helpers):
      // its caller's next statement reads the flag, which C++ cannot hand
      // across the call.
      demote(s, lines, "it sets PTX's carry flag CC.CF for code after its function, which a port cannot follow");
    else
      s.cxx.carryOut = nullptr;
  }

  std::vector<Edit> edits;
  for (size_t body : bodies) {
    const size_t eol = std::min(text.size(), text.find('\n', body));
    const bool codeFollows = !blank(std::string_view(text).substr(body + 1, eol - body - 1));
    edits.push_back({body + 1, body + 1, declarationText(mode, codeFollows)});
  }
  f.carryDeclarations = static_cast<unsigned>(bodies.size());

  auto portText = [&](size_t i, const std::string &indent) {
    const PortedSite &s = f.sites[i];
    if (s.asmBlock.empty())
      return printSite(s.cxx, indent, hasMemoryClobber(f.statements[i])).substr(indent.size());
    // --style=asm: the block's lines under the statement's indentation
    // (preprocessor lines at the start of theirs).
    std::string out;
    for (size_t at = 0; at < s.asmBlock.size();) {
      const size_t nl = std::min(s.asmBlock.size(), s.asmBlock.find('\n', at));
      const std::string line = s.asmBlock.substr(at, nl - at);
      out += (at == 0 || line[0] == '#' ? "" : indent) + line + (nl < s.asmBlock.size() ? "\n" : "");
      at = nl + 1;
    }
    return out;
  };
  for (size_t i = 0; i < f.sites.size();) {
    const AsmStatement &st = f.statements[i];
    if (st.inMacro) {
      size_t j = i;
      while (j < f.sites.size() && f.statements[j].inMacro && f.statements[j].macroBegin == st.macroBegin)
        ++j;
      bool any = false;
      for (size_t k = i; k < j; ++k) {
        if (f.sites[k].ported && f.sites[k].asmPerTarget)
          demote(f.sites[k], lines, "its AMDGPU assembly differs by target, and a #define cannot hold #if; use "
                                    "--style=builtin");
        any |= f.sites[k].ported;
      }
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
        const std::string original = text.substr(st.macroBegin, st.macroEnd - st.macroBegin);
        edits.push_back({st.macroBegin, st.macroEnd,
                         mode == PortMode::Guard ? std::string("#if ") + kGuardCondition + "\n" + body +
                                                       "\n#else\n" + original + "\n#endif"
                                                 : body});
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
           f.statements[j].scope == st.scope &&
           blank(std::string_view(text).substr(f.statements[j - 1].end,
                                                f.statements[j].begin - f.statements[j - 1].end)))
      ++j;
    const size_t begin = st.begin, end = f.statements[j - 1].end;
    const size_t lineStart = lines.lineStart(begin);
    const std::string_view prefix = std::string_view(text).substr(lineStart, begin - lineStart);
    const std::string indent = leadingSpace(prefix);
    std::string ported;
    for (size_t k = i; k < j; ++k)
      ported += (k == i ? "" : "\n" + indent) + portText(k, indent);
    if (mode == PortMode::Replace) {
      edits.push_back({begin, end, ported});
    } else {
      // #if lines start a line: text before the statement stays on its own
      // line, text after it moves to the next.
      Edit e{lineStart, end, ""};
      if (!blank(prefix)) {
        e.begin = text.find_last_not_of(" \t", begin - 1) + 1;
        e.text = "\n";
      }
      e.text += std::string("#if ") + kGuardCondition + "\n" + indent + ported + "\n#else\n" + indent +
                text.substr(begin, end - begin) + "\n#endif";
      const size_t eol = std::min(text.size(), text.find('\n', end));
      if (blank(std::string_view(text).substr(end, eol - end))) {
        e.end = eol;
      } else {
        e.text += "\n" + indent;
        e.end = text.find_first_not_of(" \t", end);
      }
      edits.push_back(std::move(e));
    }
    i = j;
  }

  std::stable_sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) { return a.begin < b.begin; });
  size_t copied = 0;
  for (const Edit &e : edits) {
    f.text.append(text, copied, e.begin - copied);
    f.text += e.text;
    copied = e.end;
  }
  f.text.append(text, copied, std::string::npos);

  for (const PortedSite &s : f.sites) {
    f.ported += s.ported;
    f.diags.insert(f.diags.end(), s.diags.begin(), s.diags.end());
  }
  sortBySource(f.diags);
}

} // namespace

std::vector<PortedFile> portSources(const std::vector<const std::string *> &texts, PortMode mode,
                                    cost::CostModel &costs, PortStyle style) {
  std::vector<FileState> files;
  files.reserve(texts.size());
  for (const std::string *t : texts) {
    FileState fs{t, LineTable(*t), {}};
    fs.result.statements = scanInlineAsm(*t);
    fs.result.sites.reserve(fs.result.statements.size());
    for (const AsmStatement &st : fs.result.statements)
      fs.result.sites.push_back(portSite(st, fs.lines, costs, style));
    files.push_back(std::move(fs));
  }
  // (sites point at their statements: the vectors above are not resized again)
  const std::set<std::string> macros = carryMacros(files);
  std::vector<PortedFile> out;
  for (FileState &fs : files) {
    rewrite(fs, mode, macros);
    out.push_back(std::move(fs.result));
  }
  return out;
}

PortedFile portSource(const std::string &text, PortMode mode, cost::CostModel &costs, PortStyle style) {
  return std::move(portSources({&text}, mode, costs, style).front());
}

} // namespace p2a::port
