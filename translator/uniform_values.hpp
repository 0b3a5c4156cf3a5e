// Which PTX registers hold one value for the whole wave, and where that
// value comes from. Such a register is written once, unguarded, by
//   - ld.param (a kernel argument: the prologue's SGPRs hold it),
//   - %ctaid / %nctaid (SGPRs from the initial state or hidden arguments),
//   - a copy (mov, cvta.to.global) of a uniform register (the same value),
//   - %ntid, or an instruction whose register sources are all uniform and
//     that a scalar rule computes: the scalar ALU computes it once, into an
//     SGPR of its own, where its statement stands.
// The last kind must have its one write dominate every read (so every lane
// reading it has run the statement that computed it), and must not stand in
// a block with a barrier (such a block runs even when no lane waits in it,
// possibly before the values it reads exist). Computed homes keep their
// SGPRs for the whole kernel, so they are capped at `maxHomeWords` SGPRs;
// uniform values past that stay per lane.
#pragma once

#include "translator/kernel_ir.hpp"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace p2a::kernel {

struct UniformSource {
  enum class Kind { Argument, WorkgroupId, GridSize, Computed };
  Kind kind = Kind::Argument;
  unsigned offset = 0;    // Argument: byte offset in the kernarg segment
  unsigned dim = 0;       // WorkgroupId / GridSize: x, y, z
  unsigned bits = 32;     // the value's width (32 or 64)
  std::string computedBy; // Computed: the register whose statement computes it
};

struct UniformValues {
  std::map<std::string, UniformSource> registers;
  std::set<size_t> scalarStatements; // statements the scalar ALU computes
};

// `scalarRule(stmt)`: does a scalar rule translate this Compute statement
// (with register sources, on the target at hand)?
UniformValues uniformValues(const Kernel &k, const std::function<bool(const Stmt &)> &scalarRule,
                            unsigned maxHomeWords);

} // namespace p2a::kernel
