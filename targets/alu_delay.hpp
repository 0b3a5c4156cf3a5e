// s_delay_alu hints for gfx11 and later (RDNA3/RDNA4 ISA "s_delay_alu";
// LLVM AMDGPUInsertDelayAlu.cpp, whose LLVM 19 behaviour this follows, as
// measured with llc-19 -start-before=amdgpu-insert-delay-alu). The hint
// tells the wave to wait for an earlier ALU result before issuing, instead
// of stalling in the pipeline; it is a scheduling hint (the hardware
// interlocks anyway), so a missing or weaker hint costs time, not results.
//
// The tracker sees every instruction in issue order and returns, before
// each, the hint it needs: a new s_delay_alu, or a second slot (instid1)
// filled into the previous single-slot one when the instruction is at most
// five instructions after it (instskip). Registers are 32-bit units, VGPRs
// and SGPRs numbered apart; only explicit operands count (LLVM does not
// track VCC, EXEC or SCC used implicitly).
#pragma once

#include "targets/register_unit.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace p2a::targets {

struct AluInstr {
  enum class Kind {
    Valu,  // any VALU (LLVM's TRANS kind does not occur: we emit no transcendental ops)
    Salu,  // SOP1/SOP2/SOPC/SOPP, waits and branches included
    Other, // SMEM: neither tracked nor resetting
    Reset, // VMEM, FLAT/global/scratch, DS, cache maintenance: the pass clears its state
  } kind = Kind::Salu;
  unsigned latency = 1;              // issue-to-result cycles (VALU 5, 64-bit shift 6, quarter rate 8, SALU 2)
  unsigned cycles = 1;               // issue cycles (s_nop N: N + 1)
  RegUnits reads, writes; // explicit register operands
};

// Latencies of LLVM's GFX11SpeedModel (SISchedule.td) for our op classes.
constexpr unsigned kValuLatency = 5, kValu64ShiftLatency = 6, kQuarterRateLatency = 8, kSaluLatency = 2;

class AluDelayTracker {
public:
  struct Hint {
    bool patchOpen = false;  // replace the previous s_delay_alu (its operand is `simm16`) instead of inserting one
    unsigned simm16 = 0;     // the instruction's operand (delayAluSimm16)
    bool leavesOpen = false; // a new hint with one ID: a later one may fill its instid1 (patchOpen)
  };
  // The hint `in` needs (if any), then `in` is taken as issued.
  std::optional<Hint> issue(const AluInstr &in);
  // A basic block starts: LLVM merges the predecessors' states; this
  // tracker starts afresh (weaker hints, never wrong ones).
  void blockBoundary();

private:
  struct Entry {
    unsigned valuCycles = 0, valuNum = 5; // valuNum 5: no VALU producer pending
    unsigned saluCycles = 0;
    bool empty() const { return valuNum >= 5 && saluCycles == 0; }
  };
  std::map<RegUnit, Entry> state_;
  // The last s_delay_alu holding one ID, and the instructions issued since it.
  std::optional<unsigned> openId_;
  unsigned sinceOpen_ = 0;
};

// "VALU_DEP_2", "SALU_CYCLE_1" for an instid value (1-4, 9-11).
std::string delayIdName(unsigned id);

// s_delay_alu's 16-bit operand (RDNA3 ISA "s_delay_alu"): instid0 in bits
// 3:0, instskip in 6:4 (0 SAME, 1 NEXT, n SKIP_n-1: instid1 applies to the
// instskip-th instruction after the hint), instid1 in 10:7.
unsigned delayAluSimm16(unsigned id0, unsigned skip, unsigned id1);
// Its assembly: "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_2)".
std::string delayAluText(unsigned simm16);

} // namespace p2a::targets
