#include "reports/rules_report.hpp"

#include "reports/rule_cost_measurement.hpp"
#include "targets/target_info.hpp"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <charconv>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>
#include <algorithm>

namespace p2a::report {

using verify::ProofResult;

std::vector<RuleRow> buildRuleRows(const RulesQuery &q, cost::CostModel &costs) {
  std::vector<RuleRow> rows;
  for (const rules::Rule &r : rules::ruleTable())
    if (q.filter.empty() || r.name.find(q.filter) != std::string::npos)
      rows.push_back(RuleRow{&r, std::vector<std::optional<cost::RuleCost>>(q.targets.size()),
                             std::vector<std::optional<ProofResult>>(q.targets.size())});
  // Work items: rows, each with all its targets. Costs need MC, proofs need
  // Z3; rows are independent, so a few threads share them. (Items of
  // (row, target) let two threads prove the same rule at once for targets
  // that share its proof (verify::proveRule's cache): twice the CPU, no
  // gain in time.)
  // The longest proofs first, so that no thread is left with one at the end
  // (fns's proof alone is a third of the table's): proofs by cases, then
  // those over 64-bit values, then by template length.
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  if (q.prove) {
    auto effort = [&](size_t i) {
      const rules::Rule &r = *rows[i].rule;
      bool wide = false;
      for (unsigned s = 0; s < r.form.numSrcs(); ++s)
        wide = wide || r.form.srcWidth(s) == 64;
      for (unsigned d = 0; d < r.form.numDsts(); ++d)
        wide = wide || r.form.dstWidth(d) == 64;
      return std::tuple(bool(r.proofCases), wide, r.seq.size());
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return effort(a) > effort(b); });
  }
  std::atomic<size_t> next{0};
  const size_t items = rows.size();
  // An exception in a worker is carried to the caller, not left to abort.
  std::mutex errorMutex;
  std::exception_ptr firstError;
  auto work = [&] {
    for (size_t i = next++; i < items; i = next++) {
      RuleRow &row = rows[order[i]];
      for (size_t ti = 0; ti < q.targets.size(); ++ti) {
        const targets::TargetInfo &t = *q.targets[ti];
        if (!row.rule->servesTarget(t))
          continue;
        row.costs[ti] = q.measureCosts ? measureRuleCost(*row.rule, t, costs.assembler(t)) : costs.cost(*row.rule, t);
        if (q.prove)
          row.proofs[ti] = verify::proveRule(*row.rule, t);
      }
    }
  };
  auto worker = [&] {
    try {
      work();
    } catch (...) {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!firstError)
        firstError = std::current_exception();
      next = items;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < std::max(1u, q.jobs); ++j)
    pool.emplace_back(worker);
  worker();
  for (std::thread &th : pool)
    th.join();
  if (firstError)
    std::rethrow_exception(firstError);
  return rows;
}

namespace {

std::string num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string proofText(const std::optional<ProofResult> &p, bool prove) {
  if (!prove)
    return "not run";
  if (!p)
    return "-";
  switch (p->status) {
  case ProofResult::Status::Proved: return "proved";
  case ProofResult::Status::Failed: return "FAILED";
  case ProofResult::Status::NotApplicable: return "-";
  }
  return "?";
}

std::string costCell(const std::optional<cost::RuleCost> &c) {
  if (!c)
    return "-";
  if (!c->ok)
    return "ERROR";
  return num(c->cycles) + "c/" + std::to_string(c->instructions) + "i/" + std::to_string(c->latency) + "lat";
}

const targets::TargetInfo &anyTarget(const RuleRow &row, const RulesQuery &q) {
  for (size_t i = 0; i < q.targets.size(); ++i)
    if (row.costs[i])
      return *q.targets[i];
  return *q.targets.front();
}

std::string mdEscape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

} // namespace

std::string formatRulesText(const std::vector<RuleRow> &rows, const RulesQuery &q) {
  std::ostringstream os;
  os << "cost per target: issue cycles / instructions / summed latency, from LLVM's scheduling model; "
        "'-' = rule not for that target\n\n";
  for (const RuleRow &row : rows) {
    const rules::Rule &r = *row.rule;
    os << r.name << "   [" << r.form.name() << "; targets: " << r.target.text << "; priority " << r.priority << "]\n";
    std::string c = r.constraintText();
    os << "  when:   " << (c.empty() ? "any operands" : c) << "\n";
    os << "  emit:   " << r.templateText(anyTarget(row, q)) << "\n";
    os << "  why:    " << r.restriction << "\n";
    os << "  cost: ";
    for (size_t i = 0; i < q.targets.size(); ++i)
      os << " " << q.targets[i]->name << "=" << costCell(row.costs[i]);
    os << "\n  proof: ";
    for (size_t i = 0; i < q.targets.size(); ++i) {
      os << " " << q.targets[i]->name << "=" << proofText(row.proofs[i], q.prove);
    }
    os << "\n";
    for (size_t i = 0; i < q.targets.size(); ++i) {
      if (row.proofs[i] && row.proofs[i]->status == ProofResult::Status::Failed)
        os << "  counterexample on " << q.targets[i]->name << ": " << row.proofs[i]->counterexample << "\n";
      if (row.costs[i] && !row.costs[i]->ok)
        os << "  error on " << q.targets[i]->name << ": " << row.costs[i]->error << "\n";
    }
    os << "\n";
  }
  return os.str();
}

