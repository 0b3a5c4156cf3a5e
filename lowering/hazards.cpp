// Wait states for hazards (targets/wait_states.hpp): before each instruction,
// s_nop for the states the target's hazard table requires after what came
// before, or a v_nop where only a VALU instruction clears the hazard.
#include "lowering/instruction_facts.hpp"
#include "lowering/passes.hpp"

#include <deque>

namespace p2a::klower::hazard_recognition {

void run(mir::Function &fn, const targets::TargetInfo &t) {
  std::vector<mir::CodeInst> out;
  out.reserve(fn.code.size());
  std::deque<targets::IssuedInstruction> history; // the last 16 issued: every hazard window is shorter
  auto issue = [&](mir::MInst mi, IssueFacts facts, int stmt) {
    out.push_back({std::move(mi), stmt});
    history.push_back({std::move(facts.hazard), facts.alu.cycles, static_cast<long>(out.size() - 1)});
    if (history.size() > 16)
      history.pop_front();
  };
  for (mir::CodeInst &ci : fn.code) { // (each moves to `out`)
    if (ci.mi.op == amd::Op::LABEL) {
      out.push_back(std::move(ci));
      continue;
    }
    IssueFacts facts = issueFacts(ci.mi, t);
    while (std::optional<targets::HazardHit> h = targets::findHazard(history, facts.hazard, t)) {
      mir::MInst nop = h->needsValu ? mir::MInst{amd::Op::V_NOP, mir::noOperand(), {}}
                                    : mir::MInst{amd::Op::S_NOP, mir::noOperand(),
                                                 {mir::immOperand(std::min(h->missingStates, 16u) - 1)}};
      issue(nop, issueFacts(nop, t), ci.stmt);
    }
    issue(std::move(ci.mi), std::move(facts), ci.stmt);
  }
  fn.code = std::move(out);
}

} // namespace p2a::klower::hazard_recognition
