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
  // In place, from the back: each statement moves up by the insertions
  // before it, and those after the last insertion stay. (A new body would
  // fault in a fresh array and move every statement: KeyHunt's 80k-statement
  // kernels each got one for 16 insertions.)
  if (k.sourceIndex.empty()) {
    k.sourceIndex.resize(n);
    for (size_t i = 0; i < n; ++i)
      k.sourceIndex[i] = static_cast<unsigned>(i);
  }
  k.body.resize(n + added);
  k.sourceIndex.resize(n + added);
  std::vector<unsigned> newIndex(n + 1);
  newIndex[n] = static_cast<unsigned>(n + added);
  size_t w = n + added; // the next slot to fill, from the back
  size_t i = n;
  while (i > 0 && w != i) { // (w == i: statements 0..i-1 have nothing inserted, and stay)
    --i;
    const unsigned source = k.sourceIndex[i];
    for (auto s = after[i].rbegin(); s != after[i].rend(); ++s) {
      k.body[--w] = std::move(*s);
      k.sourceIndex[w] = source;
    }
    --w;
    if (w != i) {
      k.body[w] = std::move(k.body[i]);
      k.sourceIndex[w] = source;
    }
    for (auto s = before[i].rbegin(); s != before[i].rend(); ++s) {
      k.body[--w] = std::move(*s);
      k.sourceIndex[w] = source;
    }
    newIndex[i] = static_cast<unsigned>(w);
  }
  for (size_t j = 0; j < i; ++j)
    newIndex[j] = static_cast<unsigned>(j);
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
