#include "lowering/cache_maintenance.hpp"

namespace p2a::klower {

using amd::Op;
using mir::CachePolicy;
using mir::MInst;
using targets::Counter;
using targets::FenceScope;
using targets::Generation;

namespace {

MInst cacheOp(Op op, CachePolicy p = CachePolicy::None) { return MInst{op, mir::noOperand(), {mir::cachePolicy(p)}}; }

MInst waitFor(Counter c) { return MInst{Op::S_WAITCNT, mir::noOperand(), {mir::waitOperand(c, 0)}}; }

// gfx942's sc bits: sc1 for the agent, sc0 sc1 for the system.
CachePolicy gfx942Scope(FenceScope s) { return s == FenceScope::Gpu ? CachePolicy::Sc1 : CachePolicy::Sc0Sc1; }

} // namespace

CachePolicy gfx12ScopePolicy(FenceScope s) {
  return s == FenceScope::Cta ? CachePolicy::ScopeSe : s == FenceScope::Gpu ? CachePolicy::ScopeDev : CachePolicy::ScopeSys;
}

std::vector<MInst> releaseSequence(FenceScope s, const targets::TargetInfo &t) {
  if (t.generation >= Generation::GFX12) // write back, then wait for it
    return {cacheOp(Op::GLOBAL_WB, gfx12ScopePolicy(s)), waitFor(Counter::VmStore)};
  if (t.name == "gfx942" && s != FenceScope::Cta) // MI300: L2 write-back
    return {cacheOp(Op::BUFFER_WBL2, gfx942Scope(s)), waitFor(Counter::VmLoad)};
  if (t.name == "gfx90a" && s == FenceScope::Sys) // MI200: L2 is not coherent with the host
    return {cacheOp(Op::BUFFER_WBL2), waitFor(Counter::VmLoad)};
  return {}; // gfx9 L1 and gfx10/11 L0/L1 are write-through: the drain suffices
}

std::vector<MInst> acquireSequence(FenceScope s, const targets::TargetInfo &t) {
  if (t.generation >= Generation::GFX12)
    return {cacheOp(Op::GLOBAL_INV, gfx12ScopePolicy(s)), waitFor(Counter::VmLoad)};
  if (t.isGfx10Plus()) // a workgroup may span the two CUs of a WGP: their L0s differ
    return s == FenceScope::Cta ? std::vector<MInst>{cacheOp(Op::BUFFER_GL0_INV)}
                                : std::vector<MInst>{cacheOp(Op::BUFFER_GL1_INV), cacheOp(Op::BUFFER_GL0_INV)};
  if (s == FenceScope::Cta) // one CU's L1 serves the whole workgroup
    return {};
  if (t.name == "gfx942")
    return {cacheOp(Op::BUFFER_INV, gfx942Scope(s)), waitFor(Counter::VmLoad)};
  if (t.name == "gfx90a" && s == FenceScope::Sys)
    return {cacheOp(Op::BUFFER_INVL2), cacheOp(Op::BUFFER_WBINVL1_VOL), waitFor(Counter::VmLoad)};
  return {cacheOp(Op::BUFFER_WBINVL1_VOL), waitFor(Counter::VmLoad)};
}

std::vector<mir::MInst> releaseHalf(targets::FenceScope s, const targets::TargetInfo &t) {
  std::vector<mir::MInst> out{{amd::Op::WAIT_ALL, mir::noOperand(), {}}};
  for (const mir::MInst &mi : releaseSequence(s, t))
    out.push_back(mi);
  return out;
}

std::vector<mir::MInst> acquireHalf(targets::FenceScope s, const targets::TargetInfo &t) {
  std::vector<mir::MInst> out{{amd::Op::WAIT_ALL, mir::noOperand(), {}}};
  for (const mir::MInst &mi : acquireSequence(s, t))
    out.push_back(mi);
  return out;
}

} // namespace p2a::klower
