#include "kernel/transforms/constant_operands.hpp"

#include "kernel/analysis/register_numbering.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace p2a::kernel {

Kernel substituteConstantOperands(Kernel k, const targets::TargetInfo &t) {
  // Registers written exactly once, by an unguarded mov of an immediate: by
  // the numbering's ids (made before the edits below, which only turn
  // operands into immediates).
  const RegisterNumbering ids(k);
  std::vector<unsigned> writes(ids.size(), 0);
  std::vector<std::optional<std::pair<size_t, uint64_t>>> constant(ids.size()); // (defining statement, value)
  for (size_t i = 0; i < k.body.size(); ++i) {
    const Stmt &s = k.body[i];
    for (unsigned r : ids.writes(i)) {
      ++writes[r];
      if (s.kind == Stmt::Kind::Compute && s.guard.empty() && s.inst.form.opcode == ptx::Opcode::Mov &&
          s.inst.form.type != ptx::TypeClass::Pred && s.inst.srcs.size() == 1 && s.inst.srcs[0].isImm())
        constant[r] = {i, s.inst.srcs[0].imm};
    }
  }
  bool any = false;
  for (unsigned r = 0; r < ids.size(); ++r) {
    if (writes[r] != 1)
      constant[r].reset();
    any |= constant[r].has_value();
  }
  if (!any)
    return k;
  // The constant an operand reads, if any.
  auto constantOf = [&](const ptx::Operand &o) -> const std::pair<size_t, uint64_t> * {
    if (!o.isReg())
      return nullptr;
    const std::optional<unsigned> r = ids.find(o.reg);
    return r && constant[*r] ? &*constant[*r] : nullptr;
  };

  for (Stmt &s : k.body) {
    if (s.kind == Stmt::Kind::WarpShuffle || s.kind == Stmt::Kind::WarpVote || s.kind == Stmt::Kind::WarpSync ||
        s.kind == Stmt::Kind::WarpCombine) {
      // Every 32-bit source (not vote's predicate): constant lane offsets,
      // clamps and membermasks let the lowering fold its lane arithmetic.
      for (size_t i = s.kind == Stmt::Kind::WarpVote ? 1 : 0; i < s.extra().srcs.size(); ++i) {
        ptx::Operand &o = s.extraToWrite().srcs[i];
        const std::pair<size_t, uint64_t> *c = constantOf(o);
        const ptx::RegisterType *reg = o.isReg() ? k.registers.find(o.reg) : nullptr;
        if (!c || !reg || reg->width != 32)
          continue;
        o.kind = ptx::Operand::Kind::Immediate;
        o.imm = c->second & 0xffffffffu;
        o.reg.clear();
      }
      continue;
    }
    if (s.kind != Stmt::Kind::Compute)
      continue;
    // (Copied only where a source is a constant: most statements have none.)
    std::optional<ptx::Instruction> folded;
    for (size_t i = 0; i < s.inst.srcs.size(); ++i) {
      const ptx::Operand &src = s.inst.srcs[i];
      const std::pair<size_t, uint64_t> *c = constantOf(src);
      if (!c)
        continue;
      const unsigned w = s.inst.form.srcWidth(static_cast<unsigned>(i));
      const ptx::RegisterType *reg = k.registers.find(src.reg);
      if (w <= 1 || !reg || reg->width != w)
        continue;
      if (!folded)
        folded = s.inst;
      ptx::Operand &o = folded->srcs[i];
      o.kind = ptx::Operand::Kind::Immediate;
      o.imm = c->second & sem::maskOf(w);
      o.reg.clear();
    }
    if (folded && select::hasMatchingRule(*folded, t))
      s.inst = std::move(*folded);
  }
  // Movs nothing reads any more.
  std::vector<char> read(ids.size(), 0);
  for (const Stmt &s : k.body)
    forEachReadRegister(s, [&](const auto &r) {
      if (const std::optional<unsigned> id = ids.find(r))
        read[*id] = 1;
    });
  for (unsigned r = 0; r < ids.size(); ++r)
    if (constant[r] && !read[r])
      foldAway(k.body[constant[r]->first], "a constant: folded into the instructions that read it");
  return k;
}

} // namespace p2a::kernel
