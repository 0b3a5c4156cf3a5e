#include "targets/memory_model.hpp"

#include "targets/wait_states.hpp"

namespace p2a::targets {

const char *fenceScopeName(FenceScope s) {
  switch (s) {
  case FenceScope::Cta: return "cta";
  case FenceScope::Gpu: return "gpu";
  case FenceScope::Sys: return "sys";
  }
  return "?";
}

namespace {

// gfx12's cache scopes: LLVM serves a workgroup with SCOPE_SE (a workgroup
// in WGP mode spans the CU pair), the agent with SCOPE_DEV.
std::string gfx12Scope(FenceScope s) {
  return s == FenceScope::Cta ? "scope:SCOPE_SE" : s == FenceScope::Gpu ? "scope:SCOPE_DEV" : "scope:SCOPE_SYS";
}

} // namespace

std::vector<std::string> releaseSequence(FenceScope s, const TargetInfo &t) {
  if (t.generation >= Generation::GFX12) // write back, then wait for it
    return {"global_wb " + gfx12Scope(s), waitInstruction(Counter::VmStore, 0, t)};
  if (t.name == "gfx942" && s != FenceScope::Cta) // MI300: L2 write-back (sc1 agent, sc0 sc1 system)
    return {s == FenceScope::Gpu ? "buffer_wbl2 sc1" : "buffer_wbl2 sc0 sc1", waitInstruction(Counter::VmLoad, 0, t)};
  if (t.name == "gfx90a" && s == FenceScope::Sys) // MI200: L2 is not coherent with the host
    return {"buffer_wbl2", waitInstruction(Counter::VmLoad, 0, t)};
  return {}; // gfx9 L1 and gfx10/11 L0/L1 are write-through: the drain suffices
}

std::vector<std::string> acquireSequence(FenceScope s, const TargetInfo &t) {
  if (t.generation >= Generation::GFX12)
    return {"global_inv " + gfx12Scope(s), waitInstruction(Counter::VmLoad, 0, t)};
  if (t.isGfx10Plus()) // a workgroup may span the two CUs of a WGP: their L0s differ
    return s == FenceScope::Cta ? std::vector<std::string>{"buffer_gl0_inv"}
                                : std::vector<std::string>{"buffer_gl1_inv", "buffer_gl0_inv"};
  if (s == FenceScope::Cta) // one CU's L1 serves the whole workgroup
    return {};
  if (t.name == "gfx942")
    return {s == FenceScope::Gpu ? "buffer_inv sc1" : "buffer_inv sc0 sc1", waitInstruction(Counter::VmLoad, 0, t)};
  if (t.name == "gfx90a" && s == FenceScope::Sys)
    return {"buffer_invl2", "buffer_wbinvl1_vol", waitInstruction(Counter::VmLoad, 0, t)};
  return {"buffer_wbinvl1_vol", waitInstruction(Counter::VmLoad, 0, t)};
}

bool isCacheMaintenance(const std::string &m) {
  static const char *names[] = {"buffer_wbinvl1_vol", "buffer_wbl2",    "buffer_inv", "buffer_invl2",
                                "buffer_gl0_inv",     "buffer_gl1_inv", "global_wb",  "global_inv"};
  for (const char *n : names)
    if (m == n)
      return true;
  return false;
}

} // namespace p2a::targets
