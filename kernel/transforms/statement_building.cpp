#include "kernel/transforms/statement_building.hpp"

namespace p2a::kernel {

ptx::Operand immediate(uint64_t v) {
  ptx::Operand o;
  o.kind = ptx::Operand::Kind::Immediate;
  o.imm = v;
  return o;
}

ptx::Operand registerOperand(const std::string &name) {
  ptx::Operand o;
  o.kind = ptx::Operand::Kind::Register;
  o.reg = name;
  return o;
}

ptx::Instruction replacing(const ptx::Instruction &at, ptx::Form form, std::vector<ptx::Operand> dsts,
                           std::vector<ptx::Operand> srcs) {
  ptx::Instruction r;
  r.form = form;
  r.dsts = std::move(dsts);
  r.srcs = std::move(srcs);
  r.loc = at.loc;
  r.text = at.text;
  return r;
}

double bestCost(const ptx::Instruction &inst, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  std::vector<const rules::Rule *> c = select::candidates(inst, t, cost);
  return c.empty() ? 1e30 : cost(*c.front(), t);
}

} // namespace p2a::kernel
