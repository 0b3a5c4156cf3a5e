// The passes over the laid-out kernel (mir::Function::code, physical
// registers only), run in this order by Lowering::run. Each reads
// instruction properties from the op table (lowering/instruction_facts.hpp)
// and inserts instructions; none needs anything but the function and the
// target.
#pragma once

#include "isel/machine_ir.hpp"
#include "targets/target_info.hpp"

#include <optional>
#include <string>

namespace p2a::klower {

// s_waitcnt (gfx12: s_wait_*) before every instruction that touches a
// register an outstanding load will write, and for the WAIT_LOADS and
// WAIT_ALL pseudo instructions, which it removes (wait_insertion.cpp).
namespace wait_insertion {
void run(mir::Function &fn, const targets::TargetInfo &t);
}

// The wait states the target's hazard table requires: s_nop, or a v_nop
// where only a VALU instruction clears the hazard (hazards.cpp).
namespace hazard_recognition {
void run(mir::Function &fn, const targets::TargetInfo &t);
}

// Branches beyond s_cbranch's 16-bit reach become long jumps through an
// SGPR pair above the kernel's registers (branch_relaxation.cpp); numSgprs
// grows by that pair when one is needed. noSgprPairAt: the statement of a
// far branch when no pair is left under the SGPR limit.
namespace branch_relaxation {
struct Result {
  unsigned relaxed = 0;
  std::optional<int> noSgprPairAt;
};
Result run(mir::Function &fn, const targets::TargetInfo &t, const std::string &labelPrefix, unsigned &numSgprs);
} // namespace branch_relaxation

// gfx11+: s_delay_alu hints for ALU dependencies (alu_delays.cpp); nothing
// on earlier targets.
namespace alu_delays {
void run(mir::Function &fn, const targets::TargetInfo &t);
}

} // namespace p2a::klower
