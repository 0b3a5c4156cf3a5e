// Statement scheduling: within each basic block, the PTX statements are
// reordered so that long-latency work starts early and independent work
// fills the wait for it (issue 20, "Instruction scheduling").
//
// Why statements, before lowering, and not machine instructions after it:
// nvcc's PTX keeps each load next to its first use (ptxas schedules), and
// after register assignment the registers a loaded value shares with
// earlier values pin the order (anti-dependences). Registers are assigned
// over statement positions (lowering/register_assignment.cpp), so a
// statement order chosen first is one the allocator sees whole: a hoisted
// load simply gets a register of its own.
//
// A top-down list scheduler per block: a statement is ready when every
// statement it depends on is placed; among the ready ones, by critical path
// to the block's end and then original order, the first whose inputs are
// available (latency model in the .cpp) and which keeps the estimated
// register pressure within the block's limit (ScheduleLimits), counting
// what a statement taken early holds across the statements it passes.
// Otherwise the first statement in original order, which never needs more
// than the original did.
//
// Dependences: registers (read after write, write after read and after
// write; a guarded write also reads the value it may keep), memory (a load
// never passes a store that may alias it: same address space, and not
// provably disjoint bytes from the same base register value or variable;
// loads of .const and ld.global.nc pass everything), and a
// total order among statements with effects beyond memory (atomics,
// barriers, fences, strong or acquire/release accesses, traps, warp
// operations). The block's branch or return stays last, with the setp that
// feeds it directly before it (the lowering then branches on SCC).
//
// The PTX interpreter runs the kernel as written, so `check` validates
// every reordering like any other translation. Kernel::sourceIndex keeps
// where each statement came from: diagnostics, reports and `check`'s traces
// name statements by their place in the source.
#pragma once

#include "kernel/kernel_ir.hpp"
#include "targets/target_info.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace p2a::kernel {

struct KernelAnalyses; // analysis/control_flow_graph.hpp

// What bounds the estimated pressure (in 32-bit VGPRs) besides each block's
// own peak as written: `target`, when given, lets a block rise to the most
// VGPRs that keep the waves per SIMD of the kernel's peak as written (as
// LLVM's GCN scheduler aims at occupancy, not at a register count), never
// above `maxVgprs` (launch bounds, --max-vgprs; 0: none). `scalarRegisters`
// are held in SGPRs (uniform values) and left out of the estimate.
// `homeWords` are the SGPRs of those computed into scalar homes, of which
// at most `maxHomeWords` are held at once (0: no limit; see
// uniform_values.hpp): a scalar load goes no further ahead than that allows.
struct ScheduleLimits {
  const targets::TargetInfo *target = nullptr;
  unsigned maxVgprs = 0;
  std::set<std::string, std::less<>> scalarRegisters;
  std::map<std::string, unsigned, std::less<>> homeWords;
  unsigned maxHomeWords = 0;
};
// `estimatedPeak`, if given, receives the kernel's estimated peak as
// written. The estimate leaves out the ABI's work-item IDs, temporaries
// within a statement and the lowering's own values: the budget keeps
// kScheduleMarginVgprs for them.
inline constexpr unsigned kScheduleMarginVgprs = 8;
//
// scheduleOrder gives the order as a permutation: position i of the body
// takes the statement now at order[i] (within its block: labels, branch
// targets and block bounds keep their indices). reorderStatements applies
// one in place (Kernel::sourceIndex follows), and restoreOrder undoes it,
// so that the lowering can try several orders of one kernel without a copy
// of it per order (a 79k-statement kernel is some 70 MB).
// scheduleStatements is a scheduled copy.
// `analyses`: k's, where the caller has them (else made here).
std::vector<unsigned> scheduleOrder(const Kernel &k, const ScheduleLimits &limits = {},
                                    unsigned *estimatedPeak = nullptr, const KernelAnalyses *analyses = nullptr);
void reorderStatements(Kernel &k, const std::vector<unsigned> &order);
void restoreOrder(Kernel &k, const std::vector<unsigned> &order);
Kernel scheduleStatements(const Kernel &k, const ScheduleLimits &limits = {}, unsigned *estimatedPeak = nullptr);

} // namespace p2a::kernel
