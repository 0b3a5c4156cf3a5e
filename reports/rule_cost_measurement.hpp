// Measuring a rule's cost on a target, for the committed cost table
// (isel/rule_costs.inc, which translation reads): a sample instance of the
// rule (Z3 finds operands its constraints allow) is lowered, assigned
// registers, printed and assembled by LLVM MC, whose MCSchedModel gives each
// instruction's reciprocal throughput (issue cycles; LLVM 19 models every
// VALU op the rules use at 1, and the 64-bit shifts with a longer latency on
// gfx900 and gfx10+). A rule's cost is the sum; the instruction count is kept
// beside it for the comparison with llc.
#pragma once

#include "isel/cost_model.hpp"

#include <string>
#include <vector>

namespace p2a::report {

// !ok with the reason when no operands satisfy the rule or MC rejects it
// (a bug in the rule).
cost::RuleCost measureRuleCost(const rules::Rule &rule, const targets::TargetInfo &t, mc::Assembler &assembler);

} // namespace p2a::report
