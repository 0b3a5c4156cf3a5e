// One 32-bit register as hazard, delay and wait tracking see it: a VGPR, an
// SGPR (numbered as the hardware does), or VCC (an SGPR pair in wave64, one
// SGPR in wave32, aliased by number only on the hardware side: see
// InstFacts).
#pragma once

#include <llvm/ADT/SmallVector.h>

#include <compare>

namespace p2a::targets {

struct RegUnit {
  enum class File : unsigned char { Vgpr, Sgpr, Vcc } file = File::Vgpr;
  unsigned index = 0;
  friend auto operator<=>(const RegUnit &, const RegUnit &) = default;
};

// An operand's or an instruction's units: a few in place (the passes after
// layout list them for every instruction they look at; a vector each was a
// third of a big kernel's allocations).
using RegUnits = llvm::SmallVector<RegUnit, 4>;

inline RegUnit vgprUnit(unsigned i) { return {RegUnit::File::Vgpr, i}; }
inline RegUnit sgprUnit(unsigned i) { return {RegUnit::File::Sgpr, i}; }

} // namespace p2a::targets
