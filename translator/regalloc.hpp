// Register assignment for translated snippets. Every virtual register gets its
// own physical register (no reuse): snippets are short, and a one-to-one map
// keeps `explain`'s register table exact and in-place aliasing impossible
// except where the PTX itself names one register twice -- which the rule
// proofs cover. Pair constraints from rules (hi = lo + 1, lo even) and 64-bit
// values get even-aligned VGPR pairs, as gfx90a+ require and gfx9 tolerates.
#pragma once

#include "translator/machine_ir.hpp"

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::regalloc {

mir::Allocation allocate(const mir::Function &fn, const targets::TargetInfo &t);

} // namespace p2a::regalloc
