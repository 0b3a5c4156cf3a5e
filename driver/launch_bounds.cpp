#include "driver/launch_bounds.hpp"

#include "targets/occupancy.hpp"

#include <algorithm>
#include <string>

namespace p2a::module {

void checkLaunchBounds(const kernel::Kernel &k, const klower::KernelTranslation &kt, const targets::TargetInfo &t,
                       Diagnostics &warnings) {
  const kernel::LaunchBounds &b = k.bounds;
  // .maxnreg N: registers per thread. A VGPR holds one 32-bit value per
  // lane, as an NVIDIA register does per thread.
  if (b.maxRegisters && kt.numVgprs > b.maxRegisters)
    warning(warnings, b.maxRegistersLoc, "launch-bounds",
            ".maxnreg " + std::to_string(b.maxRegisters) + " is not honoured: kernel '" + k.name + "' uses " +
                std::to_string(kt.numVgprs) + " VGPRs on " + t.name + " (the translation cannot spill yet)");
  // .minnctapersm K: K blocks of the largest size the kernel allows resident
  // on one multiprocessor at once. A CU has 4 SIMDs on gfx9/CDNA; on RDNA a
  // CU has 2 SIMD32s (a WGP 4). The blocks' waves are spread over them.
  if (b.minBlocksPerSm) {
    const unsigned threads = b.blockLimit();
    const unsigned wavesPerBlock = (threads + t.wave_size - 1) / t.wave_size;
    const unsigned simds = t.isGfx10Plus() ? 2 : 4;
    const unsigned needed = (b.minBlocksPerSm * wavesPerBlock + simds - 1) / simds;
    const targets::Occupancy o = targets::occupancy(t, kt.numVgprs, kt.numSgprs, kt.groupBytes);
    const unsigned byLds = o.workgroupsPerCuByLds ? o.workgroupsPerCuByLds : ~0u;
    if (o.wavesPerSimd < needed || byLds < b.minBlocksPerSm)
      warning(warnings, b.minBlocksLoc, "launch-bounds",
              ".minnctapersm " + std::to_string(b.minBlocksPerSm) + " is not honoured on " + t.name + ": " +
                  std::to_string(b.minBlocksPerSm) + " blocks of " + std::to_string(threads) + " threads need " +
                  std::to_string(needed) + " waves per SIMD" +
                  (byLds < b.minBlocksPerSm ? " and " + std::to_string(b.minBlocksPerSm) + " workgroups' LDS per CU" : "") +
                  "; kernel '" + k.name + "' allows " + std::to_string(o.wavesPerSimd) + " (limited by " +
                  (byLds < b.minBlocksPerSm ? "LDS" : o.limitedBy) + ")");
  }
}

} // namespace p2a::module
