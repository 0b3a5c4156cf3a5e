// Helpers for the end-to-end tests: the built driver (P2A_BINARY) run as a
// child process with NO_COLOR=1, stdin from a file, stdout and stderr to
// files in a private temporary directory, killed past a deadline.
#pragma once

#include <doctest/doctest.h>

#include "validation/ptx_interpreter.hpp"

#include <llvm/Support/JSON.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace p2a::cost {
class CostModel;
}
namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::testing {

// The tests' one cost model (cached per rule and target across test cases).
cost::CostModel &costModel();

// The targets the heavy `check` loops run on: all six in the release
// suite; under the sanitizers (tests/CMakeLists.txt, P2A_SANITIZED) one of
// each family (GCN gfx900, CDNA gfx942, RDNA wave32 gfx1100). The
// instrumented emulator and interpreter take about ten times as long, and
// the other three targets run no code path of ours those do not.
std::vector<const targets::TargetInfo *> checkedTargets();
// The targets the `item`-th of a loop's many kernels (samples, fixture
// kernels) runs on: all six in the release suite; under the sanitizers one
// of those three families, in turn (item % 3), so that each family still
// runs a third of the kernels.
std::vector<const targets::TargetInfo *> checkedTargets(size_t item);
// Whether `t` is one of those (for loops over every target that keep their
// shape: the release suite skips nothing, so its random draws are unchanged).
// With `serves`, the turn goes round only the families it accepts (a rule's
// targets), so that no item is left without one.
bool checkedOn(const targets::TargetInfo &t, size_t item,
               const std::function<bool(const targets::TargetInfo &)> &serves = nullptr);

// Runs a fixture-shaped kernel (.param .u64 in, .param .u64 out) in the PTX
// interpreter: `in` and a zeroed `out` of outBytes placed in `mem` under
// those names.
std::optional<interp::Fault> runFixtureKernel(const kernel::Kernel &k, const std::vector<uint8_t> &in,
                                              size_t outBytes, Dim3 grid, Dim3 block, GlobalMemory &mem);

namespace fs = std::filesystem;

std::string slurp(const std::string &path);
// How many times `needle` occurs in `hay` (overlapping occurrences too).
unsigned countOf(const std::string &hay, const std::string &needle);
void spit(const std::string &path, const std::string &data);
// The suite's private temporary directory (removed at exit), a fresh path in
// it, and a fresh file with contents.
const std::string &tempDir();
std::string tempPath(const std::string &stem);
std::string tempFile(const std::string &stem, const std::string &contents);

struct Run {
  int exitCode = -1; // -1 when the child did not exit normally
  int signal = 0;    // the terminating signal, if any
  uint64_t peakKiB = 0; // the child's peak resident memory (wait4's ru_maxrss)
  std::string out, err;
  bool exited(int code) const { return signal == 0 && exitCode == code; }
};
doctest::String toString(const Run &r);

// Runs the driver with `args`; stdin is `stdinText` (an empty file by
// default); `env` entries ("NAME=value") are added to or replace the
// environment. A run still going after `deadlineSeconds` is killed. With
// `signalAfterMs`, the child is sent `signalToSend` that long after it started
// (if it is still running).
Run run(const std::vector<std::string> &args, const std::string &stdinText = "",
        const std::vector<std::string> &env = {}, unsigned deadlineSeconds = 300, unsigned signalAfterMs = 0,
        int signalToSend = 2 /* SIGINT */);

// The same for another program (found on PATH): clang-19, ld.lld-19.
Run runProgram(const std::string &program, const std::vector<std::string> &args, const std::string &stdinText = "",
               const std::vector<std::string> &env = {}, unsigned deadlineSeconds = 300, unsigned signalAfterMs = 0,
               int signalToSend = 2 /* SIGINT */);

bool contains(const std::string &hay, const std::string &needle);
std::vector<std::string> lines(const std::string &s);
llvm::json::Value parseJson(const std::string &text);
std::string diagnostic(const std::string &file, unsigned line, unsigned col, const std::string &message,
                       const std::string &sourceLine);
std::vector<std::string> samplePtxFiles(const std::string &under);
bool isElfForAmdgpu(const std::string &bytes);

} // namespace p2a::testing
