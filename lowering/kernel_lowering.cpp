// Lowering::run, the pipeline of lowering steps, and translateKernel: the
// pre-lowering rewrites, the retry without SGPR homes, and the MC check.
#include "lowering/lowering.hpp"
#include "lowering/passes.hpp"
#include "kernel/transforms/identity_operations.hpp"
#include "kernel/transforms/local_array_promotion.hpp"
#include "kernel/transforms/logic_splitting.hpp"
#include "kernel/transforms/statement_scheduling.hpp"
#include "kernel/transforms/vector_accesses.hpp"
#include "kernel/transforms/xor_linear_maps.hpp"
#include "targets/occupancy.hpp"

namespace p2a::klower {

// The lowering pipeline: each step is a member function in the file named for
// its job (lowering.hpp lists them), run in this order.
bool Lowering::run(const std::function<bool()> &worthFinishing) {
  out_.name = k_.name;
  out_.target = t_.name;
  const size_t before = diags_.size();
  if (!layOutSegments()) // abi.cpp: kernarg, LDS and scratch layout
    return false;
  dumpAfter("segments");
  buildBlocks(); // control_flow.cpp: blocks and their lane masks
  dumpAfter("blocks");
  findUniformValues(); // statement_lowering.cpp: which registers live in SGPRs
  dumpAfter("uniform-values");
  lowerStatements(); // statement_lowering.cpp, memory_lowering.cpp, control_flow.cpp
  dumpAfter("lower-statements");
  // On a lowering error what did lower is still assigned registers and
  // printed (the report shows it beside the error), but the caller gets false.
  const bool lowered = !errorsSince(diags_, before);
  readUniformsInPlace(); // uniform_operands.cpp: VALU readers take SGPR homes in place
  readLiteralsFromSgprs(); // uniform_operands.cpp: gfx9/CDNA literals of VOP3 operands from SGPRs set once
  dumpAfter("uniform-operands");
  if (!assignRegisters(lowered)) // register_assignment.cpp: liveness, then physical registers (and spills)
    return false;
  dumpAfter("register-assignment");
  if (worthFinishing && !worthFinishing())
    return false;
  layOutCode(); // code_layout.cpp: prologue, statements and control flow as one list
  dumpAfter("layout");
  wait_insertion::run(fn_, t_); // s_waitcnt
  dumpAfter("wait-insertion");
  hazard_recognition::run(fn_, t_); // s_nop, v_nop
  dumpAfter("hazard-recognition");
  relaxBranches(); // long jumps for branches beyond s_cbranch's reach
  dumpAfter("branch-relaxation");
  alu_delays::run(fn_, t_); // s_delay_alu (gfx11+)
  dumpAfter("alu-delays");
  assemble(); // abi.cpp: code, descriptor, metadata
  dumpAfter("emit");
  return lowered && !errorsSince(diags_, before);
}

void Lowering::relaxBranches() {
  const branch_relaxation::Result r =
      branch_relaxation::run(fn_, t_, ".L" + k_.name, out_.numSgprs);
  if (r.relaxed) // (two more SGPRs: the workgroup bound may shrink)
    out_.maxBlockThreads =
        std::min(k_.bounds.blockLimit(), targets::maxWorkgroupThreads(t_, out_.numVgprs, out_.numSgprs));
  if (r.noSgprPairAt) {
    needsBranchPair_ = true;
    const int stmt = *r.noSgprPairAt;
    error(diags_, stmt >= 0 ? k_.body[static_cast<size_t>(stmt)].loc : k_.loc,
          "a branch of kernel '" + k_.name + "' spans more than s_cbranch's 128 KiB, and no SGPR pair is left for a "
          "long jump (" + std::to_string(out_.numSgprs) + " SGPRs in use)");
  }
}

const std::vector<std::string> &loweringSteps() {
  static const std::vector<std::string> steps{
      "segments",            "blocks", "uniform-values", "lower-statements",   "uniform-operands",
      "register-assignment", "layout", "wait-insertion", "hazard-recognition", "branch-relaxation",
      "alu-delays",          "emit"};
  return steps;
}

bool translateKernel(kernel::Kernel source, const targets::TargetInfo &t, cost::CostModel &costs,
                     KernelTranslation &out, Diagnostics &diags, const Options &options) {
  // A forced rule (tests) applies to the statements as written.
  const select::RuleCostFn cost = cost::ruleCostFn(costs);
  // Each rewrite takes the kernel and returns it rewritten: one kernel is
  // held (and a rewrite's new one while it runs, where it builds one).
  auto rewritten = [&] {
    kernel::Kernel k = kernel::promoteLocalArrays(std::move(source));
    k = kernel::widenVectorAccesses(std::move(k));
    k = kernel::substituteConstantOperands(std::move(k), t);
    k = kernel::dropIdentityOperations(std::move(k));
    k = kernel::fuseByteLoads(std::move(k));
    k = kernel::fuseNegatedBits(std::move(k), t, cost);
    k = kernel::collapseXorLinearMaps(std::move(k), t, cost);
    k = kernel::fuseHalves(std::move(k));
    k = kernel::fuseRotates(std::move(k), t, cost);
    k = kernel::fuseLogicTrees(std::move(k), t, cost);
    k = kernel::fuseAdds(std::move(k), t, cost);
    k = kernel::splitLogicForLatency(std::move(k), t, cost);
    // (The rewrites' new operands get their ids, kernel/register_names.hpp,
    // before the orders' analyses and lowerings number the registers: the
    // rewrites keep the ids of the operands they copy, and numbering a name
    // without one is a lookup, each time.)
    kernel::nameRegisterOperands(k);
    return k;
  };
  kernel::Kernel fused = options.forcedRule ? std::move(source) : rewritten();
  const size_t diagsBefore = diags.size();
  // The body as written: its analyses are made for the schedule, then again
  // only if it is lowered as written (the other orders' are held meanwhile).
  std::optional<kernel::KernelAnalyses> asWritten(std::in_place, fused);
  // (Made once: a flow-insensitive fixed point, the same in every order of the body.)
  const std::map<std::string, Space> pointerSpaces = kernel::pointerSpaces(fused, asWritten->live.numbering);
  // Up to three tries: as asked; without SGPR homes for computed uniform
  // values if the kernel ran out of SGPRs with them (see Options); with a
  // budget two SGPRs smaller if a far branch found no SGPR pair for its long
  // jump (spilling makes room). Each adjustment is made once; the last
  // try's errors stand.
  // Once the kernel ran out of SGPRs with homes in one order, the other
  // orders tried below start without them (each try is a whole lowering:
  // a 79k-statement kernel lowered six times instead of four).
  bool homesRanOut = false;
  // (Asked of the body as written, whatever the arrangement: one answer per statement.)
  ScalarRuleAnswers scalarRules;
  // (Each try of one arrangement reads the same control flow and liveness.
  // `writtenIndex`: where its statements stand in the body as written, null
  // for that order.)
  auto lower = [&](const kernel::Kernel &k, const kernel::KernelAnalyses &analyses,
                   const std::function<bool()> &worthFinishing = {},
                   const std::vector<unsigned> *writtenIndex = nullptr) {
    Options opts = options;
    if (homesRanOut)
      opts.scalarHomeSgprs = 0;
    bool homesOff = homesRanOut, pairRoom = false, lowered = false;
    for (unsigned attempt = 0; attempt < 3; ++attempt) {
      diags.resize(diagsBefore);
      out = KernelTranslation{};
      Lowering l(k, t, costs, out, diags, opts, analyses, pointerSpaces);
      scalarRules.writtenIndex = writtenIndex;
      l.shareScalarRuleAnswers(&scalarRules);
      lowered = l.run(worthFinishing);
      if (lowered)
        break;
      if (l.outOfSgprsWithHomes() && !homesOff) {
        opts.scalarHomeSgprs = 0;
        homesOff = homesRanOut = true;
      } else if (l.needsBranchPair() && !pairRoom) {
        opts.maxSgprs = (opts.maxSgprs ? opts.maxSgprs : targets::kMaxSgprs) - 2;
        pairRoom = true;
      } else {
        break;
      }
    }
    return lowered;
  };
  if (!options.schedule)
    return lower(fused, *asWritten);
  // (A forced rule is scheduled too: scheduling moves statements, it does not rewrite them.)
  kernel::ScheduleLimits limits;
  limits.target = &t;
  limits.maxVgprs = registerBudgetFor(fused, t, options).vgprs; // the command line's and the launch bounds'
  scalarRules.writtenIndex = nullptr; // (fused as written)
  for (const auto &[name, from] : uniformValuesFor(fused, t, options, *asWritten, &scalarRules).registers) {
    limits.scalarRegisters.insert(name);
    if (from.kind == kernel::UniformSource::Kind::Computed)
      limits.homeWords[name] = from.bits / 32;
  }
  limits.maxHomeWords = options.scalarHomeSgprs;
  // Each order is tried on `fused` itself: put in place, lowered, undone.
  // (The last one tried, and whether homes had run out before it: what
  // lowering it again needs to give the same result.)
  std::vector<unsigned> lastOrder;
  bool homesRanOutBeforeLast = false;
  auto lowerInOrder = [&](std::vector<unsigned> order) {
    homesRanOutBeforeLast = homesRanOut;
    kernel::reorderStatements(fused, order);
    bool ok;
    {
      const kernel::KernelAnalyses reordered(fused);
      ok = lower(fused, reordered, {}, &order);
    }
    kernel::restoreOrder(fused, order);
    lastOrder = std::move(order);
    return ok;
  };
  auto writtenAnalyses = [&]() -> const kernel::KernelAnalyses & {
    return asWritten ? *asWritten : asWritten.emplace(fused);
  };
  unsigned estimatedPeak = 0;
  const std::vector<unsigned> scheduled = kernel::scheduleOrder(fused, limits, &estimatedPeak, &*asWritten);
  asWritten.reset(); // (memory: made again if the written order is lowered)
  bool lowered = lowerInOrder(scheduled);
  // The occupancy budget rests on an estimate; where the registers came out
  // beyond the waves it promised (large statements' temporaries, which it
  // leaves out), each block is held to its own peak as written instead.
  // If even that loses waves (the estimate does not see how pairs and
  // temporaries pack), the order as written is kept when it has more.
  auto waves = [&] { return targets::occupancy(t, out.numVgprs, out.numSgprs, 0).wavesPerSimd; };
  const unsigned promised =
      targets::occupancy(t, estimatedPeak + kernel::kScheduleMarginVgprs, out.numSgprs, 0).wavesPerSimd;
  // (Past kLargeKernel statements the order as written is the one other
  // try: KeyHunt's 80k-statement kernels got the same VGPRs from the
  // own-peak order as from the budget's, and each try is a whole lowering.)
  constexpr size_t kLargeKernel = 20000;
  if (lowered && waves() < promised) {
    limits.target = nullptr;
    if (fused.body.size() <= kLargeKernel)
      lowered = lowerInOrder(kernel::scheduleOrder(fused, limits, nullptr, &writtenAnalyses()));
    if (lowered && waves() < promised) {
      const unsigned scheduledWaves = waves();
      std::optional<KernelTranslation> scheduled(std::move(out));
      // (Its machine IR and registers are the lowering's working state, which
      // no caller reads: not held through another whole lowering. KeyHunt's
      // 80k-statement kernels: ~60 MiB each.)
      scheduled->function = mir::Function();
      scheduled->allocation = mir::Allocation();
      Diagnostics scheduledDiags = diags;
      // Once the written order's registers are assigned, its waves are
      // known but for the SGPRs a long branch may add: an order no better
      // stops there (the rest of a lowering, layout to assembly, is not
      // made for nothing), and a better one lets the scheduled result go
      // (6.5 MB of KeyHunt's 80k-statement kernels, held through the rest
      // of the lowering at its peak). Should the written order still end
      // no better, the scheduled order is lowered again, to the same result.
      auto worthFinishing = [&] {
        if (waves() <= scheduledWaves) {
          // (Where a long branch would find no SGPR pair above the
          // kernel's, the whole try asks for another with two SGPRs fewer,
          // whose registers may come out otherwise: that one is made, as
          // before. Otherwise the try ends here.)
          const bool pairLeft = ((out.numSgprs + 1) & ~1u) + 2 <= targets::kMaxSgprs;
          return !pairLeft;
        }
        scheduled.reset();
        scheduledDiags = {};
        return true;
      };
      if (!lower(fused, writtenAnalyses(), worthFinishing) || waves() <= scheduledWaves) {
        if (scheduled) {
          out = std::move(*scheduled);
          diags = std::move(scheduledDiags);
          lowered = true;
        } else {
          homesRanOut = homesRanOutBeforeLast;
          lowered = lowerInOrder(std::move(lastOrder));
        }
      }
    }
  }
  // LLVM MC checks the result where it is assembled: the module's one
  // assembly (driver/module_translation.cpp), or `check`'s object.
  return lowered;
}

void reportMcRejection(const KernelTranslation &kt, const std::vector<mir::TranslatedInstruction> &rows, size_t firstRow,
                       const mc::AssembleResult &rejected, ::ptx::ast::SourceLoc kernelLoc,
                       const targets::TargetInfo &t, Diagnostics &diags) {
  std::vector<long> rowOfLine;
  for (size_t i = 0; i < kt.codeAsmLine.size(); ++i) {
    if (rowOfLine.size() <= kt.codeAsmLine[i])
      rowOfLine.resize(kt.codeAsmLine[i] + 1, -1);
    rowOfLine[kt.codeAsmLine[i]] = kt.codeStmt[i] < 0 ? -1 : long(firstRow) + kt.codeStmt[i];
  }
  mir::reportMcRejection(rejected, rows, rowOfLine, kernelLoc, "the kernel's ABI code", t.name, diags);
}

} // namespace p2a::klower
