// The PTX interpreter against NVIDIA hardware (tests/hardware/README.md).
// Every fixture-shaped kernel of the record ran on an NVIDIA GPU over the
// inputs of tests/hardware/slot_inputs.hpp; the record keeps a digest of each
// warp's outputs. Here the same kernels run in the interpreter over the same
// inputs, and every warp's digest must match: the semantics the rule proofs
// and `check` rest on are then the hardware's, on edge cases the PTX ISA's
// prose leaves to the reader. With P2A_HARDWARE_OUTPUTS naming the record
// run's outputs.bin, a difference is shown thread by thread. The kernels
// written for the record (tests/hardware/*.ptx) also run through `check`
// on the recorded inputs, so their translations agree with the hardware too
// (the fixtures' translations are checked in validation_test.cpp).
#include "grammar/parser.hpp"
#include "kernel/kernel_ir.hpp"
#include "targets/target_info.hpp"
#include "validation/check.hpp"
#include "validation/ptx_interpreter.hpp"

#include "tests/cli_support.hpp"
#include "tests/hardware/slot_inputs.hpp"

#include <doctest/doctest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace p2a;

namespace {

struct RecordLine {
  std::string file, kernel;
  std::vector<uint32_t> digests; // one per warp
};

std::vector<RecordLine> readRecord() {
  std::ifstream in(std::string(P2A_SOURCE_DIR) + "/tests/hardware/sm90_record.txt");
  REQUIRE(in);
  std::vector<RecordLine> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream ss(line);
    RecordLine r;
    ss >> r.file >> r.kernel;
    std::string word;
    while (ss >> word)
      r.digests.push_back(uint32_t(std::stoul(word, nullptr, 16)));
    REQUIRE_MESSAGE(r.digests.size() == hardware::kThreads / hardware::kThreadsPerDigest, line);
    lines.push_back(std::move(r));
  }
  return lines;
}

std::string recordFilePath(const std::string &file) {
  const std::string fixture = std::string(P2A_SOURCE_DIR) + "/tests/fixtures/" + file;
  return std::ifstream(fixture) ? fixture : std::string(P2A_SOURCE_DIR) + "/tests/hardware/" + file;
}

// The hardware's whole outputs, when a record run's outputs.bin is at hand.
std::vector<uint8_t> hardwareOutputs() {
  const char *path = std::getenv("P2A_HARDWARE_OUTPUTS");
  if (!path)
    return {};
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string hex64(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016" PRIx64, v);
  return b;
}

} // namespace

TEST_CASE("the PTX interpreter computes what NVIDIA hardware computed, warp by warp, on every recorded kernel") {
  const std::vector<RecordLine> record = readRecord();
  CHECK(record.size() >= 1000);
  const std::vector<uint8_t> in = hardware::slotInputs();
  const std::vector<uint8_t> hwOut = hardwareOutputs();
  const size_t outBytes = size_t(hardware::kThreads) * hardware::kOutBytesPerThread;
  const size_t warpBytes = size_t(hardware::kThreadsPerDigest) * hardware::kOutBytesPerThread;

  std::map<std::string, std::unique_ptr<::ptx::ParseResult>> modules;
  unsigned agreeing = 0;
  for (size_t index = 0; index < record.size(); ++index) {
    const RecordLine &r = record[index];
    CAPTURE(r.file);
    CAPTURE(r.kernel);
    auto &module = modules[r.file];
    if (!module) {
      module = std::make_unique<::ptx::ParseResult>(::ptx::parseModule(p2a::testing::slurp(recordFilePath(r.file))));
      REQUIRE(module->ok());
    }
    const ::ptx::ast::Function *fn = nullptr;
    for (const auto &f : module->module.functions)
      if (f.name == r.kernel)
        fn = &f;
    REQUIRE(fn);
    Diagnostics d;
    std::optional<kernel::Kernel> k = kernel::decodeKernel(module->module, *fn, d);
    REQUIRE(k);

    GlobalMemory mem;
    std::optional<interp::Fault> fault =
        p2a::testing::runFixtureKernel(*k, in, outBytes, {hardware::kBlocks, 1, 1}, {hardware::kThreadsPerBlock, 1, 1}, mem);
    if (fault) {
      FAIL_CHECK(r.file << " " << r.kernel << ": the interpreter faulted: " << fault->message);
      continue;
    }
    const uint8_t *out = mem.byName("out")->bytes.data();

    // Every differing warp is named; with the hardware's outputs at hand, the
    // first differing threads too (inputs, both results).
    std::ostringstream warps, threads;
    unsigned differingWarps = 0, shownThreads = 0;
    for (unsigned w = 0; w < r.digests.size(); ++w) {
      if (hardware::digest(out + w * warpBytes, warpBytes) == r.digests[w])
        continue;
      warps << (differingWarps++ ? ", " : "") << w;
      if (hwOut.size() < (index + 1) * outBytes)
        continue;
      const uint8_t *hw = hwOut.data() + index * outBytes;
      for (unsigned t = w * hardware::kThreadsPerDigest; t < (w + 1) * hardware::kThreadsPerDigest; ++t) {
        const uint64_t ours = loadLE(out + t * 8, 8), theirs = loadLE(hw + t * 8, 8);
        if (ours == theirs || ++shownThreads > 6)
          continue;
        threads << "\n  thread " << t << ": slots";
        for (unsigned s = 0; s < hardware::kSlotsPerThread; ++s)
          threads << " " << hex64(loadLE(in.data() + t * hardware::kInBytesPerThread + 8 * s, 8));
        threads << " -> interpreter " << hex64(ours) << ", NVIDIA " << hex64(theirs);
      }
    }
    const bool same = differingWarps == 0;
    if (!same)
      FAIL_CHECK(r.file << " " << r.kernel << ": " << differingWarps << " warps differ from the NVIDIA record ("
                        << warps.str() << ")" << threads.str());
    agreeing += same;
  }
  MESSAGE(agreeing << " of " << record.size() << " recorded kernels agree with the hardware on every warp");
}

