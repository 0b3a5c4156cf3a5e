// `ptx2amdgpu rules`: the rule table the translator uses, printed as text,
// Markdown (after HIPIFY's generated support tables) or JSON, with each
// rule's cost per target from LLVM's scheduling model and its proof status.
#pragma once

#include "isel/cost_model.hpp"
#include "proof/verifier.hpp"

#include <optional>
#include <string>
#include <vector>

namespace p2a::report {

struct RuleRow {
  const rules::Rule *rule = nullptr;
  std::vector<std::optional<cost::RuleCost>> costs;       // per target; nullopt = not applicable
  std::vector<std::optional<verify::ProofResult>> proofs; // per target; nullopt = not run / n.a.
};

struct RulesQuery {
  std::string filter;                                   // substring of the rule name; empty = all
  std::vector<const targets::TargetInfo *> targets;
  bool prove = false;
  // Measure each cost now (reports/rule_cost_measurement.hpp) instead of
  // reading the committed table (what `--format=cost-table` prints).
  bool measureCosts = false;
  unsigned jobs = 1;
};

std::vector<RuleRow> buildRuleRows(const RulesQuery &q, cost::CostModel &costs);

std::string formatRulesText(const std::vector<RuleRow> &rows, const RulesQuery &q);
std::string formatRulesMarkdown(const std::vector<RuleRow> &rows, const RulesQuery &q);
std::string formatRulesJson(const std::vector<RuleRow> &rows, const RulesQuery &q);
// isel/rule_costs.inc, the committed cost table, from rows of every rule on
// every target with measured costs (each ok).
std::string formatRulesCostTable(const std::vector<RuleRow> &rows, const RulesQuery &q);

} // namespace p2a::report
