#include "isel/mc_rejection.hpp"

#include "rules/rule.hpp"

namespace p2a::mir {

void reportMcRejection(const mc::AssembleResult &rejected, const std::vector<TranslatedInstruction> &statements,
                       const std::vector<long> &statementOfLine, ::ptx::ast::SourceLoc fallback,
                       const std::string &fallbackFrom, const std::string &target, Diagnostics &diags) {
  const size_t before = diags.size();
  for (const mc::McDiagnostic &d : rejected.diagnostics) {
    if (d.kind != mc::McDiagnostic::Kind::Error)
      continue;
    ::ptx::ast::SourceLoc loc = fallback;
    std::string from = fallbackFrom;
    const long stmt = d.line < statementOfLine.size() ? statementOfLine[d.line] : -1;
    if (stmt >= 0 && static_cast<size_t>(stmt) < statements.size()) {
      const TranslatedInstruction &ti = statements[static_cast<size_t>(stmt)];
      loc = ti.loc;
      const std::string &ptx = ti.text().ptxText;
      from = ti.rule        ? "rule '" + ti.rule->name + "'"
             : ptx.empty() ? std::string("the lowering of this statement")
                           : "the lowering of '" + ptx + "'";
    }
    error(diags, loc,
          "internal error: LLVM MC rejected '" + d.source_line + "' from " + from + " on " + target + ": " + d.message);
  }
  if (diags.size() == before)
    error(diags, fallback, "internal error: LLVM MC rejected the translation on " + target);
}

} // namespace p2a::mir
