// s_delay_alu hints on gfx11+ (targets/alu_delay.hpp): before each ALU
// instruction that depends on a recent ALU result, a new hint or the second
// slot of the previous one.
#include "lowering/instruction_facts.hpp"
#include "lowering/passes.hpp"

#include <optional>

namespace p2a::klower::alu_delays {

void run(mir::Function &fn, const targets::TargetInfo &t) {
  if (t.generation < targets::Generation::GFX11)
    return;
  std::vector<mir::CodeInst> out;
  out.reserve(fn.code.size() + fn.code.size() / 4);
  targets::AluDelayTracker delays;
  std::optional<size_t> open; // the last hint with one ID (its second may still be filled)
  for (mir::CodeInst &ci : fn.code) { // (each moves to `out`)
    if (ci.mi.op == amd::Op::LABEL) { // a branch may arrive here from elsewhere
      delays.blockBoundary();
      open.reset();
      out.push_back(std::move(ci));
      continue;
    }
    if (std::optional<targets::AluDelayTracker::Hint> hint = delays.issue(issueFacts(ci.mi, t).alu)) {
      if (hint->patchOpen && open) {
        out[*open].mi.srcs.at(0).imm = hint->simm16;
        open.reset();
      } else {
        out.push_back({mir::MInst{amd::Op::S_DELAY_ALU, mir::noOperand(), {mir::immOperand(hint->simm16)}}, ci.stmt});
        open.reset();
        if (hint->leavesOpen)
          open = out.size() - 1;
      }
    }
    out.push_back(std::move(ci));
  }
  fn.code = std::move(out);
}

} // namespace p2a::klower::alu_delays
