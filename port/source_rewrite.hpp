// CUDA source files with their inline asm ported: every statement that
// translates and proves is replaced by its HIP C++, either guarded (the
// original kept for NVIDIA: `#if defined(__HIP_PLATFORM_AMD__) ... #else
// <original> #endif`, statements next to each other in one guard, a macro
// as a whole #define per branch) or replaced outright.
//
// PTX's carry flag CC.CF between statements (add.cc in one, addc in the
// next; macros such as UADDO/UADDC that bignum code chains) becomes a
// `bool p2a_cc` declared at the top of each function body that runs such a
// statement or expands such a macro, directly or through other macros, in
// any of the files ported together.
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
  unsigned carryDeclarations = 0; // function bodies given `bool p2a_cc`
};

// Ports the files together (macros defined in one and expanded in another
// share the carry flag); results in input order.
std::vector<PortedFile> portSources(const std::vector<const std::string *> &texts, PortMode mode,
                                    cost::CostModel &costs, PortStyle style = PortStyle::Builtin);
PortedFile portSource(const std::string &text, PortMode mode, cost::CostModel &costs,
                      PortStyle style = PortStyle::Builtin);

} // namespace p2a::port
