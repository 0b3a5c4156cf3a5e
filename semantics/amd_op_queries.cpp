// Questions about AMD ops beyond their definitions (amd_ops.cpp): which
// targets have them and how each spells them, where literals may go, which
// flags they write, and one instruction's effect for the models.
#include "semantics/amd_ops.hpp"

#include <stdexcept>

#include "targets/target_info.hpp"

namespace p2a::amd {

using sem::BV;

bool available(Op op, const targets::TargetInfo &t) {
  switch (op) {
  case Op::V_XNOR_B32: return t.has_xnor;
  case Op::V_XOR3_B32: return t.has_xor3;
  case Op::V_DUAL_CNDMASK_PAIR: return t.generation >= targets::Generation::GFX11;
  case Op::V_LSHRREV_B32_SDWA_W0: return t.generation <= targets::Generation::GFX10;
  case Op::V_LSHL_ADD_U64:
  case Op::V_MOV_B64: return t.has_lshl_add_u64;
  default: return true;
  }
}

std::string mnemonic(Op op, const targets::TargetInfo &t) {
  const OpDef &d = opDef(op);
  if (d.dst == Slot::Mask && (d.encoding == Encoding::SOP1 || d.encoding == Encoding::SOP2)) {
    std::string base = d.name; // "s_and_b64": lane-mask ops follow the wave size
    return t.maskOp(base.substr(0, base.size() - 4));
  }
  if (op == Op::V_SUB_U32_CLAMP)
    return t.mnemonic("v_sub_u32") + "_e64"; // clamp needs the VOP3 encoding
  return t.mnemonic(d.name); // gfx10+/gfx11+/gfx12 renames live with the target facts
}

bool literalAllowed(Op op, unsigned index, const targets::TargetInfo &t) {
  const OpDef &d = opDef(op);
  if (op == Op::V_LSHRREV_B32_SDWA_W0 || op == Op::V_DUAL_CNDMASK_PAIR)
    return false; // SDWA and VOPD take no literal here
  // 64-bit operands take inline constants only, but for v_mad_u64_u32's
  // unsigned addend on gfx10+ (VOP3 literal): its 32-bit literal is
  // zero-extended (LLVM's SIInstrInfo::isOperandLegal: the hardware
  // zero-extends a literal for an unsigned 64-bit operand and sign-extends
  // it for a signed one), so a value below 2^32 encodes as itself.
  if (d.srcs.at(index) == Slot::V64)
    return op == Op::V_MAD_U64_U32 && index == 2 && t.has_literal_in_vop3;
  if (d.srcs.at(index) == Slot::Mask)
    return d.encoding == Encoding::SOP1 || d.encoding == Encoding::SOP2;
  switch (d.encoding) {
  case Encoding::SOP1:
  case Encoding::SOP2:
  case Encoding::SOPC: return true;
  // VOP1/VOP2/VOPC take a literal in src0 only (the VOP2 src1 must be a VGPR).
  case Encoding::VOP1:
  case Encoding::VOPC:
  case Encoding::VOP2:
    if (index == 0 && d.srcs.size() <= 2)
      return true;
    return false;
  // VOP3 literals exist from gfx10 on (RDNA ISA "VOP3 literal"); gfx9/CDNA have none.
  case Encoding::VOP3: return t.has_literal_in_vop3 && d.srcs.at(index) == Slot::V32;
  case Encoding::SOPK:
  case Encoding::SOPP:
  case Encoding::VMEM:
  case Encoding::SMEM:
  case Encoding::DS:
  case Encoding::CacheMaintenance:
  case Encoding::Pseudo: return false;
  }
  return false;
}

std::pair<BV, BV> splitCarry(const BV &result) {
  const unsigned w = result.width() - 1;
  return {result.extract(w - 1, 0), result.extract(w, w)};
}

Effect execute(Op op, const std::vector<BV> &srcs, const EvalContext &ec) {
  const OpDef &def = opDef(op);
  Effect e{def.semantics(srcs, ec), std::nullopt, std::nullopt};
  if (def.carryOut) {
    auto [value, carry] = splitCarry(e.dst);
    e.dst = value;
    e.vcc = carry;
  } else if (def.clobbersVcc) {
    e.vcc = ec.unspecified(1);
  }
  if (def.sccCarryOut) {
    auto [value, carry] = splitCarry(e.dst);
    e.dst = value;
    e.scc = carry;
  } else if (clobbersScc(op)) { // a carry or "not zero" no rule may rely on
    e.scc = ec.unspecified(1);
  }
  return e;
}

bool isInlineConstant(int64_t v) { return v >= -16 && v <= 64; }

bool isScalarValueOp(Op op) {
  const OpDef &d = opDef(op);
  return isSalu(op) && d.dst != Slot::Mask;
}

bool isSalu(Op op) {
  const Encoding e = opDef(op).encoding;
  return e == Encoding::SOP1 || e == Encoding::SOP2 || e == Encoding::SOPC;
}

bool clobbersScc(Op op) {
  const OpDef &d = opDef(op);
  if (!(d.encoding == Encoding::SOP1 || d.encoding == Encoding::SOP2))
    return false;
  if (d.sccCarryOut)
    return false;
  switch (op) {
  case Op::S_MOV_B32:
  case Op::S_MOV_MASK:
  case Op::S_MUL_I32:
  case Op::S_MUL_HI_U32:
  case Op::S_MUL_HI_I32:
  case Op::S_CSELECT_MASK:
  case Op::S_GETPC_B64:
  case Op::S_SETPC_B64:
  case Op::S_SEXT_I32_I16:
  case Op::S_FF1_I32_B64:
  case Op::S_FF1_I32_B32:
  case Op::S_MOV_B64: return false;
  case Op::S_PC_REL_ADDRESS: return true; // (the adds write their carry)
  default: return true;
  }
}

bool isBranch(Op op) {
  return op == Op::S_BRANCH || op == Op::S_CBRANCH_SCC0 || op == Op::S_CBRANCH_SCC1 || op == Op::S_CBRANCH_EXECZ ||
         op == Op::S_CBRANCH_EXECNZ;
}

bool isAtomic(Op op) { return op >= Op::GLOBAL_ATOMIC_ADD && op <= Op::DS_CMPST_RTN_B64; }

bool isFlat(Op op) {
  return (op >= Op::FLAT_LOAD_U8 && op <= Op::FLAT_STORE_B64) || (op >= Op::FLAT_ATOMIC_ADD && op <= Op::FLAT_ATOMIC_CMPSWAP_X2);
}

Op flatAtomicOf(Op g) {
  if (g < Op::GLOBAL_ATOMIC_ADD || g > Op::GLOBAL_ATOMIC_CMPSWAP_X2)
    throw std::logic_error("flatAtomicOf: not a global atomic");
  return static_cast<Op>(static_cast<int>(Op::FLAT_ATOMIC_ADD) + (static_cast<int>(g) - static_cast<int>(Op::GLOBAL_ATOMIC_ADD)));
}

} // namespace p2a::amd
