// The IR between the lowering's steps as text (`--print-ir-after=STEP`,
// tests/passes): what each step decided, in the order Lowering::run runs them.
#include "isel/mir_printer.hpp"
#include "lowering/lowering.hpp"

namespace p2a::klower {

namespace {

const char *sourceName(kernel::UniformSource::Kind k) {
  switch (k) {
  case kernel::UniformSource::Kind::Argument: return "argument";
  case kernel::UniformSource::Kind::WorkgroupId: return "workgroup id";
  case kernel::UniformSource::Kind::GridSize: return "grid size";
  case kernel::UniformSource::Kind::VariableAddress: return "variable address";
  case kernel::UniformSource::Kind::Computed: return "computed";
  }
  return "?";
}

} // namespace

void Lowering::dumpAfter(const char *step) {
  if (std::find(opts_.printAfter.begin(), opts_.printAfter.end(), step) == opts_.printAfter.end())
    return;
  std::string &o = out_.irDump;
  o += "; *** IR after " + std::string(step) + ": kernel " + k_.name + " on " + t_.name + " ***\n";
  const std::string s = step;
  if (s == "segments") {
    o += "; kernel arguments: " + std::to_string(k_.paramBytes) + " bytes (" + std::to_string(paramDwords_) +
         " dwords from s" + std::to_string(kParamSgprs) + "), hidden arguments at " +
         std::to_string(out_.hiddenArgsOffset) + ", kernarg segment " + std::to_string(out_.kernargBytes) + " bytes\n";
    o += "; LDS " + std::to_string(groupBytes_) + " bytes, scratch " + std::to_string(privateBytes_) +
         " bytes per lane; generic accesses " + (genericReachesSegments_ ? "FLAT" : "global") + "\n";
    for (const auto &[name, off] : sharedOffset_)
      o += ";   .shared " + name + " at " + std::to_string(off) + "\n";
    for (const auto &[name, off] : localOffset_)
      o += ";   .local " + name + " at " + std::to_string(off) + "\n";
    for (const auto &[name, space] : pointerSpaces_)
      o += ";   " + name + " points into ." + kernel::spaceName(space) + "\n";
    return;
  }
  if (s == "blocks") {
    o += "; " + std::to_string(numBlocks_) + " block(s)\n";
    for (unsigned b = 0; b < numBlocks_; ++b) {
      o += ";   bb" + std::to_string(b) + " from statement " + std::to_string(blockStart_[b]) + " ->";
      for (unsigned succ : cfg_.succ[b])
        o += " bb" + std::to_string(succ);
      if (loopHeads_.count(b))
        o += " (loop head)";
      o += "\n";
    }
    return;
  }
  if (s == "uniform-values") {
    for (const auto &[name, src] : uniform_.registers)
      o += ";   " + name + ": uniform, " + sourceName(src.kind) + " (" + std::to_string(src.bits) + " bits)" +
           (src.computedBy.empty() ? "" : " by " + src.computedBy) + "\n";
    for (size_t i : uniform_.scalarStatements)
      o += ";   scalar ALU: " + k_.body[i].text + "\n";
    for (size_t i : uniform_.uniformBranches)
      o += ";   uniform branch: " + k_.body[i].text + "\n";
    return;
  }
  if (s == "emit") {
    o += out_.assembly;
    return;
  }
  if (s == "layout" || s == "wait-insertion" || s == "hazard-recognition" || s == "branch-relaxation" ||
      s == "alu-delays") {
    // The one instruction list, with the statement each instruction belongs to.
    int last = mir::kPrologue - 1;
    for (const mir::CodeInst &ci : fn_.code) {
      if (ci.stmt != last) {
        last = ci.stmt;
        o += ci.stmt >= 0 ? "  ; line " + std::to_string(k_.body[static_cast<size_t>(ci.stmt)].loc.line) + ": " +
                                k_.body[static_cast<size_t>(ci.stmt)].text + "\n"
             : ci.stmt == mir::kPrologue ? "  ; prologue\n"
                                         : "  ; epilogue\n";
      }
      o += (ci.mi.op == amd::Op::LABEL ? "  " : "    ") + printer::printInst(ci.mi, fn_, out_.allocation, t_) + "\n";
    }
    return;
  }
  // The statements with their instructions: over virtual registers before
  // register assignment, physical ones after.
  const bool physical = s == "register-assignment";
  if (physical) {
    o += "; " + std::to_string(out_.numVgprs) + " VGPRs, " + std::to_string(out_.numSgprs) + " SGPRs\n";
    for (const auto &[name, where] : out_.registers)
      o += ";   " + name + " -> " + where + "\n";
  }
  auto inst = [&](const MInst &mi) {
    return physical ? printer::printInst(mi, fn_, out_.allocation, t_) : mir::printVirtual(mi, fn_);
  };
  auto pieces = [&](const std::vector<MInst> &ps) {
    for (const MInst &mi : ps)
      o += (mi.op == amd::Op::LABEL ? "  " : "    ") + inst(mi) + "\n";
  };
  for (size_t i = 0; i < k_.body.size() && i < fn_.body.size(); ++i) {
    const mir::LoweredInst &li = fn_.body[i];
    o += "  ; line " + std::to_string(k_.body[i].loc.line) + ": " + k_.body[i].text;
    if (li.rule)
      o += "  [" + li.rule->name + "]";
    o += "\n";
    if (i < before_.size())
      pieces(before_[i]);
    for (const MInst &mi : li.insts)
      o += "    " + inst(mi) + "\n";
    if (i < after_.size())
      pieces(after_[i]);
  }
}

} // namespace p2a::klower
