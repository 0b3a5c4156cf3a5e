#include "reports/explain.hpp"

#include "rules/rule.hpp"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <sstream>

namespace p2a::explain {

// Kernel ABI code, memory accesses and special registers are lowered
// directly, not by a rule of the table.
static const char *kNoRule = "(kernel lowering)";
static const char *kNoRuleWhy = "kernel ABI, memory or special register: lowered directly (see docs/architecture.md)";

static std::string formatCycles(double c) {
  std::ostringstream os;
  os << c;
  return os.str();
}

std::string formatText(const translate::Translation &tr) {
  std::ostringstream os;
  os << "; target " << tr.target << " (wave" << tr.waveSize << ")\n";
  os << "; registers:";
  for (const auto &[ptxName, phys] : tr.registers)
    os << " " << ptxName << "->" << phys;
  os << "\n";
  for (const mir::TranslatedInstruction &ti : tr.instructions) {
    os << ";\n; line " << ti.loc.line << ": " << ti.text().ptxText << "\n";
    if (!ti.rule && !ti.text().note.empty()) { // folded into another statement: no code of its own
      os << ";   " << ti.text().note << "\n";
      continue;
    }
    os << ";   rule " << (ti.rule ? ti.rule->name : kNoRule) << " (" << ti.text().gcn.size() << " instruction" << (ti.text().gcn.size() == 1 ? "" : "s")
       << ", " << formatCycles(ti.text().cycles) << " issue cycle" << (ti.text().cycles == 1 ? "" : "s") << ")\n";
    os << ";   " << (ti.rule ? ti.rule->restriction : kNoRuleWhy) << "\n";
    if (!ti.text().note.empty())
      os << ";   " << ti.text().note << "\n";
    for (const std::string &g : ti.text().gcn)
      os << g << "\n";
  }
  return os.str();
}

std::string formatJson(const translate::Translation &tr) {
  llvm::json::Object regs;
  for (const auto &[ptxName, phys] : tr.registers)
    regs[ptxName] = phys;
  llvm::json::Array insts;
  for (const mir::TranslatedInstruction &ti : tr.instructions) {
    llvm::json::Array gcn;
    for (const std::string &g : ti.text().gcn)
      gcn.push_back(g);
    insts.push_back(llvm::json::Object{{"ptx", ti.text().ptxText},
                                       {"line", static_cast<int64_t>(ti.loc.line)},
                                       {"column", static_cast<int64_t>(ti.loc.col)},
                                       {"rule", ti.rule ? ti.rule->name : kNoRule},
                                       {"cost", ti.text().cycles},
                                       {"restriction", ti.rule ? ti.rule->restriction : kNoRuleWhy},
                                       {"gcn", std::move(gcn)},
                                       {"note", ti.text().note}});
  }
  llvm::json::Object root{{"target", tr.target},
                          {"wave_size", static_cast<int64_t>(tr.waveSize)},
                          {"registers", std::move(regs)},
                          {"vgprs", static_cast<int64_t>(tr.numVgprs)},
                          {"sgprs", static_cast<int64_t>(tr.numSgprs)},
                          {"instructions", std::move(insts)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  os.flush();
  return out + "\n";
}

} // namespace p2a::explain
