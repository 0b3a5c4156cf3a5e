#include "targets/target_info.hpp"

namespace p2a::targets {

const std::vector<TargetInfo> &allTargets() {
  static const std::vector<TargetInfo> targets = {
      //  name      product            gen               wave xnor   xor3   vop3lit cbus aligned
      {"gfx900", "Vega 10 (GCN5)", Generation::GFX9, 64, false, false, false, 1, false},
      {"gfx90a", "MI200 (CDNA2)", Generation::GFX9, 64, true, false, false, 1, true},
      {"gfx942", "MI300 (CDNA3)", Generation::GFX9, 64, true, false, false, 1, true},
      {"gfx1030", "RX 6800 (RDNA2)", Generation::GFX10, 32, true, true, true, 2, false},
      {"gfx1100", "RX 7900 (RDNA3)", Generation::GFX11, 32, true, true, true, 2, false},
      {"gfx1200", "RX 9070 (RDNA4)", Generation::GFX12, 32, true, true, true, 2, false},
  };
  return targets;
}

const TargetInfo *findTarget(std::string_view name) {
  for (const TargetInfo &t : allTargets())
    if (t.name == name)
      return &t;
  return nullptr;
}

const TargetInfo &defaultTarget() { return *findTarget("gfx942"); }

} // namespace p2a::targets
