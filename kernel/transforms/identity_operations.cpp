#include "kernel/transforms/identity_operations.hpp"
#include <optional>

namespace p2a::kernel {

namespace {

bool isZero(const ptx::Operand &o) { return o.isImm() && o.imm == 0; }

// The source an identity operation passes through (index into srcs), if it is one.
std::optional<size_t> passedThrough(const Stmt &s) {
  if (s.kind != Stmt::Kind::Compute || !s.guard.empty() || s.inst.dsts.size() != 1 || !s.inst.dsts[0].isReg())
    return std::nullopt;
  const ptx::Form &f = s.inst.form;
  if (f.carryIn || f.carryOut || f.type == ptx::TypeClass::Pred || s.inst.srcs.size() != 2 ||
      (f.width != 16 && f.width != 32 && f.width != 64))
    return std::nullopt;
  switch (f.opcode) {
  case ptx::Opcode::Add: // (PTX ISA 9.7.1.1) and the bitwise ones (9.7.8): 0 on either side
  case ptx::Opcode::Or:
  case ptx::Opcode::Xor:
    if (isZero(s.inst.srcs[1]) && s.inst.srcs[0].isReg())
      return 0;
    if (isZero(s.inst.srcs[0]) && s.inst.srcs[1].isReg())
      return 1;
    return std::nullopt;
  case ptx::Opcode::Sub: // x - 0
  case ptx::Opcode::Shl: // shifts by 0 (9.7.8.7, 9.7.8.8), any type
  case ptx::Opcode::Shr:
    if (isZero(s.inst.srcs[1]) && s.inst.srcs[0].isReg())
      return 0;
    return std::nullopt;
  default: return std::nullopt;
  }
}

} // namespace

Kernel dropIdentityOperations(Kernel k) {
  for (Stmt &s : k.body) {
    const std::optional<size_t> from = passedThrough(s);
    if (!from)
      continue;
    ptx::Instruction mov;
    mov.form = ptx::Form{ptx::Opcode::Mov, ptx::TypeClass::B, s.inst.form.width};
    mov.dsts = s.inst.dsts;
    mov.srcs = {s.inst.srcs[*from]};
    mov.loc = s.inst.loc;
    mov.text = s.inst.text;
    s.note = "an operation with 0 that leaves its source as it is: a copy";
    s.inst = mov;
  }
  return k;
}

} // namespace p2a::kernel
