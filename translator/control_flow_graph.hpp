// The basic blocks of a kernel body and their successors, in layout order
// (the order the control-flow lowering runs them), with dominators.
#pragma once

#include "translator/kernel_ir.hpp"

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

// dom[b][a]: every path from the entry to block b passes through block a.
// Blocks the entry does not reach are dominated by every block.
std::vector<std::vector<bool>> dominators(const ControlFlowGraph &g);

} // namespace p2a::kernel
