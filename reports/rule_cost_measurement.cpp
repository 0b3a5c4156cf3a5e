#include "reports/rule_cost_measurement.hpp"

#include "isel/printer.hpp"
#include "isel/regalloc.hpp"
#include "isel/selector.hpp"
#include "proof/verifier.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"

namespace p2a::report {

cost::RuleCost measureRuleCost(const rules::Rule &rule, const targets::TargetInfo &t, mc::Assembler &assembler) {
  cost::RuleCost rc;
  std::optional<ptx::Instruction> inst = verify::sampleInstruction(rule, false);
  if (!inst) {
    rc.error = "no operands satisfy the rule's constraints";
    return rc;
  }
  mir::Function fn;
  if (!select::lowerWith(rule, *inst, t, fn)) {
    rc.error = "register pairs of the rule cannot be satisfied";
    return rc;
  }
  mir::Allocation alloc = regalloc::allocate(fn, t);
  for (const mir::MInst &mi : fn.body.front().insts)
    rc.assembly += printer::printInst(mi, fn, alloc, t) + "\n";
  std::vector<mc::McDiagnostic> diags;
  auto costs = assembler.costs(rc.assembly, diags);
  if (!costs) {
    rc.error = diags.empty() ? "MC rejected the rule" : diags.front().message + " in '" + diags.front().source_line + "'";
    return rc;
  }
  rc.ok = true;
  rc.instructions = static_cast<unsigned>(fn.body.front().insts.size());
  for (const mc::InstCost &c : *costs) {
    rc.cycles += c.rthroughput;
    rc.latency += c.latency;
  }
  return rc;
}

} // namespace p2a::report