std::string formatRulesMarkdown(const std::vector<RuleRow> &rows, const RulesQuery &q) {
  std::ostringstream os;
  os << "# ptx2amdgpu rule table\n\n";
  os << "Generated by `ptx2amdgpu rules --format=md`. "
     << "Each target cell gives the cost from LLVM 19's scheduling model (issue cycles `c`, summed latency `lat`), "
     << "the instruction count `i`, "
     << "and the Z3 proof status (" << (q.prove ? "✓ proved, ✗ failed" : "proofs not run") << "); "
     << "`-` means the rule does not apply to that target.\n\n";
  os << "| **PTX form** | **Rule** | **Operands** | **AMD sequence** |";
  for (const targets::TargetInfo *t : q.targets)
    os << " **" << t->name << "** |";
  os << " **Restriction handled** |\n|:--|:--|:--|:--|";
  for (size_t i = 0; i < q.targets.size(); ++i)
    os << ":-:|";
  os << ":--|\n";
  for (const RuleRow &row : rows) {
    const rules::Rule &r = *row.rule;
    std::string c = r.constraintText();
    os << "| `" << r.form.name() << "` | " << r.name << " | " << mdEscape(c.empty() ? "any" : c) << " | `"
       << mdEscape(r.templateText(anyTarget(row, q))) << "` |";
    for (size_t i = 0; i < q.targets.size(); ++i) {
      if (!row.costs[i]) {
        os << " - |";
        continue;
      }
      os << " " << costCell(row.costs[i]);
      if (q.prove && row.proofs[i])
        os << (row.proofs[i]->status == ProofResult::Status::Proved ? " ✓" : " ✗");
      os << " |";
    }
    os << " " << mdEscape(r.restriction) << " |\n";
  }
  return os.str();
}

std::string formatRulesJson(const std::vector<RuleRow> &rows, const RulesQuery &q) {
  llvm::json::Array arr;
  for (const RuleRow &row : rows) {
    const rules::Rule &r = *row.rule;
    llvm::json::Object perTarget;
    for (size_t i = 0; i < q.targets.size(); ++i) {
      if (!row.costs[i])
        continue;
      llvm::json::Object o{{"ok", row.costs[i]->ok},
                           {"cycles", row.costs[i]->cycles},
                           {"instructions", static_cast<int64_t>(row.costs[i]->instructions)},
                           {"proof", proofText(row.proofs[i], q.prove)}};
      if (!row.costs[i]->ok)
        o["error"] = row.costs[i]->error;
      if (row.proofs[i] && row.proofs[i]->status == ProofResult::Status::Failed)
        o["counterexample"] = row.proofs[i]->counterexample;
      perTarget[q.targets[i]->name] = std::move(o);
    }
    arr.push_back(llvm::json::Object{{"name", r.name},
                                     {"form", r.form.name()},
                                     {"constraints", r.constraintText()},
                                     {"targets", r.target.text},
                                     {"priority", static_cast<int64_t>(r.priority)},
                                     {"template", r.templateText(anyTarget(row, q))},
                                     {"restriction", r.restriction},
                                     {"per_target", std::move(perTarget)}});
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{{"rules", std::move(arr)}}));
  os.flush();
  return out + "\n";
}

std::string formatRulesCostTable(const std::vector<RuleRow> &rows, const RulesQuery &q) {
  std::ostringstream os;
  os << "// Generated by `ptx2amdgpu rules --format=cost-table -o isel/rule_costs.inc`; do not edit.\n"
        "// Each rule's cost per target, measured with LLVM 19's scheduling model on a sample\n"
        "// instance (reports/rule_cost_measurement.cpp): {issue cycles, instructions, summed\n"
        "// latency}; {-1, 0, 0} where the rule does not serve the target. Translation reads\n"
        "// only this table (isel/cost_model.cpp); rules_test checks that it is current.\n"
        "constexpr std::string_view kCostTableTargets[kCostTableTargetCount] = {";
  for (size_t i = 0; i < q.targets.size(); ++i)
    os << (i ? ", " : "") << '"' << q.targets[i]->name << '"';
  os << "};\nconstexpr CommittedRule kCommittedCosts[] = {\n";
  for (const RuleRow &row : rows) {
    os << "    {\"" << row.rule->name << "\", {";
    for (size_t i = 0; i < q.targets.size(); ++i) {
      os << (i ? ", " : "");
      const std::optional<cost::RuleCost> &c = row.costs[i];
      if (!c) {
        os << "{-1, 0, 0}";
        continue;
      }
      char buf[64];
      const auto end = std::to_chars(buf, buf + sizeof buf, c->cycles).ptr; // shortest exact form
      os << "{" << std::string(buf, end) << ", " << c->instructions << ", " << c->latency << "}";
    }
    os << "}},\n";
  }
  os << "};\n";
  return os.str();
}

} // namespace p2a::report
