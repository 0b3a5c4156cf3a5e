// `ptx2amdgpu check`: translation validation by execution. The PTX kernel
// runs in the reference interpreter, its translation (assembled by LLVM MC,
// decoded back from the object) in the AMDGPU emulator, on the same random
// inputs at the same addresses; every buffer is compared afterwards. On a
// difference, both sides rerun with a trace of the thread that wrote the
// first differing element, to name the first PTX statement whose value
// differs and the rule and AMD instructions it became.
#pragma once

#include "isel/cost_model.hpp"
#include "ptx/diagnostic.hpp"
#include "rules/rule.hpp"
#include "validation/memory.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::check {

// A buffer's bytes before the run (`check --fill`): random (the default),
// all zero, all ones, or the 32-bit words 0, 1, 2, ... (little-endian).
enum class Fill { Random, Zero, Ones, Seq32 };

struct Options {
  std::string kernel;         // empty: the module's only (or first) .entry
  Dim3 grid{1, 1, 1};
  Dim3 block{64, 1, 1};
  unsigned trials = 3;
  uint64_t seed = 1;
  std::map<std::string, uint64_t> bufferBytes; // pointer parameter -> size; others inferred from the launch
  std::map<std::string, uint64_t> params;      // scalar parameter -> value; others random per trial
  // Known leading bytes of a buffer in every trial (`check --input`, or a
  // hardware-measured vector); an inferred buffer is at least this long, a
  // sized one must hold them. The rest is filled as `fills` says.
  std::map<std::string, std::vector<uint8_t>> contents;
  std::map<std::string, Fill> fills; // pointer parameter -> how its buffer starts
  // `check --dump DIR`: every buffer's final bytes from both sides, per
  // trial, as DIR/NAME.trialT.ptx and DIR/NAME.trialT.amd (raw bytes).
  std::string dumpDir;
  const rules::Rule *forcedRule = nullptr;     // tests: lower with this rule where it applies
  unsigned maxVgprs = 0, maxSgprs = 0;         // --max-vgprs / --max-sgprs (klower::Options)
  bool schedule = true;                        // -fno-schedule: statements as written (klower::Options)
  // Dynamic shared memory per block (`extern __shared__`, CUDA's launch
  // argument); unset: what the 64 KiB of LDS leave beside the static shared
  // variables, for a kernel that has dynamic shared memory.
  std::optional<unsigned> sharedBytes;
  // `check --amd`: run this AMD code object (an ELF object or a linked
  // .hsaco: a hand port compiled by hipcc or clang, a port-asm output,
  // another translator's) instead of our translation, kernel `amdKernel`
  // in it (empty: the PTX kernel's name). It must be built for the target.
  std::string amdObject;
  std::string amdKernel;
  // Report the first trial's executed instructions and cycle estimate
  // (emu::RunStats): the command line asks for it; it costs a scheduling-
  // model query per distinct instruction, which test suites running
  // thousands of checks do without.
  bool estimate = false;
  // Progress of a long run, for people: called after each block of each side
  // of each trial with what is running ("trial 1 of 3, PTX interpreter") and
  // the blocks done of the grid's.
  std::function<void(const std::string &what, uint64_t blocksDone, uint64_t blocks)> progress;
};

// Launches and memory check runs: every thread of the grid runs in the
// interpreter and the emulator, and every buffer and module variable is held
// on both sides.
inline constexpr uint64_t kMaxThreads = 1024ull * 65535;  // 67,107,840
inline constexpr uint64_t kMaxBufferBytesInAll = 1ull << 30;

// Race: the outputs differ where two threads of the PTX kernel store
// different values to the same byte with nothing ordering them, so either
// result is allowed (`check` exits 3), not a translation error.
enum class Status { Pass, Mismatch, Race, Error };

struct Result {
  Status status = Status::Error;
  Diagnostics diagnostics; // located errors (parse, decode, translation, PTX faults)
  std::string report;      // what was run and what was found, for people
  // On a mismatch: the rule blamed (empty if none could be named).
  std::string blamedRule;
  ::ptx::ast::SourceLoc blamedLoc;
};

// `costs` chooses rules and holds the assemblers (one per process is enough:
// it caches per rule and target).
Result run(const std::string &source, const targets::TargetInfo &t, const Options &options, cost::CostModel &costs);

} // namespace p2a::check
