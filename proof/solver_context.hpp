// The Z3 context and solvers every proof here uses: one context per thread,
// solvers that leave signals to the tool, and the names of rule sources in
// formulas and counterexamples.
#pragma once

#include <z3++.h>

#include <memory>

namespace p2a::verify {

// One Z3 context per thread, reused: creating a context costs more than
// most of these proofs. But not for ever: a context that served many
// unrelated proofs makes each later one slower (`rules --verify`: 137 s of
// CPU in one context per thread, 130 s with a new one every 16 rules, 125 s
// with a new one per rule), so each rule's proof starts in a new one.
inline std::unique_ptr<z3::context> &threadContextSlot() {
  thread_local std::unique_ptr<z3::context> ctx = std::make_unique<z3::context>();
  return ctx;
}
inline z3::context &threadContext() { return *threadContextSlot(); }

// Called where no expression of this thread's context is alive (before a
// rule's proof): the next queries go to a new context.
inline void freshThreadContext() { threadContextSlot() = std::make_unique<z3::context>(); }

// Z3 catches SIGINT during a check by default, installing and restoring its
// handler around each one: across threads that raced, so an interrupt was
// lost, crashed the process, or turned a proof into "unknown" (reported as a
// wrong rule). With it off, the tool's own signal handling applies: an
// interrupted run ends.
inline void ownSignals(z3::solver &s) {
  z3::params p(s.ctx());
  p.set("ctrl_c", false);
  s.set(p);
}

// A fresh QF_BV solver per query (an incremental one reused across thousands
// of unrelated queries was slower, and the context is reused anyway).
struct ScopedSolver {
  z3::solver s{threadContext(), "QF_BV"};
  ScopedSolver() { ownSignals(s); }
};

// Source operands in formulas and counterexamples: a, b, c, lop3's immLut, q.
inline constexpr const char *kSrcNames[] = {"a", "b", "c", "lut", "q"};

} // namespace p2a::verify
