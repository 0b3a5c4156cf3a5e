#include "isel/cost_model.hpp"

#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "isel/printer.hpp"
#include "isel/regalloc.hpp"
#include "isel/selector.hpp"
#include "proof/verifier.hpp"

#include <stdexcept>

namespace p2a::cost {

CostModel::CostModel() = default;
CostModel::~CostModel() = default;

mc::Assembler &CostModel::assembler(const targets::TargetInfo &t) {
  std::lock_guard<std::mutex> lock(mu_);
  auto &slot = assemblers_[t.name];
  if (!slot) {
    std::string err;
    slot = mc::Assembler::create(t.name, err);
    if (!slot)
      throw std::runtime_error("cannot create the LLVM MC assembler for " + t.name + ": " + err);
  }
  return *slot;
}

const RuleCost &CostModel::cost(const rules::Rule &rule, const targets::TargetInfo &t) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find({&rule, t.name});
    if (it != cache_.end())
      return it->second;
  }
  RuleCost rc;
  std::optional<ptx::Instruction> inst = verify::sampleInstruction(rule, false);
  if (!inst) {
    rc.error = "no operands satisfy the rule's constraints";
  } else {
    mir::Function fn;
    if (!select::lowerWith(rule, *inst, t, fn)) {
      rc.error = "register pairs of the rule cannot be satisfied";
    } else {
      mir::Allocation alloc = regalloc::allocate(fn, t);
      std::string text;
      for (const mir::MInst &mi : fn.body.front().insts)
        text += printer::printInst(mi, fn, alloc, t) + "\n";
      rc.assembly = text;
      std::vector<mc::McDiagnostic> diags;
      auto costs = assembler(t).costs(text, diags);
      if (!costs) {
        rc.error = diags.empty() ? "MC rejected the rule" : diags.front().message + " in '" + diags.front().source_line + "'";
      } else {
        rc.ok = true;
        rc.instructions = static_cast<unsigned>(fn.body.front().insts.size());
        for (const mc::InstCost &c : *costs) {
          rc.cycles += c.rthroughput;
          rc.latency += c.latency;
        }
      }
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.emplace(std::make_pair(&rule, t.name), rc).first->second;
}

select::RuleCostFn ruleCostFn(cost::CostModel &costs) {
  return [&costs](const rules::Rule &r, const targets::TargetInfo &tt) {
    const cost::RuleCost &c = costs.cost(r, tt);
    // Cheapest in issue cycles; among equals, fewer instructions, then the
    // shorter latency chain (LLVM models 64-bit shifts as slower there).
    return c.ok ? c.cycles + 1e-3 * c.instructions + 1e-6 * c.latency : 1e9;
  };
}

} // namespace p2a::cost
