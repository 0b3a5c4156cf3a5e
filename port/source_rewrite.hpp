// A CUDA source file with its inline asm ported: every statement that
// translates and proves is replaced by its HIP C++, either guarded (the
// original kept for NVIDIA: `#if defined(__HIP_PLATFORM_AMD__) ... #else
// <original> #endif`, statements next to each other in one guard, a macro
// as a whole #define per branch) or replaced outright. The carry flag
// between statements of one block is a `bool p2a_cc` declared before the
// first statement that sets it.
#pragma once

#include "port/asm_site.hpp"

#include <string>
#include <vector>

namespace p2a::port {

enum class PortMode { Guard, Replace };

inline constexpr const char *kGuardCondition = "defined(__HIP_PLATFORM_AMD__)";

struct PortedFile {
  std::string text; // the rewritten source
  std::vector<AsmStatement> statements;
  std::vector<PortedSite> sites; // one per statement, in source order
  Diagnostics diags;             // located in the source, in source order
  unsigned ported = 0;
};

PortedFile portSource(const std::string &text, PortMode mode, cost::CostModel &costs);

} // namespace p2a::port
