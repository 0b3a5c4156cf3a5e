// Cache maintenance for PTX fences and barriers, per target, as data: the
// sequences LLVM's AMDGPU memory model emits for an acq_rel fence at each
// scope (AMDGPUUsage "Memory Model GFX942", "... GFX10-GFX11", "... GFX12";
// checked against llc-19 output for `fence syncscope(...) seq_cst` on each
// target). A PTX fence (membar.{cta,gl,sys}, fence.{sc,acq_rel}.scope) is a
// release followed by an acquire; bar.sync orders memory like membar.cta
// around the barrier (PTX ISA 9.7.13.1).
//
// The sequences come after every outstanding memory operation of the wave
// has been waited for (the lowering drains its counters first).
#pragma once

#include "targets/target_info.hpp"

#include <string>
#include <vector>

namespace p2a::targets {

// PTX scopes (PTX ISA 8.5 "Scope"): .cta is the workgroup, .gpu (membar.gl)
// the agent, .sys the system. A .cluster scope is served by .gpu.
enum class FenceScope { Cta, Gpu, Sys };
const char *fenceScopeName(FenceScope s);

// Write back what this wave wrote so that other agents at the scope see it.
std::vector<std::string> releaseSequence(FenceScope s, const TargetInfo &t);
// Invalidate what this wave might read stale at the scope.
std::vector<std::string> acquireSequence(FenceScope s, const TargetInfo &t);

// Whether `mnemonic` is one of the cache-maintenance instructions above
// (the emulator's single coherent memory gives them no effect).
bool isCacheMaintenance(const std::string &mnemonic);

} // namespace p2a::targets
