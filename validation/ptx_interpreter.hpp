// The PTX reference interpreter: runs a decoded kernel (kernel::Kernel) over
// a grid, thread by thread, as the PTX ISA defines it. Arithmetic and the
// Logic & Shift family are evaluated by sem::evalPtx -- the very definitions
// the rule proofs use for the PTX side -- on concrete bit-vectors.
//
// Execution model: a block's threads run one at a time until they reach
// bar.sync or exit; when every live thread waits at the barrier, all go on
// (PTX ISA 9.7.13.1). Warps are 32 consecutive threads (%laneid, %warpid).
// Memory: global buffers at flat 64-bit addresses (shared with the AMD
// emulator, so pointers mean the same on both sides), the kernel's parameter
// block, per-block shared and per-thread local memory, module const/global
// variables. Every access is bounds-checked; a fault names the PTX line.
#pragma once

#include "kernel/kernel_ir.hpp"
#include "validation/memory.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace p2a::interp {

struct Launch {
  Dim3 grid, block;
  std::vector<uint8_t> params; // the parameter block (kernarg bytes), kernel.paramBytes long
  unsigned dynamicSharedBytes = 0; // dynamic shared memory per block (CUDA's launch argument)
};

struct Fault {
  std::string message;
  ::ptx::ast::SourceLoc loc;
  // A global access outside every buffer: where (for buffer-size inference).
  bool outOfBounds = false;
  uint64_t address = 0, bytes = 0;
};

// One executed statement of the traced thread and the values it wrote
// (registers in writtenRegisters order).
struct TraceEvent {
  unsigned stmt = 0;
  std::vector<uint64_t> values;
};

// A plain store to the watched byte (Options::watchedStores): who stored
// what, and when relative to its block's barriers.
struct WatchedStore {
  uint64_t thread = 0;        // global linear thread id
  uint64_t block = 0;         // linear block id
  unsigned barrierEpoch = 0;  // barriers the block had passed
  unsigned stmt = 0;
  uint8_t value = 0;          // the byte it left at the watched address
};

// Two accesses to one byte of shared memory, at least one a store, by
// threads of different warps of a block with no barrier between them
// (Options::sharedRace). Nothing in the PTX memory model orders them (PTX
// ISA 8.x: only bar.sync and fences do), and nothing makes two warps run
// together: the result depends on how the warps are scheduled, on NVIDIA as
// on AMD (where a wave may hold one warp, two, or part of a block). The
// threads of one warp are not reported: this interpreter runs them in
// lockstep, as NVIDIA and AMD hardware do.
struct SharedRace {
  uint64_t first = 0, second = 0; // global linear thread ids, in execution order
  unsigned firstStmt = 0, secondStmt = 0;
  bool firstStores = false, secondStores = false;
  uint64_t offset = 0; // byte offset in the block's shared memory
};

struct Options {
  uint64_t traceThread = ~0ull; // global linear thread id to trace
  std::vector<TraceEvent> *trace = nullptr;
  uint64_t stepLimit = 2'000'000; // per thread: a loop that never ends is a fault, not a hang
  // Records which thread last stored to this global address (for `check`'s
  // trace of a differing output element).
  uint64_t watchAddress = 0;
  uint64_t *lastWriter = nullptr; // global linear thread id, ~0 if none
  // Every plain store to watchAddress, in execution order (check tells a
  // race in the kernel from a translation error with them).
  std::vector<WatchedStore> *watchedStores = nullptr;
  // The first race between warps in shared memory, if any (SharedRace).
  std::optional<SharedRace> *sharedRace = nullptr;
  // Called after each block with the number of blocks done (progress of long runs).
  std::function<void(uint64_t)> afterBlock;
};

// Runs the whole grid. Module const/global variables are placed in `memory`
// (once) under their names. Returns the first fault, if any.
std::optional<Fault> run(const kernel::Kernel &k, const Launch &launch, GlobalMemory &memory,
                         const Options &options = {});

} // namespace p2a::interp
