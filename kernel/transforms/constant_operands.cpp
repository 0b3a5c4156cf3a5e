#include "kernel/transforms/constant_operands.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringRef.h>

#include <map>
#include <optional>

namespace p2a::kernel {

Kernel substituteConstantOperands(Kernel k, const targets::TargetInfo &t) {
  // Registers written exactly once, by an unguarded mov of an immediate.
  // (Keyed by the names in k.body, which nothing below renames; a hash
  // per operand, no tree of strings.)
  llvm::DenseMap<llvm::StringRef, unsigned> writes;
  llvm::DenseMap<llvm::StringRef, std::pair<size_t, uint64_t>> constant; // register -> (defining statement, value)
  for (size_t i = 0; i < k.body.size(); ++i) {
    const Stmt &s = k.body[i];
    forEachWrittenRegister(s, [&](const std::string &r) {
      ++writes[llvm::StringRef(r)];
      if (s.kind == Stmt::Kind::Compute && s.guard.empty() && s.inst.form.opcode == ptx::Opcode::Mov &&
          s.inst.form.type != ptx::TypeClass::Pred && s.inst.srcs.size() == 1 && s.inst.srcs[0].isImm())
        constant[llvm::StringRef(r)] = {i, s.inst.srcs[0].imm};
    });
  }
  // (The names the maps hold point into statements rewritten below, so the
  // few constants get names of their own.)
  std::map<std::string, std::pair<size_t, uint64_t>> constants;
  for (const auto &[r, c] : constant)
    if (writes.lookup(r) == 1)
      constants.emplace(r.str(), c);
  if (constants.empty())
    return k;

  for (Stmt &s : k.body) {
    if (s.kind == Stmt::Kind::WarpShuffle || s.kind == Stmt::Kind::WarpVote || s.kind == Stmt::Kind::WarpSync ||
        s.kind == Stmt::Kind::WarpCombine) {
      // Every 32-bit source (not vote's predicate): constant lane offsets,
      // clamps and membermasks let the lowering fold its lane arithmetic.
      for (size_t i = s.kind == Stmt::Kind::WarpVote ? 1 : 0; i < s.extra().srcs.size(); ++i) {
        ptx::Operand &o = s.extraToWrite().srcs[i];
        auto c = o.isReg() ? constants.find(o.reg) : constants.end();
        const ptx::RegisterType *reg = o.isReg() ? k.registers.find(o.reg) : nullptr;
        if (c == constants.end() || !reg || reg->width != 32)
          continue;
        o.kind = ptx::Operand::Kind::Immediate;
        o.imm = c->second.second & 0xffffffffu;
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
      auto c = src.isReg() ? constants.find(src.reg) : constants.end();
      if (c == constants.end())
        continue;
      const unsigned w = s.inst.form.srcWidth(static_cast<unsigned>(i));
      const ptx::RegisterType *reg = k.registers.find(src.reg);
      if (w <= 1 || !reg || reg->width != w)
        continue;
      if (!folded)
        folded = s.inst;
      ptx::Operand &o = folded->srcs[i];
      o.kind = ptx::Operand::Kind::Immediate;
      o.imm = c->second.second & sem::maskOf(w);
      o.reg.clear();
    }
    if (folded && select::hasMatchingRule(*folded, t))
      s.inst = std::move(*folded);
  }
  // Movs nothing reads any more.
  llvm::DenseSet<llvm::StringRef> read;
  for (const Stmt &s : k.body)
    forEachReadRegister(s, [&](const std::string &r) { read.insert(llvm::StringRef(r)); });
  for (const auto &[r, def] : constants)
    if (!read.contains(llvm::StringRef(r))) {
      foldAway(k.body[def.first], "a constant: folded into the instructions that read it");
    }
  return k;
}

} // namespace p2a::kernel
