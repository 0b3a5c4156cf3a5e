// One inline asm statement through the translator: the snippet it reads
// as, the rules the table selects (for the baseline target, whose
// instructions every AMD target has), the HIP C++ they spell, and that
// C++'s proof against the PTX. A statement that cannot be translated
// faithfully gets a located warning and is left as it is.
#pragma once

#include "port/asm_snippet.hpp"
#include "port/cxx_from_mir.hpp"
#include "port/inline_asm_scanner.hpp"
#include "port/site_proof.hpp"
#include "ptx/diagnostic.hpp"

#include <string>
#include <vector>

namespace p2a::cost {
class CostModel;
}

namespace p2a::port {

// The target rules are selected for: the oldest generation, so that every
// instruction spelled exists on every target (clang reselects per target).
inline constexpr const char *kBaselineTarget = "gfx900";

// --style: HIP C++ (builtins and operators), or AMDGPU inline asm per target.
enum class PortStyle { Builtin, Asm };

struct PortedSite {
  const AsmStatement *statement = nullptr;
  bool ported = false;
  std::string ptx;                // the template as PTX, operands named %p2a_N
  std::vector<std::string> rules; // the rule of each PTX instruction
  CxxSite cxx;
  SiteProof proof;
  // --style=asm: the replacement block ("{ ... }", lines unindented), and
  // whether its text differs by target (#if branches inside).
  std::string asmBlock;
  bool asmPerTarget = false;
  Diagnostics diags; // located in the source file
};

PortedSite portSite(const AsmStatement &st, const LineTable &lines, cost::CostModel &costs,
                    PortStyle style = PortStyle::Builtin);

} // namespace p2a::port
