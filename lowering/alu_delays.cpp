// s_delay_alu hints on gfx11+ (targets/alu_delay.hpp): before each ALU
// instruction that depends on a recent ALU result, a new hint or the second
// slot of the previous one.
#include "lowering/code_edits.hpp"
#include "lowering/instruction_facts.hpp"
#include "lowering/passes.hpp"

#include <optional>

namespace p2a::klower::alu_delays {

void run(mir::Function &fn, const targets::TargetInfo &t) {
  if (t.generation < targets::Generation::GFX11)
    return;
  // (The hints go into the code in place: code_edits.hpp.)
  CodeEdits edits;
  targets::AluDelayTracker delays;
  std::optional<size_t> open; // the last hint with one ID (its second may still be filled)
  for (size_t at = 0; at < fn.code.size(); ++at) {
    const mir::CodeInst &ci = fn.code[at];
    if (ci.mi.op == amd::Op::LABEL) { // a branch may arrive here from elsewhere
      delays.blockBoundary();
      open.reset();
      continue;
    }
    if (std::optional<targets::AluDelayTracker::Hint> hint = delays.issue(issueFacts(ci.mi, t).alu)) {
      if (hint->patchOpen && open) {
        edits.patch(*open).mi.srcs.at(0).imm = hint->simm16;
        open.reset();
      } else {
        const size_t added = edits.insertBefore(
            at, {mir::MInst{amd::Op::S_DELAY_ALU, mir::noOperand(), {mir::immOperand(hint->simm16)}}, ci.stmt});
        open.reset();
        if (hint->leavesOpen)
          open = added;
      }
    }
  }
  edits.apply(fn.code);
}

} // namespace p2a::klower::alu_delays
