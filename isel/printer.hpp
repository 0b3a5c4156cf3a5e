// Machine instructions -> assembly text LLVM MC accepts for the target.
#pragma once

#include "isel/machine_ir.hpp"

#include <string>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::printer {

std::string printInst(const mir::MInst &mi, const mir::Function &fn, const mir::Allocation &a,
                      const targets::TargetInfo &t);
// The physical register(s) a vreg was given, e.g. "v3", "v[4:5]", "s[0:1]", "s2".
std::string physName(unsigned vreg, const mir::Function &fn, const mir::Allocation &a, const targets::TargetInfo &t);

} // namespace p2a::printer
