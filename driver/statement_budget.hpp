// A module's kernels on the thread pool, as many statements lowered at once
// as a budget allows. A kernel's working memory (its statements, their
// machine IR, its rows) is about 1.5 KiB a statement: two of KeyHunt's
// 80,000-statement kernels lowered side by side held 350-370 MiB where one
// at a time holds 230 (ptxas: 100). Each kernel is prepared first (its
// deferred body parsed: what tells its size), then run once its statements
// fit beside those of the kernels being run; meanwhile the worker prepares
// or runs the next kernel that does fit, so small kernels still fill the
// threads beside a large one (kernels prepared and waiting hold their
// parsed bodies, so no more are prepared ahead than the budget's worth). A
// kernel larger than the whole budget runs when nothing else does. The
// output is the same for every -j: each kernel writes its own slot, merged
// in module order.
#pragma once

#include <cstddef>
#include <functional>

namespace llvm {
class ThreadPoolInterface;
}

namespace p2a::module {

// What preparing kernel i tells: the statements run(i) will lower (0:
// none), and those its parsed body holds while it waits to run (a kernel's
// own body: KeyHunt's kernels inline 80,000 statements from a few hundred
// of their own, and a bound on waiting kernels by their lowered size kept
// the small kernels after them from being prepared, and run beside a large
// one).
struct PreparedKernel {
  size_t lowered = 0;
  size_t parsed = 0;
};

// Runs prepare(i), then run(i), for each i in [0, n): on the pool's threads
// when there is one, within `budget` statements lowered at once (and as
// many parsed in kernels prepared and waiting); in order otherwise.
// Neither may throw.
void runWithinStatementBudget(llvm::ThreadPoolInterface *pool, size_t n, size_t budget,
                              const std::function<PreparedKernel(size_t)> &prepare,
                              const std::function<void(size_t)> &run);

} // namespace p2a::module
