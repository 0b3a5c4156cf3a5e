#include "isel/cost_model.hpp"

#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace p2a::cost {

namespace {

struct CommittedCost {
  double cycles; // < 0: the rule does not serve that target
  unsigned instructions;
  unsigned latency;
};

constexpr size_t kCostTableTargetCount = 6;

struct CommittedRule {
  std::string_view name;
  CommittedCost perTarget[kCostTableTargetCount];
};

#include "isel/rule_costs.inc" // kCostTableTargets, kCommittedCosts

// The committed row of each rule of a family of the table, by the rule's
// index there (nullptr: none); built once per family. Rule names are unique
// in the table (rules_test checks it), so the name is the key that joins
// the two.
// (Published through an atomic pointer, as the table's families are: the
// lookup on selection's per-candidate path is one load.)
std::atomic<const std::vector<const CommittedRule *> *> familyRows[rules::kRuleFamilyCount];
std::once_flag buildingRows[rules::kRuleFamilyCount];

const std::vector<const CommittedRule *> &rowsOfFamily(unsigned family) {
  if (const auto *rows = familyRows[family].load(std::memory_order_acquire))
    return *rows;
  std::call_once(buildingRows[family], [&] {
    static const std::unordered_map<std::string_view, const CommittedRule *> &byName =
        *new std::unordered_map<std::string_view, const CommittedRule *>([] {
          std::unordered_map<std::string_view, const CommittedRule *> m;
          m.reserve(std::size(kCommittedCosts));
          for (const CommittedRule &r : kCommittedCosts)
            m.emplace(r.name, &r);
          return m;
        }());
    const std::vector<rules::Rule> &rules = rules::ruleFamily(family);
    auto *rows = new std::vector<const CommittedRule *>(rules.size(), nullptr);
    for (size_t i = 0; i < rules.size(); ++i)
      if (auto it = byName.find(rules[i].name); it != byName.end())
        (*rows)[i] = it->second;
    familyRows[family].store(rows, std::memory_order_release);
  });
  return *familyRows[family].load(std::memory_order_acquire);
}

// The committed row of a rule: by its place when it is the table's own
// (selection's case), by name otherwise.
const CommittedRule *committedRow(const rules::Rule &rule) {
  if (rules::inRuleTable(rule))
    return rowsOfFamily(rule.family)[rule.familyIndex];
  for (const CommittedRule &r : kCommittedCosts)
    if (r.name == rule.name)
      return &r;
  return nullptr;
}

} // namespace

RuleCost committedCost(const rules::Rule &rule, const targets::TargetInfo &t) {
  RuleCost rc;
  size_t column = kCostTableTargetCount;
  for (size_t i = 0; i < kCostTableTargetCount; ++i)
    if (kCostTableTargets[i] == t.name)
      column = i;
  const CommittedRule *row = committedRow(rule);
  if (!row || column == kCostTableTargetCount || row->perTarget[column].cycles < 0) {
    rc.error = "no committed cost for " + rule.name + " on " + t.name +
               " (isel/rule_costs.inc is stale: regenerate it with `ptx2amdgpu rules --format=cost-table -o "
               "isel/rule_costs.inc`)";
    return rc;
  }
  const CommittedCost &c = row->perTarget[column];
  rc.ok = true;
  rc.cycles = c.cycles;
  rc.instructions = c.instructions;
  rc.latency = c.latency;
  return rc;
}

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

select::RuleCostFn ruleCostFn(cost::CostModel &costs) {
  return [&costs](const rules::Rule &r, const targets::TargetInfo &tt) {
    const RuleCost c = costs.cost(r, tt);
    // Cheapest in issue cycles; among equals, fewer instructions, then the
    // shorter latency chain (LLVM models 64-bit shifts as slower there).
    return c.ok ? c.cycles + 1e-3 * c.instructions + 1e-6 * c.latency : 1e9;
  };
}

} // namespace p2a::cost
