#include "port/asm_site.hpp"

#include "driver/translate.hpp"
#include "port/asm_style.hpp"
#include "grammar/parser.hpp"
#include "targets/target_info.hpp"

namespace p2a::port {

namespace {

::ptx::ast::SourceLoc locOf(const LineTable &lines, size_t offset) {
  const LineColumn lc = lines.at(offset);
  return {lc.line, lc.column};
}

void leftAsIs(PortedSite &site, const LineTable &lines, size_t offset, const std::string &why) {
  warning(site.diags, locOf(lines, offset), "asm-not-ported", why + "; the asm statement is left as it is");
}

} // namespace

PortedSite portSite(const AsmStatement &st, const LineTable &lines, cost::CostModel &costs, PortStyle style) {
  PortedSite site;
  site.statement = &st;
  if (!st.error.empty()) {
    leftAsIs(site, lines, st.errorOffset, st.error);
    return site;
  }
  if (st.hasGotoLabels) {
    leftAsIs(site, lines, st.begin, "asm goto jumps to C++ labels, which a computation cannot");
    return site;
  }
  const AsmSnippet sn = buildSnippet(st);
  if (!sn.error.empty()) {
    leftAsIs(site, lines, sn.errorOffset, sn.error);
    return site;
  }
  site.ptx = sn.text.substr(0, sn.statementsLength);

  // Snippet positions back to source offsets.
  std::vector<size_t> snippetLines{0};
  for (size_t i = 0; i < sn.text.size(); ++i)
    if (sn.text[i] == '\n')
      snippetLines.push_back(i + 1);
  auto sourceOffset = [&](::ptx::ast::SourceLoc loc) -> size_t {
    if (loc.line == 0 || loc.line > snippetLines.size())
      return st.begin;
    const size_t at = snippetLines[loc.line - 1] + (loc.col ? loc.col - 1 : 0);
    return at < sn.offsets.size() ? sn.offsets[at] : st.begin;
  };
  auto report = [&](const Diagnostic &d) {
    leftAsIs(site, lines, sourceOffset(d.loc), "PTX: " + d.message);
  };

  ::ptx::ParseResult pr = ::ptx::parseSnippet(sn.text);
  if (!pr.ok()) {
    for (const ::ptx::SyntaxError &e : pr.errors)
      report({Diagnostic::Severity::Error, e.loc, e.message});
    return site;
  }
  const targets::TargetInfo &t = *targets::findTarget(kBaselineTarget);
  translate::Translation tr;
  Diagnostics diags;
  const bool ok = translate::translateBody(*pr.module.functions.front().body, t, costs, tr, diags);
  for (const Diagnostic &d : diags)
    if (d.severity == Diagnostic::Severity::Error)
      report(d);
  if (!ok) {
    if (site.diags.empty())
      leftAsIs(site, lines, st.begin, "the PTX could not be translated");
    return site;
  }
  site.cxx = cxxFromMir(tr, sn);
  for (size_t i = 0; i < tr.function.body.size(); ++i) {
    const mir::LoweredInst &li = tr.function.body[i];
    const bool direct = i < site.cxx.statedDirectly.size() && site.cxx.statedDirectly[i];
    site.rules.push_back(direct ? li.ptx->form.name() + " (stated in C++)" : li.rule ? li.rule->name : "");
  }
  if (!site.cxx.error.empty()) {
    leftAsIs(site, lines, st.begin, site.cxx.error);
    return site;
  }
  site.proof = proveSite(tr, sn, site.cxx);
  if (!site.proof.proved) {
    leftAsIs(site, lines, st.begin,
             site.proof.undecided
                 ? "its C++ could not be proved equal to its PTX: " + site.proof.counterexample
                 : "internal error: the C++ for this statement is not equal to its PTX (" +
                       site.proof.counterexample + ")");
    return site;
  }
  if (style == PortStyle::Asm) {
    const AsmStyleResult a = asmStyleFor(st, sn, *pr.module.functions.front().body, costs);
    if (!a.error.empty()) {
      leftAsIs(site, lines, st.begin, a.error);
      return site;
    }
    site.asmBlock = a.block;
    site.asmPerTarget = a.perTarget;
  }
  site.ported = true;
  return site;
}

} // namespace p2a::port
