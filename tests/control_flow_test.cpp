// Dominance (kernel/analysis/control_flow_graph.cpp) against its
// definition: a dominates b when every path from the entry to b passes
// through a, i.e. b cannot be reached once a is taken out (a block
// dominates itself; a block the entry does not reach is dominated by every
// block). Random graphs of the shapes kernels make -- fall-through chains,
// branches forward and back, many exits into one block -- plus the chain
// with early exits that made the iterative algorithm quadratic.
#include "kernel/analysis/control_flow_graph.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

using namespace p2a;

namespace {

kernel::ControlFlowGraph graphOf(std::vector<std::vector<unsigned>> succ) {
  kernel::ControlFlowGraph g;
  g.numBlocks = static_cast<unsigned>(succ.size());
  g.succ = std::move(succ);
  return g;
}

// The blocks reachable from the entry without passing through `removed`
// (kNone: remove nothing).
std::vector<bool> reachableWithout(const kernel::ControlFlowGraph &g, unsigned removed) {
  std::vector<bool> seen(g.numBlocks, false);
  if (removed == 0)
    return seen;
  std::vector<unsigned> work{0};
  seen[0] = true;
  while (!work.empty()) {
    const unsigned b = work.back();
    work.pop_back();
    for (unsigned s : g.succ[b])
      if (s != removed && !seen[s]) {
        seen[s] = true;
        work.push_back(s);
      }
  }
  return seen;
}

void checkAgainstDefinition(const kernel::ControlFlowGraph &g) {
  const kernel::Dominators dom(g);
  const std::vector<bool> reachable = reachableWithout(g, ~0u);
  for (unsigned a = 0; a < g.numBlocks; ++a) {
    const std::vector<bool> without = reachableWithout(g, a);
    for (unsigned b = 0; b < g.numBlocks; ++b) {
      const bool expected = !reachable[b] || a == b || (reachable[a] && !without[b]);
      INFO("a = " << a << ", b = " << b << " of " << g.numBlocks << " blocks");
      CHECK(dom.dominates(a, b) == expected);
    }
  }
}

} // namespace

TEST_SUITE("control flow graph") {

TEST_CASE("dominance agrees with its definition on random graphs") {
  std::mt19937 rng(7);
  for (unsigned trial = 0; trial < 300; ++trial) {
    const unsigned n = 1 + rng() % 24;
    std::vector<std::vector<unsigned>> succ(n);
    for (unsigned b = 0; b < n; ++b) {
      if (b + 1 < n && rng() % 4 != 0) // falls through (most blocks do)
        succ[b].push_back(b + 1);
      for (unsigned e = rng() % 3; e > 0; --e) // branches, forward or back
        succ[b].push_back(rng() % n);
    }
    checkAgainstDefinition(graphOf(succ));
  }
}

TEST_CASE("dominance of a chain with an early exit from every block, and a loop around it") {
  // 0 -> 1 -> ... -> n-2 -> n-1 (the exit); every block may also leave for
  // the exit, and the last block of the chain loops back to block 1.
  for (unsigned n : {2u, 3u, 17u, 200u}) {
    std::vector<std::vector<unsigned>> succ(n);
    for (unsigned b = 0; b + 1 < n; ++b) {
      succ[b].push_back(b + 1);
      if (b + 2 < n)
        succ[b].push_back(n - 1);
    }
    if (n > 3)
      succ[n - 2].push_back(1);
    checkAgainstDefinition(graphOf(succ));
  }
}

} // TEST_SUITE
