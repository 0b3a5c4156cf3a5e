// The AMDGPU emulator: runs a kernel from its code object (code_object.hpp)
// wave by wave, as AMD's ISA guides define the instructions:
//   * waves of 64 lanes (gfx9, CDNA) or 32 (gfx10+), with EXEC, VCC, SCC,
//     SGPRs and VGPRs (accesses beyond what the descriptor allocates fault);
//   * the initial state the kernel descriptor requests (user SGPRs: kernarg
//     and dispatch pointers; system SGPRs: workgroup IDs; work-item IDs in
//     v0..v2 or packed in v0);
//   * global memory (the same GlobalMemory the PTX interpreter uses), the
//     kernarg segment, LDS, all bounds-checked;
//   * branches, s_barrier, s_endpgm.
// VALU and SALU results come from amd::opDef(op).semantics -- the same
// definitions the rule proofs use -- evaluated lane by lane.
//
// Memory is asynchronous, as on hardware: a load's data reaches its
// registers only when an s_waitcnt (s_wait_* on gfx12) retires it, and an
// instruction that reads or overwrites such a register first is an error.
// The target's required wait states (targets/wait_states.hpp) are checked
// too. An instruction the emulator does not model is an error, never a no-op.
#pragma once

#include "targets/target_info.hpp"
#include "validation/code_object.hpp"
#include "validation/memory.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace p2a::emu {

struct Launch {
  Dim3 grid, block;
  uint64_t kernargAddress = 0;  // a buffer in GlobalMemory holding the kernarg segment
  uint64_t dispatchAddress = 0; // the dispatch packet (when the descriptor asks for its pointer)
  uint64_t imageAddress = 0;    // where a linked code object's image (LoadedKernel::image) is mapped
  unsigned dynamicLdsBytes = 0; // dynamic group segment: LDS after the descriptor's fixed size
};

struct Fault {
  std::string message;
  long instruction = -1; // index into LoadedKernel::code, -1 if none
};

// The state of one lane of the traced thread after an instruction.
struct TraceRecord {
  unsigned instruction = 0;
  std::vector<uint32_t> vgprs; // this lane's VGPRs
  std::vector<uint32_t> sgprs; // the wave's SGPRs (s0..s127; vcc at 106, exec at 126)
  unsigned lane = 0;
};

// Dynamic counts and a cycle estimate of a run (issue 20's measure of run
// time, not a simulation): each wave issues in order; an instruction waits
// for its sources, then takes its issue cycles; its results are ready
// after its latency (both from LLVM's scheduling model for the target, the
// numbers llvm-mca uses); a load's registers are ready a fixed memory
// latency after it issued, and a wait stalls until the loads it retires are;
// a barrier releases every wave at the latest arrival. `cycles` is the
// longest wave's; waves and workgroups are taken to run in parallel, with
// no contention for the SIMD or memory.
struct RunStats {
  uint64_t instructions = 0; // executed, all waves
  uint64_t cycles = 0;       // the longest wave's estimate
};
// The memory latencies the estimate assumes, in cycles (a global load that
// misses the caches takes several hundred on MI200/MI300 and RDNA3; scalar
// loads hit the constant cache; LDS is on the CU).
inline constexpr unsigned kVmemLatency = 500, kSmemLatency = 150, kLdsLatency = 64;

struct Options {
  // Count instructions and estimate cycles (scheduling model from `timing`).
  RunStats *stats = nullptr;
  const mc::Assembler *timing = nullptr;
  uint64_t traceThread = ~0ull; // global linear thread id (x fastest, blocks in order)
  std::vector<TraceRecord> *trace = nullptr;
  uint64_t stepLimit = 4'000'000; // per wave
  // Called after each workgroup with the number done (progress of long runs).
  std::function<void(uint64_t)> afterBlock;
};

std::optional<Fault> run(const LoadedKernel &k, const targets::TargetInfo &t, const Launch &launch,
                         GlobalMemory &memory, const Options &options = {});

// Builds the hsa_kernel_dispatch_packet_t (AMDGPUUsage / HSA runtime spec)
// for a launch: 64 bytes, workgroup and grid sizes in work-items.
std::vector<uint8_t> dispatchPacket(const Dim3 &grid, const Dim3 &block, uint64_t kernargAddress);

} // namespace p2a::emu
