// Launch bounds a kernel declares (.maxntid, .reqntid, .minnctapersm,
// .maxnreg; kernel::LaunchBounds) checked against its translation. The
// workgroup sizes go into the code-object metadata (lowering/abi.cpp); what
// the translation cannot honour -- more VGPRs than .maxnreg, fewer waves
// than .minnctapersm asks for (nothing spills yet) -- is a warning,
// -Wlaunch-bounds, at the directive.
#pragma once

#include "kernel/kernel_ir.hpp"
#include "lowering/kernel_lowering.hpp"
#include "ptx/diagnostic.hpp"
#include "targets/target_info.hpp"

namespace p2a::module {

void checkLaunchBounds(const kernel::LaunchBounds &b, const klower::KernelTranslation &kt, const targets::TargetInfo &t,
                       Diagnostics &warnings);

} // namespace p2a::module
