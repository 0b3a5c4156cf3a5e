// Cache maintenance for PTX fences and barriers, per target, as machine
// instructions: the sequences LLVM's AMDGPU memory model emits for an
// acq_rel fence at each scope (AMDGPUUsage "Memory Model GFX942",
// "... GFX10-GFX11", "... GFX12"; checked against llc-19 output for
// `fence syncscope(...) seq_cst` on each target). A PTX fence
// (membar.{cta,gl,sys}, fence.{sc,acq_rel}.scope) is a release followed by
// an acquire; bar.sync orders memory like membar.cta around the barrier
// (PTX ISA 9.7.13.1).
//
// The sequences come after every outstanding memory operation of the wave
// has been waited for (a WAIT_ALL before them).
#pragma once

#include "isel/machine_ir.hpp"
#include "targets/fence_scope.hpp"
#include "targets/target_info.hpp"

#include <vector>

namespace p2a::klower {

// Write back what this wave wrote so that other agents at the scope see it.
std::vector<mir::MInst> releaseSequence(targets::FenceScope s, const targets::TargetInfo &t);
// Invalidate what this wave might read stale at the scope.
std::vector<mir::MInst> acquireSequence(targets::FenceScope s, const targets::TargetInfo &t);

// The halves of a fence around an ordered access (atom .acquire/.release/
// .acq_rel, ld.acquire, st.release), as LLVM's memory model emits them:
// every outstanding memory operation of the wave waited for (WAIT_ALL),
// then releaseSequence or acquireSequence.
std::vector<mir::MInst> releaseHalf(targets::FenceScope s, const targets::TargetInfo &t);
std::vector<mir::MInst> acquireHalf(targets::FenceScope s, const targets::TargetInfo &t);

// gfx12's scope field for a PTX scope: LLVM serves a workgroup with
// SCOPE_SE (a workgroup in WGP mode spans the CU pair), the agent with
// SCOPE_DEV. Cache operations, atomics and strong loads and stores share it.
mir::CachePolicy gfx12ScopePolicy(targets::FenceScope s);

} // namespace p2a::klower
