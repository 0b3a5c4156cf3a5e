// One 32-bit register as hazard, delay and wait tracking see it: a VGPR, an
// SGPR (numbered as the hardware does), or VCC (an SGPR pair in wave64, one
// SGPR in wave32, aliased by number only on the hardware side: see
// InstFacts).
#pragma once

#include <compare>

namespace p2a::targets {

struct RegUnit {
  enum class File : unsigned char { Vgpr, Sgpr, Vcc } file = File::Vgpr;
  unsigned index = 0;
  friend auto operator<=>(const RegUnit &, const RegUnit &) = default;
};

inline RegUnit vgprUnit(unsigned i) { return {RegUnit::File::Vgpr, i}; }
inline RegUnit sgprUnit(unsigned i) { return {RegUnit::File::Sgpr, i}; }

} // namespace p2a::targets
