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

#include <algorithm>
#include <array>
#include <initializer_list>
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
// The rules that apply on `t`, in table order (a pass over many
// instructions asks once, not per instruction and rule).
std::vector<const HazardRule *> hazardRulesFor(const TargetInfo &t);

// One issued instruction, as hazard checks look back at it.
struct IssuedInstruction {
  InstFacts facts;
  unsigned waitStates = 1; // s_nop N: N + 1
  long instruction = 0;    // the caller's index
};

// The instructions issued last, as hazard checks look back at them (every
// hazard window is shorter than kMaxIssued). A ring of slots reused in
// place: each instruction's facts hold lists, and a deque of them freed and
// allocated a node every other instruction (KeyHunt: 566,000 instructions
// through the hazard pass).
class IssueHistory {
public:
  static constexpr size_t kMaxIssued = 16;
  IssueHistory() = default;
  IssueHistory(std::initializer_list<IssuedInstruction> oldestFirst) {
    for (const IssuedInstruction &i : oldestFirst)
      push(i);
  }
  // Adds the newest, dropping the oldest past kMaxIssued.
  void push(IssuedInstruction issued) {
    slots_[next_] = std::move(issued);
    next_ = (next_ + 1) % kMaxIssued;
    size_ = std::min(size_ + 1, kMaxIssued);
  }
  size_t size() const { return size_; }
  // The i-th most recent (0: the last issued).
  const IssuedInstruction &fromNewest(size_t i) const { return slots_[(next_ + kMaxIssued - 1 - i) % kMaxIssued]; }

private:
  std::array<IssuedInstruction, kMaxIssued> slots_;
  size_t next_ = 0, size_ = 0;
};

// A hazard `next` would hit after `history`: the rule, the producer (valid
// until the next push), the wait states already between them and how many
// more are needed (or, for a rule only a VALU mitigates, that one is needed).
struct HazardHit {
  const HazardRule *rule = nullptr;
  const IssuedInstruction *producer = nullptr;
  unsigned statesBetween = 0;
  unsigned missingStates = 0;
  bool needsValu = false;
};
std::optional<HazardHit> findHazard(const IssueHistory &history, const InstFacts &next, const TargetInfo &t);
// The same, over `t`'s rules from hazardRulesFor.
std::optional<HazardHit> findHazard(const IssueHistory &history, const InstFacts &next,
                                    llvm::ArrayRef<const HazardRule *> rules);

} // namespace p2a::targets
