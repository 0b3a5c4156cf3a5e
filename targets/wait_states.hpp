// Memory counters and required wait states, per target, as data. The kernel
// lowering uses them to insert waits; the emulator (validation/) uses the
// same facts to check any code -- ours or hand-written -- for reads of
// registers whose loads were not waited for and for missing wait states.
//
// Sources: AMD "Vega" ISA 4.4 "Data dependency resolution" (s_waitcnt) and
// 4.5 "Manually inserted wait states (NOPs)"; MI200/MI300 ISA 4.5 (same
// table); RDNA2 ISA 4.4-4.5 (vscnt, s_waitcnt_vscnt), RDNA4 ISA 4.4 (split
// counters s_wait_loadcnt/storecnt/kmcnt); LLVM GCNHazardRecognizer.cpp for
// the gfx10 VMEM-to-scalar-write hazard.
#pragma once

#include "targets/target_info.hpp"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace p2a::targets {

// What an instruction counts against.
enum class Counter : unsigned char {
  VmLoad,  // vmcnt (gfx9-11), loadcnt (gfx12): VMEM loads
  VmStore, // vmcnt on gfx9; vscnt on gfx10/11; storecnt on gfx12
  Scalar,  // lgkmcnt (gfx9-11), kmcnt (gfx12): SMEM loads (may return out of order)
  Lds,     // lgkmcnt (gfx9-11, shared with SMEM), dscnt (gfx12): LDS loads
};

// True when VMEM loads and stores share one in-order counter (gfx9 vmcnt).
bool storesShareLoadCounter(const TargetInfo &t);
// The largest value a wait may name for the counter (waiting for more is
// expressed by the maximum).
unsigned counterMax(Counter c, const TargetInfo &t);
// The instruction that waits until at most `n` operations are outstanding:
// "s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x0", "s_wait_loadcnt 0x0", ...
std::string waitInstruction(Counter c, unsigned n, const TargetInfo &t);

// The instruction classes hazards are stated in.
enum class InstClass { Valu, Salu, Vmem, Smem, Lds, Branch, Other };

// Register numbers an instruction reads or writes: a few in place (made for
// every instruction the hazard pass issues, and copied into its history).
using RegisterNumbers = llvm::SmallVector<unsigned, 4>;

// What a hazard check needs to know about one instruction.
struct InstFacts {
  InstClass cls = InstClass::Other;
  RegisterNumbers sgprReads, sgprWrites; // SGPR numbers (vcc_lo/exec_lo by their aliases 106/126)
  RegisterNumbers vgprReads, vgprWrites;
  unsigned storeDataBytes = 0;     // VMEM stores
  RegisterNumbers laneSelectSgprs; // v_readlane/v_writelane lane-select operand
  bool readsVgprLane = false;      // v_readlane_b32: reads one lane of its VGPR source
};

// A "manually inserted wait states" row: when `producer` is followed by
// `consumer` within `waitStates` wait states (s_nop N counts N+1, any other
// instruction 1), the hardware may read a stale value.
struct HazardRule {
  std::string name;
  std::string cite;
  unsigned waitStates = 1;
  bool onlyValuMitigates = false; // gfx10 VMEM->scalar write: only a VALU (or s_waitcnt_depctr) clears it
  bool (*applies)(const TargetInfo &);
  bool (*matches)(const InstFacts &producer, const InstFacts &consumer);
};

const std::vector<HazardRule> &hazardRules();

// One issued instruction, as hazard checks look back at it.
struct IssuedInstruction {
  InstFacts facts;
  unsigned waitStates = 1; // s_nop N: N + 1
  long instruction = 0;    // the caller's index
};

// A hazard `next` would hit after `history` (oldest first): the rule, the
// producer, the wait states already between them and how many more are
// needed (or, for a rule only a VALU mitigates, that one is needed).
struct HazardHit {
  const HazardRule *rule = nullptr;
  const IssuedInstruction *producer = nullptr;
  unsigned statesBetween = 0;
  unsigned missingStates = 0;
  bool needsValu = false;
};
std::optional<HazardHit> findHazard(const std::deque<IssuedInstruction> &history, const InstFacts &next,
                                    const TargetInfo &t);

} // namespace p2a::targets
