#include "kernel/transforms/statement_building.hpp"

namespace p2a::kernel {

bool isPlain(const Stmt &s, ptx::Opcode op, unsigned width) {
  const ptx::Form &f = s.inst.form;
  return s.kind == Stmt::Kind::Compute && s.guard.empty() && f.opcode == op && (width == 0 || f.width == width) &&
         !f.carryIn && !f.carryOut && f.type != ptx::TypeClass::Pred;
}

bool writesOneRegister(const Stmt &s) { return s.inst.dsts.size() == 1 && s.inst.dsts[0].isReg(); }

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
