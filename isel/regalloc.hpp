// Register assignment for translated code. Every PTX register keeps its own
// physical register for the whole function: `explain`'s register table stays
// exact, any PTX register may be an input or an output, and in-place aliasing
// happens only where the PTX itself names one register twice -- which the
// rule proofs cover. Temporaries (rule temporaries, legalised literals, `_`
// destinations) are released after the PTX instruction that made them and
// reused by later temporaries, never by PTX registers and never within one
// instruction (a proof assumes a rule's temporaries distinct from its
// operands and of arbitrary initial value, which reuse keeps true). Pair
// constraints from rules (hi = lo + 1, lo even) and 64-bit values get
// even-aligned VGPR pairs, as gfx90a+ require and gfx9 tolerates.
#pragma once

#include "isel/machine_ir.hpp"

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::regalloc {

// `firstVgpr` / `firstSgpr` keep the registers below them for the ABI (a
// kernel's work-item IDs, kernarg pointer, workgroup IDs, loaded arguments);
// both must be even so that pairs stay aligned. The counts include them.
//
// `live` (kernels): per vreg, the first and last body position (LoweredInst
// index) where its value is live, from liveness over the kernel's CFG; -1
// keeps the default (temporaries: first to last reference; PTX registers:
// the whole function). A vreg with an interval gets a register for exactly
// that span -- assigned at its start even if first referenced later (a value
// carried around a loop) -- and frees it after its end for any later value.
// Never within one position, so a rule's operands and temporaries stay distinct.
// A vreg marked `spilled` (its value lives in memory; lowering/spilling.cpp)
// gets no register, and no instruction may name it.
//
// `copies` (optional): registers a position copies and nothing else does
// there -- a move statement's v_mov_b32 (mov, mov.b64's pack and unpack,
// cvt's zero extension and truncation). Register `dstHalf` of dst (0, or 1
// for a V64's high half) takes register `srcHalf` of src when src's
// interval ends at `at` and dst's starts there: the move then reads and
// writes one register, and layout drops it. The only exception to "never
// within one position": a copy's proof holds whatever the aliasing, since
// it reads each source register once, before any write to the same one.
struct CopyHint {
  long at = 0;
  unsigned dst = 0, dstHalf = 0, src = 0, srcHalf = 0;
};
// `holes` (optional, per vreg; {-1, -1}: none): positions from < p < to
// where a VGPR value holds nothing -- its last access before a full write
// at `to`, in one block (lowering/register_assignment.cpp). Its registers
// are lent there to values that start after `from` and end before `to`,
// and taken back at `to`. Within one block every write is under the same
// EXEC, so lanes that skip the block keep the value's bits untouched.
struct Hole {
  long from = -1, to = -1;
};
struct LiveIntervals {
  std::vector<long> start, end;
  std::vector<CopyHint> copies; // in order of `at`
  std::vector<Hole> holes;
  // VGPRs [0, abiVgprs) hold the work-item IDs the hardware sets (AMDGPU
  // ABI) and are reserved to position abiVgprsEnd; after it, values may
  // take them (-1: nothing reads them). 0: reserved throughout.
  unsigned abiVgprs = 0;
  long abiVgprsEnd = -1;
};
// With intervals, a rule's destination that starts where a source's value
// ends may take that source's register, where the rule's proof covers the
// two being one register (LoweredInst::aliasSrcs): Always, or only
// WhereFresh (where it would otherwise need a register never used before).
// That frees a register at the instruction, but may leave later copies and
// pairs on registers that no longer suit them, so the kernel lowering
// allocates each way and keeps the best (AllocationScore).
enum class DyingSources { Keep, WhereFresh, Always };
mir::Allocation allocate(const mir::Function &fn, const targets::TargetInfo &t, unsigned firstVgpr = 0,
                         unsigned firstSgpr = 0, const LiveIntervals *live = nullptr,
                         DyingSources sharing = DyingSources::Keep);

// What an allocation costs: its VGPRs, and the 32-bit VGPR copies
// (v_mov_b32 between VGPRs) it leaves as real moves, those whose source
// and destination got different registers. Better: fewer VGPRs with no
// more copies, or as many VGPRs with fewer copies.
struct AllocationScore {
  unsigned vgprs = 0, copies = 0;
  bool betterThan(const AllocationScore &other) const;
};
AllocationScore scoreOf(const mir::Function &fn, const mir::Allocation &a);

} // namespace p2a::regalloc
