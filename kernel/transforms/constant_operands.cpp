#include "kernel/transforms/constant_operands.hpp"

#include <map>

namespace p2a::kernel {

Kernel substituteConstantOperands(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  // Registers written exactly once, by an unguarded mov of an immediate.
  std::map<std::string, unsigned> writes;
  std::map<std::string, std::pair<size_t, uint64_t>> constant; // register -> (defining statement, value)
  for (size_t i = 0; i < k.body.size(); ++i) {
    const Stmt &s = k.body[i];
    for (const std::string &r : writtenRegisters(s)) {
      ++writes[r];
      if (s.kind == Stmt::Kind::Compute && s.guard.empty() && s.inst.form.opcode == ptx::Opcode::Mov &&
          s.inst.form.type != ptx::TypeClass::Pred && s.inst.srcs.size() == 1 && s.inst.srcs[0].isImm())
        constant[r] = {i, s.inst.srcs[0].imm};
    }
  }
  for (auto it = constant.begin(); it != constant.end();)
    it = writes[it->first] == 1 ? std::next(it) : constant.erase(it);
  if (constant.empty())
    return k;

  for (Stmt &s : k.body) {
    if (s.kind == Stmt::Kind::WarpShuffle || s.kind == Stmt::Kind::WarpVote || s.kind == Stmt::Kind::WarpSync ||
        s.kind == Stmt::Kind::WarpCombine) {
      // Every 32-bit source (not vote's predicate): constant lane offsets,
      // clamps and membermasks let the lowering fold its lane arithmetic.
      for (size_t i = s.kind == Stmt::Kind::WarpVote ? 1 : 0; i < s.srcs.size(); ++i) {
        ptx::Operand &o = s.srcs[i];
        auto c = o.isReg() ? constant.find(o.reg) : constant.end();
        auto reg = o.isReg() ? k.registers.find(o.reg) : k.registers.end();
        if (c == constant.end() || reg == k.registers.end() || reg->second.width != 32)
          continue;
        o.kind = ptx::Operand::Kind::Immediate;
        o.imm = c->second.second & 0xffffffffu;
        o.reg.clear();
      }
      continue;
    }
    if (s.kind != Stmt::Kind::Compute)
      continue;
    ptx::Instruction folded = s.inst;
    bool changed = false;
    for (size_t i = 0; i < folded.srcs.size(); ++i) {
      ptx::Operand &o = folded.srcs[i];
      auto c = o.isReg() ? constant.find(o.reg) : constant.end();
      const unsigned w = folded.form.srcWidth(static_cast<unsigned>(i));
      auto reg = k.registers.find(o.reg);
      if (c == constant.end() || w <= 1 || reg == k.registers.end() || reg->second.width != w)
        continue;
      o.kind = ptx::Operand::Kind::Immediate;
      o.imm = c->second.second & sem::maskOf(w);
      o.reg.clear();
      changed = true;
    }
    if (changed && !select::candidates(folded, t, cost).empty())
      s.inst = folded;
  }
  // Movs nothing reads any more.
  std::map<std::string, unsigned> reads;
  for (const Stmt &s : k.body)
    for (const std::string &r : readRegisters(s))
      ++reads[r];
  for (const auto &[r, def] : constant)
    if (!reads.count(r)) {
      foldAway(k.body[def.first], "a constant: folded into the instructions that read it");
    }
  return k;
}

} // namespace p2a::kernel
