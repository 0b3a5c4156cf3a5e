// The basic blocks of a kernel body and their successors, in layout order
// (the order the control-flow lowering runs them), with dominators.
#pragma once

#include "kernel/analysis/register_numbering.hpp"
#include "kernel/kernel_ir.hpp"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SparseBitVector.h>

#include <map>
#include <string>
#include <vector>

namespace p2a::kernel {

struct ControlFlowGraph {
  std::vector<unsigned> blockOf;    // per statement, and blockOf[n] = numBlocks ("after the end")
  std::vector<unsigned> blockStart; // per block its first statement; blockStart[numBlocks] = n
  unsigned numBlocks = 1;
  std::vector<std::vector<unsigned>> succ; // successors within the body (not the kernel's end)

  size_t blockEnd(unsigned b) const { return blockStart[b + 1]; }
};

// A block starts at statement 0, at each label and after each branch or
// return. A guarded branch or return also falls through to the next block.
ControlFlowGraph controlFlowGraph(const Kernel &k);

// Does block b hold a barrier (bar.sync)? Such a block runs even when no
// lane waits in it: every wave must reach the barrier.
bool blockHasBarrier(const Kernel &k, const ControlFlowGraph &g, unsigned b);

// Dominance: every path from the entry to block b passes through block a.
// Blocks the entry does not reach are dominated by every block. Immediate
// dominators by Lengauer and Tarjan's algorithm, then the dominator tree's
// DFS intervals, so that building is near-linear in the blocks and edges and
// each query is O(1). (A dense block x block matrix was half of a 70k-line
// kernel's translation time.)
class Dominators {
public:
  explicit Dominators(const ControlFlowGraph &g);
  bool dominates(unsigned a, unsigned b) const;
  // The immediate dominator of a reachable block other than the entry.
  unsigned idom(unsigned b) const { return idom_[b]; }

private:
  std::vector<unsigned> idom_;              // kNone for the entry and unreachable blocks
  std::vector<unsigned> enter_, leave_;     // DFS interval of each block in the dominator tree
  std::vector<bool> reachable_;
};

// The PTX registers live on entry to each block, per lane: read on some path
// before being written. A guarded write keeps the old value in the lanes
// whose guard is false, so it counts as a read too.
struct RegisterLiveness {
  RegisterNumbering numbering;                  // a register's bit is its id
  std::vector<llvm::SparseBitVector<>> liveIn;  // per block (sparse: big inlined kernels)
  std::vector<llvm::SparseBitVector<>> liveOut; // per block: live into a successor
  bool liveInAt(unsigned id, unsigned block) const { return liveIn[block].test(id); }
  bool liveInAt(const std::string &reg, unsigned block) const {
    const std::optional<unsigned> id = numbering.find(reg);
    return id && liveInAt(*id, block);
  }
};
RegisterLiveness registerLiveness(const Kernel &k, const ControlFlowGraph &g);

// The control flow and liveness of one arrangement of a kernel's body, made
// once and read by each analysis of that arrangement that would otherwise
// make its own (uniform values, scheduling, the lowering's register ids):
// each numbers every register operand of the body again, which for
// KeyHunt's 80k-statement kernels was a tenth of the translation. Valid
// while the body is unchanged.
struct KernelAnalyses {
  explicit KernelAnalyses(const Kernel &k) : cfg(controlFlowGraph(k)), live(registerLiveness(k, cfg)) {
    widths.reserve(live.numbering.size());
    for (unsigned r = 0; r < live.numbering.size(); ++r)
      widths.push_back(k.registerWidth(live.numbering.name(r)));
  }
  ControlFlowGraph cfg;
  RegisterLiveness live;
  // Per register id, Kernel::registerWidth (0: undeclared): looked up once
  // here, not by each analysis and lowering try of the arrangement (the
  // kernel's register table, hashed by name, was a tenth of KeyHunt's time).
  std::vector<unsigned> widths;
};

// Backward liveness over values numbered 0..: per statement the values it
// reads (`use`, a guarded write's old value included) and writes (`def`).
// Per block, live-in = read before written | (live-out - written), to a
// fixed point by a worklist over predecessors; sparse sets, so memory and
// work follow the values actually live rather than blocks x values (which
// was quadratic on big inlined kernels). Fills liveIn and liveOut per block.
// Over lists a caller already holds (no per-statement vectors): statement i
// writes def(i) and reads use(i), and reads def(i) too where
// `defIsUse(i)` (a guarded write keeps the old value in some lanes).
struct StatementValues {
  llvm::function_ref<llvm::ArrayRef<unsigned>(size_t)> def, use;
  llvm::function_ref<bool(size_t)> defIsUse;
};
void blockLiveness(const ControlFlowGraph &g, size_t statements, const StatementValues &values,
                   std::vector<llvm::SparseBitVector<>> &liveIn, std::vector<llvm::SparseBitVector<>> &liveOut);

// Where lanes may wait while a block runs, under the control-flow lowering's
// schedule (docs/architecture.md, "Control flow"): blocks run in layout
// order, each for the lanes waiting in it, and the next block run is always
// the first one with waiting lanes, so while block x runs lanes wait only in
// blocks after x. Lanes come to wait in a block when a branch splits them:
// at the end of x, a divergent branch may send lanes to both successors, a
// uniform one (`uniformEnd[x]`: every active lane agrees) sends them all to
// one. Both answers over-approximate.
//
// Up to kMaxWaitingAnalysisBlocks blocks the answer is a fixed point from
// the entry, where none wait (cubic per pass). Beyond, it is structural
// (linear in the blocks times a span): lanes enter z's mask at the end of a
// forward predecessor p < z and leave it when z runs; in between control
// moves forward from p to z, except that a back edge from a block y in
// [p, z) returns to its target h < p first. So lanes may wait in z only
// while a block in [lo(z), z) runs, lo(z) being the first forward
// predecessor, lowered to h for every such back edge until none applies.
// (A back edge into z itself jumps to z at once; a forward jump never skips
// a block with waiting lanes: Lowering::forwardJumpSafe.) Blocks never run
// have no waiting lanes in the fixed point; structurally every block runs.
constexpr unsigned kMaxWaitingAnalysisBlocks = 256;
class WaitingLanes {
public:
  WaitingLanes(const ControlFlowGraph &g, const std::vector<bool> &uniformEnd);
  // Lanes may wait in block z while block x runs.
  bool mayWait(unsigned x, unsigned z) const {
    return exact_.empty() ? x >= span_[z].first && x <= span_[z].second : exact_[x][z];
  }
  // The first and last block that may run while lanes wait in z (first >
  // last when none may).
  std::pair<unsigned, unsigned> runningWhileWaiting(unsigned z) const { return span_[z]; }

private:
  std::vector<std::vector<bool>> exact_; // [x][z], up to kMaxWaitingAnalysisBlocks blocks
  std::vector<std::pair<unsigned, unsigned>> span_;
};

} // namespace p2a::kernel