TEST_CASE("the record's own kernels (division, warps, fns, atomics, integer forms, video) translate as the interpreter runs them on the recorded inputs") {
  // check runs the interpreter (held to the record above, except
  // integer_forms.ptx, which is not in it yet) against the translation on
  // the recorded inputs. One block of 256 threads (eight warps) per kernel;
  // the video forms on one wave64 and one wave32 target (568 kernels; the
  // rule proofs cover every input on every target).
  const std::vector<uint8_t> in = hardware::slotInputs();
  for (const char *file :
       {"division_and_warps.ptx", "fns_offsets.ptx", "atomics.ptx", "integer_forms.ptx", "video_forms.ptx"}) {
    const std::string src = p2a::testing::slurp(std::string(P2A_SOURCE_DIR) + "/tests/hardware/" + file);
    ::ptx::ParseResult pr = ::ptx::parseModule(src);
    REQUIRE(pr.ok());
    const bool video = std::string(file) == "video_forms.ptx";
    unsigned kernels = 0;
    for (const auto &fn : pr.module.functions) {
      if (!fn.is_entry)
        continue;
      ++kernels;
      std::vector<const targets::TargetInfo *> targets = p2a::testing::checkedTargets(kernels);
      if (video)
        targets = {targets::findTarget("gfx942"), targets::findTarget("gfx1100")};
#ifdef P2A_SANITIZED
      // The instrumented build checks every eighth video form, on one of the
      // two targets in turn (the rest take the same code paths of ours); the
      // other kernels each run on one family in turn (cli_support.hpp).
      if (video && kernels % 8 != 1)
        continue;
      if (video)
        targets = {targets[(kernels / 8) % 2]};
#endif
      for (const targets::TargetInfo *t : targets) {
        check::Options o;
        o.kernel = fn.name;
        o.block = {hardware::kThreadsPerBlock, 1, 1};
        o.trials = 1;
        o.contents["in"] = in;
        o.bufferBytes["out"] = uint64_t(hardware::kThreadsPerBlock) * hardware::kOutBytesPerThread;
        check::Result r = check::run(src, *t, o, p2a::testing::costModel());
        CHECK_MESSAGE(r.status == check::Status::Pass, file << " " << fn.name << " on " << t->name << ": " << r.report);
      }
    }
    CHECK(kernels >= (video ? 560u : 1u));
  }
}

TEST_CASE("division by zero, which the H200 answered with all ones, is undefined behaviour the interpreter reports") {
  // tests/hardware/division_by_zero.ptx: odd divisor slots divide by 1, even
  // ones by 0. NVIDIA hardware gave all ones for the quotient and the
  // remainder at every width (tests/hardware/README.md); the PTX ISA leaves
  // the value unspecified, so the interpreter reports the division (a kernel
  // that divides by zero has a bug `check` should name) instead of choosing
  // a value the translation would then have to pay for.
  const std::string src = p2a::testing::slurp(std::string(P2A_SOURCE_DIR) + "/tests/hardware/division_by_zero.ptx");
  ::ptx::ParseResult pr = ::ptx::parseModule(src);
  REQUIRE(pr.ok());
  unsigned kernels = 0;
  for (const auto &fn : pr.module.functions) {
    Diagnostics d;
    std::optional<kernel::Kernel> k = kernel::decodeKernel(pr.module, fn, d);
    REQUIRE(k);
    ++kernels;
    for (const uint64_t divisorSlot : {uint64_t(1), uint64_t(2)}) {
      GlobalMemory mem;
      std::vector<uint8_t> in(32, 0);
      storeLE(&in[0], 8, 0x123456789abcdefull);
      storeLE(&in[8], 8, divisorSlot);
      std::optional<interp::Fault> fault = p2a::testing::runFixtureKernel(*k, in, 8, {1, 1, 1}, {1, 1, 1}, mem);
      CAPTURE(fn.name);
      if (divisorSlot % 2 == 0) {
        REQUIRE(fault);
        CHECK(fault->message.find("undefined behaviour") != std::string::npos);
      } else {
        CHECK_MESSAGE(!fault, fault->message);
      }
    }
  }
  CHECK(kernels == 8);
}
