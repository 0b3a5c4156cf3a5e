#include "driver/statement_budget.hpp"

#include <llvm/Support/ThreadPool.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace p2a::module {

void runWithinStatementBudget(llvm::ThreadPoolInterface *pool, size_t n, size_t budget,
                              const std::function<PreparedKernel(size_t)> &prepare,
                              const std::function<void(size_t)> &run) {
  if (!pool || n <= 1) {
    for (size_t i = 0; i < n; ++i) {
      prepare(i);
      run(i);
    }
    return;
  }
  std::vector<size_t> statements(n, 0), parsed(n, 0);
  std::mutex mutex;
  std::condition_variable roomMade;
  size_t held = 0;        // statements of the kernels being run
  size_t nextUnprepared = 0;
  std::deque<size_t> prepared; // waiting for room, in module order
  size_t waitingParsed = 0;     // the statements of their parsed bodies
  auto fits = [&](size_t i) { return held == 0 || held + statements[i] <= budget; };
  // Runs kernel i, its statements held (taken under the lock by the caller).
  auto runHeld = [&](std::unique_lock<std::mutex> &lock, size_t i) {
    held += statements[i];
    lock.unlock();
    run(i);
    lock.lock();
    held -= statements[i];
    roomMade.notify_all();
  };
  auto worker = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      auto waiting = std::find_if(prepared.begin(), prepared.end(), fits);
      if (waiting != prepared.end()) {
        const size_t i = *waiting;
        prepared.erase(waiting);
        waitingParsed -= parsed[i];
        runHeld(lock, i);
      } else if (nextUnprepared < n && waitingParsed < budget) {
        // (Kernels prepared ahead hold their parsed bodies: no more of them
        // than the budget's worth.)
        const size_t i = nextUnprepared++;
        lock.unlock();
        const PreparedKernel p = prepare(i);
        lock.lock();
        statements[i] = p.lowered;
        parsed[i] = p.parsed;
        if (fits(i))
          runHeld(lock, i);
        else {
          prepared.push_back(i);
          waitingParsed += p.parsed;
        }
      } else if (!prepared.empty()) {
        // Nothing fits and nothing more is prepared: a kernel being run
        // (held > 0, or the first would fit) makes room when it ends.
        roomMade.wait(lock);
      } else {
        return;
      }
    }
  };
  llvm::ThreadPoolTaskGroup group(*pool);
  const size_t workers = std::min<size_t>(n, pool->getMaxConcurrency());
  for (size_t w = 0; w < workers; ++w)
    group.async(worker);
  group.wait(); // (from a pool thread, it runs the group's tasks meanwhile)
}

} // namespace p2a::module
