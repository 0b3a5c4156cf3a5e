// The scopes of PTX fences and barriers. The cache maintenance each needs
// on each target is in lowering/cache_maintenance.hpp.
#pragma once

#include "targets/target_info.hpp"

#include <string>
#include <vector>

namespace p2a::targets {

// PTX scopes (PTX ISA 8.5 "Scope"): .cta is the workgroup, .gpu (membar.gl)
// the agent, .sys the system. A .cluster scope is served by .gpu.
enum class FenceScope : unsigned char { Cta, Gpu, Sys };
const char *fenceScopeName(FenceScope s);

} // namespace p2a::targets
