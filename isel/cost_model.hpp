// Rule costs from LLVM's own scheduling model: each rule is instantiated on a
// sample operand set, lowered and printed for the target, and MC's
// MCSchedModel gives every instruction's reciprocal throughput (issue cycles;
// LLVM 19 models every VALU op the rules use at 1, and the 64-bit shifts with
// a longer latency on gfx900 and gfx10+). A rule's cost is the sum. The
// instruction count is kept beside it for the comparison with llc.
#pragma once

#include "isel/selector.hpp"
#include "rules/rule.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace p2a::mc {
class Assembler;
}
namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::cost {

struct RuleCost {
  bool ok = false;
  double cycles = 0;        // sum of MCSchedModel reciprocal throughputs
  unsigned instructions = 0;
  unsigned latency = 0;     // sum of latencies (a dependent chain's upper bound)
  std::string error;        // why it could not be costed (MC rejected it: a bug)
  std::string assembly;     // the sample instance as assembled
};

class CostModel {
public:
  CostModel();
  ~CostModel();
  const RuleCost &cost(const rules::Rule &rule, const targets::TargetInfo &t);
  // The in-process assembler for a target (created on first use).
  mc::Assembler &assembler(const targets::TargetInfo &t);

private:
  std::mutex mu_;
  std::map<std::pair<const rules::Rule *, std::string>, RuleCost> cache_;
  std::map<std::string, std::unique_ptr<mc::Assembler>> assemblers_;
};

// What rule selection minimises: a rule's issue cycles from LLVM's
// scheduling model, then its instruction count, then its latency.
select::RuleCostFn ruleCostFn(CostModel &costs);


} // namespace p2a::cost
