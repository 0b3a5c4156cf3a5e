#include "targets/occupancy.hpp"

#include <algorithm>

namespace p2a::targets {

namespace {

unsigned roundUp(unsigned v, unsigned g) { return (std::max(v, 1u) + g - 1) / g * g; }

} // namespace

Occupancy occupancy(const TargetInfo &t, unsigned vgprs, unsigned sgprs, unsigned ldsBytes) {
  unsigned total, granule, slots;
  if (t.generation == Generation::GFX9) {
    total = t.is_cdna ? 512 : 256;
    granule = t.is_cdna ? 8 : 4;
    slots = t.is_cdna ? 8 : 10;
  } else if (t.generation == Generation::GFX10) {
    total = 1024;
    granule = 16;
    slots = 16;
  } else {
    total = 1536;
    granule = 24;
    slots = 16;
  }
  Occupancy o;
  o.wavesPerSimd = slots;
  o.limitedBy = "wave slots";
  const unsigned byVgprs = total / roundUp(vgprs, granule);
  if (byVgprs < o.wavesPerSimd) {
    o.wavesPerSimd = byVgprs;
    o.limitedBy = "VGPRs";
  }
  // gfx9/CDNA share 800 SGPRs per SIMD in granules of 16, counting the
  // VCC, FLAT_SCRATCH and XNACK_MASK pairs the hardware reserves; gfx10+
  // give every wave its SGPRs.
  if (t.generation == Generation::GFX9) {
    const unsigned bySgprs = 800 / roundUp(sgprs + 6, 16);
    if (bySgprs < o.wavesPerSimd) {
      o.wavesPerSimd = bySgprs;
      o.limitedBy = "SGPRs";
    }
  }
  if (ldsBytes)
    o.workgroupsPerCuByLds = kLdsBytesPerWorkgroup / ldsBytes;
  return o;
}

namespace {
// SIMDs per CU: 4 on gfx9/CDNA, 2 SIMD32s on RDNA (in CU mode; a WGP has 4).
unsigned simdsPerCu(const TargetInfo &t) { return t.isGfx10Plus() ? 2 : 4; }
} // namespace

unsigned wavesPerSimdNeeded(const TargetInfo &t, unsigned blocks, unsigned threads) {
  const unsigned wavesPerBlock = (threads + t.wave_size - 1) / t.wave_size;
  return (blocks * wavesPerBlock + simdsPerCu(t) - 1) / simdsPerCu(t);
}

unsigned maxWorkgroupThreads(const TargetInfo &t, unsigned vgprs, unsigned sgprs) {
  return std::min(1024u, occupancy(t, vgprs, sgprs, 0).wavesPerSimd * simdsPerCu(t) * t.wave_size);
}

unsigned vgprsForWaves(const TargetInfo &t, unsigned waves, unsigned sgprs) {
  for (unsigned v = kMaxVgprs; v > 0; --v)
    if (occupancy(t, v, sgprs, 0).wavesPerSimd >= waves)
      return v;
  return 0;
}

} // namespace p2a::targets
