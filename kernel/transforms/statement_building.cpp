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

Stmt computation(const Stmt &at, ptx::Instruction inst, std::string note) {
  Stmt s;
  s.kind = Stmt::Kind::Compute;
  s.loc = at.loc;
  s.text = at.text;
  s.inst = std::move(inst);
  s.inst.loc = at.loc;
  s.inst.text = at.text;
  s.note = std::move(note);
  return s;
}

Kernel withInsertedStatements(Kernel k, std::vector<std::vector<Stmt>> before, std::vector<std::vector<Stmt>> after) {
  const size_t n = k.body.size();
  size_t added = 0;
  for (size_t i = 0; i < n; ++i)
    added += before[i].size() + after[i].size();
  if (!added)
    return k;
  std::vector<Stmt> body;
  body.reserve(n + added);
  std::vector<unsigned> sourceIndex;
  sourceIndex.reserve(n + added);
  std::vector<unsigned> newIndex(n + 1);
  for (size_t i = 0; i < n; ++i) {
    newIndex[i] = static_cast<unsigned>(body.size());
    const unsigned source = static_cast<unsigned>(k.sourceOf(i));
    for (Stmt &s : before[i]) {
      body.push_back(std::move(s));
      sourceIndex.push_back(source);
    }
    body.push_back(std::move(k.body[i]));
    sourceIndex.push_back(source);
    for (Stmt &s : after[i]) {
      body.push_back(std::move(s));
      sourceIndex.push_back(source);
    }
  }
  newIndex[n] = static_cast<unsigned>(body.size());
  k.body = std::move(body);
  k.sourceIndex = std::move(sourceIndex);
  for (auto &[label, index] : k.labels)
    index = newIndex[index];
  for (Stmt &s : k.body)
    if (s.kind == Stmt::Kind::Branch)
      s.target = newIndex[s.target];
  return k;
}

double bestCost(const ptx::Instruction &inst, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  return select::lowestCost(inst, t, cost).value_or(1e30);
}

} // namespace p2a::kernel
