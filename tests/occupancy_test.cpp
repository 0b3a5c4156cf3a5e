// Occupancy per target against what llc-19 reports ("; Occupancy:") for
// kernels using 24..129 VGPRs (measured with an inline-asm clobber of
// v{N-1}; 1-VGPR kernels report the hardware's wave slots, except that
// llc caps gfx900 at 8 for its default 1024-thread workgroups).
#include "targets/occupancy.hpp"
#include "targets/target_info.hpp"

#include <doctest/doctest.h>

using namespace p2a::targets;

TEST_SUITE("occupancy") {

TEST_CASE("waves per SIMD follow each target's VGPR file, granule and wave slots") {
  struct Row {
    const char *cpu;
    unsigned vgprs, waves;
  };
  const Row rows[] = {
      {"gfx900", 40, 6},  {"gfx900", 64, 4},  {"gfx900", 65, 3},  {"gfx900", 100, 2},  {"gfx900", 129, 1},
      {"gfx90a", 64, 8},  {"gfx90a", 65, 7},  {"gfx90a", 100, 4}, {"gfx90a", 129, 3},  {"gfx942", 65, 7},
      {"gfx942", 129, 3}, {"gfx1030", 64, 16}, {"gfx1030", 65, 12}, {"gfx1030", 100, 9}, {"gfx1030", 129, 7},
      {"gfx1100", 65, 16}, {"gfx1100", 100, 12}, {"gfx1100", 129, 10}, {"gfx1200", 100, 12}, {"gfx1200", 129, 10},
  };
  for (const Row &r : rows) {
    CAPTURE(r.cpu);
    CAPTURE(r.vgprs);
    const Occupancy o = occupancy(*findTarget(r.cpu), r.vgprs, 20, 0);
    CHECK(o.wavesPerSimd == r.waves);
  }
  CHECK(occupancy(*findTarget("gfx942"), 8, 20, 0).limitedBy == "wave slots");
  CHECK(occupancy(*findTarget("gfx1100"), 200, 20, 0).limitedBy == "VGPRs");
}

TEST_CASE("SGPRs limit gfx9 and CDNA only; LDS limits workgroups per CU") {
  // 100 SGPRs (+6 reserved) round to 112: 800 / 112 = 7 waves.
  const Occupancy g9 = occupancy(*findTarget("gfx900"), 8, 100, 0);
  CHECK(g9.wavesPerSimd == 7);
  CHECK(g9.limitedBy == "SGPRs");
  CHECK(occupancy(*findTarget("gfx1030"), 8, 100, 0).wavesPerSimd == 16);
  CHECK(occupancy(*findTarget("gfx942"), 8, 20, 20000).workgroupsPerCuByLds == 3);
  CHECK(occupancy(*findTarget("gfx942"), 8, 20, 0).workgroupsPerCuByLds == 0);
}

} // TEST_SUITE
