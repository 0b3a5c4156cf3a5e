#include "driver/launch_bounds.hpp"

#include "targets/occupancy.hpp"

#include <algorithm>
#include <string>

namespace p2a::module {

void checkLaunchBounds(const kernel::LaunchBounds &b, const klower::KernelTranslation &kt, const targets::TargetInfo &t,
                       Diagnostics &warnings) {
  // .maxnreg N: registers per thread. A VGPR holds one 32-bit value per
  // lane, as an NVIDIA register does per thread. The register assignment
  // spills to stay within it (lowering/spilling.cpp); this is what it could not reach.
  if (b.maxRegisters && kt.numVgprs > b.maxRegisters)
    warning(warnings, b.maxRegistersLoc, "launch-bounds",
            ".maxnreg " + std::to_string(b.maxRegisters) + " is not honoured: kernel '" + kt.name + "' uses " +
                std::to_string(kt.numVgprs) + " VGPRs on " + t.name + " (more than its live values and spill temporaries fit in)");
  // .minnctapersm K: K blocks of the largest size the kernel allows resident
  // on one multiprocessor at once (targets::wavesPerSimdNeeded). The register
  // assignment spills to allow them where VGPRs are the limit.
  if (b.minBlocksPerSm) {
    const unsigned threads = b.blockLimit();
    const unsigned needed = targets::wavesPerSimdNeeded(t, b.minBlocksPerSm, threads);
    const targets::Occupancy o = targets::occupancy(t, kt.numVgprs, kt.numSgprs, kt.groupBytes);
    const unsigned byLds = o.workgroupsPerCuByLds ? o.workgroupsPerCuByLds : ~0u;
    if (o.wavesPerSimd < needed || byLds < b.minBlocksPerSm)
      warning(warnings, b.minBlocksLoc, "launch-bounds",
              ".minnctapersm " + std::to_string(b.minBlocksPerSm) + " is not honoured on " + t.name + ": " +
                  std::to_string(b.minBlocksPerSm) + " blocks of " + std::to_string(threads) + " threads need " +
                  std::to_string(needed) + " waves per SIMD" +
                  (byLds < b.minBlocksPerSm ? " and " + std::to_string(b.minBlocksPerSm) + " workgroups' LDS per CU" : "") +
                  "; kernel '" + kt.name + "' allows " + std::to_string(o.wavesPerSimd) + " (limited by " +
                  (byLds < b.minBlocksPerSm ? "LDS" : o.limitedBy) + ")");
  }
}

} // namespace p2a::module
