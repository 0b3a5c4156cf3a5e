// Which PTX registers hold one value for the whole wave, and where that
// value comes from. Such a register is written once, unguarded, by
//   - ld.param (a kernel argument: the prologue's SGPRs hold it),
//   - %ctaid / %nctaid (SGPRs from the initial state or hidden arguments),
//   - the address of a module .const/.global variable (the prologue's SGPR
//     pair holds it),
//   - a copy (mov, cvta.to.global) of a uniform register (the same value),
//   - %ntid, an instruction whose register sources are all uniform and that
//     a scalar rule computes, or a scalar load (one 32/64-bit element of
//     read-only memory -- .const, or .global through .nc -- at a uniform
//     address): the scalar unit computes it once, into an SGPR of its own,
//     where its statement stands.
// The last kind must have its one write dominate every read (so every lane
// reading it has run the statement that computed it), and must not stand in
// a block with a barrier (such a block runs even when no lane waits in it,
// possibly before the values it reads exist).
//
// A register whose value changes while the kernel runs -- written more than
// once (a loop counter), or computed from such a register, or a predicate
// (its mask is EXEC or 0, so it depends on the lanes present) -- is uniform
// too when every write is an unguarded scalar statement (a scalar rule, a
// scalar load, a module variable's address) over uniform sources outside
// barrier blocks, and no write can run while lanes that
// still need the old value wait elsewhere: for each block writing it, the
// register is live on entry to none of the blocks where lanes may wait
// meanwhile (control_flow_graph.hpp, WaitingLanes). Then every lane reading
// it has run its latest write, with the same value as every other lane. A
// branch on such a predicate is uniform: all active lanes take it or none
// does, which in turn keeps lanes from waiting (the analysis is a greatest
// fixed point: candidates are dropped until the assumption holds).
//
// Computed homes take SGPRs (assigned by liveness, see Lowering::liveIntervals
// in lowering/register_assignment.cpp): at most `maxHomeWords` held at any
// statement, over the same intervals; uniform values past that stay per lane.
#pragma once

#include "kernel/kernel_ir.hpp"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace p2a::kernel {

struct KernelAnalyses; // analysis/control_flow_graph.hpp

struct UniformSource {
  enum class Kind { Argument, WorkgroupId, GridSize, VariableAddress, Computed };
  Kind kind = Kind::Argument;
  unsigned offset = 0;    // Argument: byte offset in the kernarg segment
  unsigned dim = 0;       // WorkgroupId / GridSize: x, y, z
  unsigned bits = 32;     // the value's width (32 or 64)
  std::string computedBy; // Computed: the register whose statement computes it
  std::string variable;   // VariableAddress: the module variable
};

struct UniformValues {
  std::map<std::string, UniformSource> registers;
  std::set<size_t> scalarStatements; // statements the scalar ALU computes
  std::set<size_t> uniformBranches;  // guarded branches every active lane takes or none does
};

// `scalarRule(stmt)`: does a scalar rule translate this Compute statement
// (with register sources, on the target at hand)? The first
// `preloadedArgumentBytes` of the parameters sit in SGPRs from the start
// (Argument sources); a parameter past them is a scalar load into a home.
// `analyses`: k's control flow and liveness.
UniformValues uniformValues(const Kernel &k, const std::function<bool(const Stmt &)> &scalarRule,
                            unsigned maxHomeWords, unsigned preloadedArgumentBytes, const KernelAnalyses &analyses);

} // namespace p2a::kernel
