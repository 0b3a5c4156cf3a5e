// Machine instructions -> assembly text LLVM MC accepts for the target.
#pragma once

#include "isel/machine_ir.hpp"

#include <string>
#include <vector>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::printer {

std::string printInst(const mir::MInst &mi, const mir::Function &fn, const mir::Allocation &a,
                      const targets::TargetInfo &t);
// The operand or instruction with physical registers for virtual ones, as
// the allocation assigned them (LLVM's VirtRegRewriter): a lane mask is an
// SGPR (wave32) or SGPR pair, a 64-bit value or rule pair a register pair.
mir::MOperand physical(const mir::MOperand &o, const mir::Function &fn, const mir::Allocation &a,
                       const targets::TargetInfo &t);
mir::MInst physical(const mir::MInst &mi, const mir::Function &fn, const mir::Allocation &a,
                    const targets::TargetInfo &t);
// The instructions `mi` stands for when printed: S_PC_REL_ADDRESS is three
// (s_getpc_b64, s_add_u32, s_addc_u32), four where s_getpc_b64 needs its
// high word sign-extended (gfx12); any other instruction itself.
std::vector<mir::MInst> expandBundle(const mir::MInst &mi, const targets::TargetInfo &t);
// The physical register(s) a vreg was given, e.g. "v3", "v[4:5]", "s[0:1]", "s2".
std::string physName(unsigned vreg, const mir::Function &fn, const mir::Allocation &a, const targets::TargetInfo &t);

} // namespace p2a::printer
