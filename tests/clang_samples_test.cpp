// clang-19's code for the samples' CUDA sources (as HIP, with the bench's
// shim for CUDA built-ins) runs in the emulator and agrees with nvcc's PTX
// run by the interpreter: the emulator models what clang emits (saveexec,
// v_cmpx, SDWA, calls and their stack, VGPR indexing, MUBUF scratch, ...),
// which is what lets bench/kernel_compare.sh set our cycles beside clang's.
#include "tests/cli_support.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace p2a::testing;
namespace fs = std::filesystem;

namespace {

const std::string kSource = P2A_SOURCE_DIR;

// Launch arguments that keep every thread of one 64-thread block busy
// (the kernels return early past their element count, and siphash reads
// each message's length from a buffer).
std::vector<std::string> launchArgs(const std::string &sample, const std::string &dir) {
  if (sample == "sha256") return {"--param", "sha256_compress_param_2=64"};
  if (sample == "chacha20") return {"--param", "chacha20_xor_param_4=64"};
  if (sample == "keccak") return {"--param", "keccak_f1600_param_1=64"};
  if (sample == "murmur3") return {"--param", "murmur3_32_param_3=64"};
  if (sample == "crc32") return {"--param", "crc32_blocks_param_2=64"};
  if (sample == "siphash") {
    const std::string lens = dir + "/lens.bin";
    std::ofstream f(lens, std::ios::binary);
    for (uint32_t t = 0; t < 64; ++t) {
      const uint32_t len = (t * 37) % 65; // every tail length, stride 64
      f.write(reinterpret_cast<const char *>(&len), 4);
    }
    return {"--param", "siphash24_kernel_param_3=64", "--param", "siphash24_kernel_param_5=64", "--input",
            "siphash24_kernel_param_2=" + lens};
  }
  return {};
}

void checkClangBuild(const std::string &sample, const std::string &target, const std::string &dir) {
  CAPTURE(sample);
  CAPTURE(target);
  const std::string object = dir + "/" + sample + "." + target + ".hsaco";
  Run c = runProgram("clang-19", {"-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-O3",
                                  "--offload-arch=" + target, "-include", kSource + "/bench/hip_shim/cuda_builtins.h",
                                  "-c", "--no-gpu-bundle-output", "-o", object,
                                  kSource + "/samples/" + sample + "/" + sample + ".cu"});
  REQUIRE_MESSAGE(c.exited(0), c.err);
  std::vector<std::string> args = {"check", kSource + "/samples/" + sample + "/" + sample + ".ptx", "--amd", object,
                                   "-mcpu=" + target, "--trials", "1"};
  for (const std::string &a : launchArgs(sample, dir))
    args.push_back(a);
  Run r = run(args);
  INFO(r.out << r.err);
  CHECK(r.exited(0));
  CHECK(contains(r.out, "result: every output buffer agrees"));
}

} // namespace

TEST_SUITE("clang_samples") {

TEST_CASE("every sample built by clang-19 passes check --amd on gfx942 and gfx1100") {
  const std::string dir = tempPath("clang_samples");
  fs::create_directories(dir);
  for (const char *target : {"gfx942", "gfx1100"})
    for (const char *sample : {"sha256", "chacha20", "keccak", "murmur3", "crc32", "calls", "permute", "generic",
                               "siphash"})
      checkClangBuild(sample, target, dir);
}

TEST_CASE("clang-19's target-specific forms pass check --amd on the other targets") {
  const std::string dir = tempPath("clang_samples_targets");
  fs::create_directories(dir);
  // calls: a stack through the private segment buffer (gfx900, gfx1030:
  // buffer_store/load, s_addk_i32) or scratch_* (gfx1200); keccak on gfx900
  // spills through it too; permute indexes VGPRs (gfx90a s_set_gpr_idx_on,
  // gfx1030 and gfx1200 v_movrels/v_movreld); siphash on gfx90a moves pairs
  // with v_pk_mov_b32; gfx1200 adds s_add_nc_u64, s_load_b96, combined waits.
  for (auto [sample, target] : {std::pair{"calls", "gfx900"}, {"keccak", "gfx900"}, {"permute", "gfx90a"},
                                {"siphash", "gfx90a"}, {"calls", "gfx1030"}, {"permute", "gfx1030"},
                                {"calls", "gfx1200"}, {"permute", "gfx1200"}, {"chacha20", "gfx1200"},
                                {"keccak", "gfx1200"}})
    checkClangBuild(sample, target, dir);
}

} // TEST_SUITE
