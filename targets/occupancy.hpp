// How many waves of a kernel fit on one SIMD at once, from its register
// counts, per target: the VGPR file and its allocation granule (register
// counts round up to it), the SGPR budget on gfx9/CDNA, and the hardware's
// wave slots. Calibrated against the "; Occupancy:" llc-19 reports for
// kernels of 1..129 VGPRs on each target (AMDGPUUsage / AMDGPUBaseInfo
// getVGPRAllocGranule, getTotalNumVGPRs, getMaxWavesPerEU):
//   gfx900            256 VGPRs, granule 4,  10 waves
//   gfx90a, gfx942    512 (unified arch + acc) VGPRs, granule 8, 8 waves
//   gfx1030 (wave32)  1024 VGPRs, granule 16, 16 waves
//   gfx1100, gfx1200  1536 VGPRs, granule 24, 16 waves (wave32)
// LDS limits workgroups per CU (64 KiB on gfx9/CDNA and per RDNA WGP half).
#pragma once

#include "targets/target_info.hpp"

#include <string>

namespace p2a::targets {

struct Occupancy {
  unsigned wavesPerSimd = 0;
  std::string limitedBy;              // "VGPRs", "SGPRs" or "wave slots"
  unsigned workgroupsPerCuByLds = 0;  // 0: the kernel uses no LDS
};

Occupancy occupancy(const TargetInfo &t, unsigned vgprs, unsigned sgprs, unsigned ldsBytes);

// The waves per SIMD that `blocks` resident blocks of `threads` threads
// need (.minnctapersm): a CU has 4 SIMDs on gfx9/CDNA, on RDNA 2 SIMD32s
// (a WGP 4); the blocks' waves are spread over them.
unsigned wavesPerSimdNeeded(const TargetInfo &t, unsigned blocks, unsigned threads);

// The most VGPRs a wave may use for `waves` waves per SIMD (0 if even the
// fewest do not allow that many).
unsigned vgprsForWaves(const TargetInfo &t, unsigned waves, unsigned sgprs);

// The largest workgroup whose waves all fit on one CU at once with these
// register counts (at most 1024 threads): a larger one cannot be launched,
// as CUDA refuses a block that needs more registers than an SM has.
unsigned maxWorkgroupThreads(const TargetInfo &t, unsigned vgprs, unsigned sgprs);

} // namespace p2a::targets
