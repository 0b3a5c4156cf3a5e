// Wait states for hazards (targets/wait_states.hpp): before each instruction,
// s_nop for the states the target's hazard table requires after what came
// before, or a v_nop where only a VALU instruction clears the hazard.
#include "lowering/code_edits.hpp"
#include "lowering/instruction_facts.hpp"
#include "lowering/passes.hpp"


namespace p2a::klower::hazard_recognition {

void run(mir::Function &fn, const targets::TargetInfo &t) {
  // (The nops go into the code in place: code_edits.hpp.)
  CodeEdits edits;
  targets::IssueHistory history;
  const std::vector<const targets::HazardRule *> rules = targets::hazardRulesFor(t);
  long issued = 0; // instructions so far, nops included
  auto issue = [&](IssueFacts facts) { history.push({std::move(facts.hazard), facts.alu.cycles, issued++}); };
  for (size_t at = 0; at < fn.code.size(); ++at) {
    const mir::CodeInst &ci = fn.code[at];
    if (ci.mi.op == amd::Op::LABEL) {
      ++issued;
      continue;
    }
    IssueFacts facts = issueFacts(ci.mi, t);
    while (std::optional<targets::HazardHit> h = targets::findHazard(history, facts.hazard, rules)) {
      mir::MInst nop = h->needsValu ? mir::MInst{amd::Op::V_NOP, mir::noOperand(), {}}
                                    : mir::MInst{amd::Op::S_NOP, mir::noOperand(),
                                                 {mir::immOperand(std::min(h->missingStates, 16u) - 1)}};
      issue(issueFacts(nop, t));
      edits.insertBefore(at, {std::move(nop), ci.stmt});
    }
    issue(std::move(facts));
  }
  edits.apply(fn.code);
}

} // namespace p2a::klower::hazard_recognition
