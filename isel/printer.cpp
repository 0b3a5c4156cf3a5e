#include "isel/printer.hpp"

#include "isel/mir_printer.hpp"
#include "targets/alu_delay.hpp"
#include "targets/target_info.hpp"

#include <cstdio>
#include <stdexcept>

namespace p2a::printer {

using mir::MOperand;
using rules::Part;

namespace {


std::string immText(uint64_t v, amd::Slot slot) {
  int64_t sv = slot == amd::Slot::V64 ? static_cast<int64_t>(v) : static_cast<int32_t>(static_cast<uint32_t>(v));
  if (amd::isInlineConstant(sv))
    return std::to_string(sv);
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(slot == amd::Slot::V64 ? v : (v & 0xffffffffu)));
  return buf;
}

// `half` selects one 32-bit half of a 64-bit operand (VOPD prints halves).
std::string operandText(const MOperand &o, amd::Slot slot, const mir::Function &fn, const mir::Allocation &a,
                        const targets::TargetInfo &t, int half = -1) {
  switch (o.kind) {
  case MOperand::Kind::Imm:
    if (half >= 0)
      return immText(half == 0 ? (o.imm & 0xffffffffu) : (o.imm >> 32), amd::Slot::V32);
    return immText(o.imm, slot);
  case MOperand::Kind::Vcc: return t.wave_size == 32 ? "vcc_lo" : "vcc";
  case MOperand::Kind::Exec: return t.wave_size == 32 ? "exec_lo" : "exec";
  case MOperand::Kind::Pair: {
    unsigned lo = a.phys[o.vreg], hi = a.phys[o.vregHi];
    if (fn.vregs[o.vreg].cls == mir::RegClass::V64) { // two 64-bit values: a 128-bit operand
      if (hi != lo + 2 || half >= 0)
        throw std::logic_error("printer: register quad not consecutive");
      return mir::registerTupleText("v", lo, 4, fn.tuples);
    }
    if (hi != lo + 1)
      throw std::logic_error("printer: register pair not consecutive");
    if (half >= 0)
      return "v" + std::to_string(half == 0 ? lo : hi);
    return mir::registerTupleText("v", lo, 2, fn.tuples);
  }
  case MOperand::Kind::Phys: {
    if (half >= 0 && o.physCount == 2) {
      MOperand h = o;
      h.physIndex += static_cast<unsigned>(half);
      h.physCount = 1;
      return mir::physicalRegText(h);
    }
    return mir::physicalRegText(o, fn.tuples);
  }
  case MOperand::Kind::Wait: return targets::waitInstruction(o.counter, static_cast<unsigned>(o.imm), t);
  case MOperand::Kind::Label:
  case MOperand::Kind::Symbol:
  case MOperand::Kind::Special:
  case MOperand::Kind::HwReg:
  case MOperand::Kind::CachePolicy: return mir::namedOperandText(o, fn);
  case MOperand::Kind::None:
  case MOperand::Kind::Scc: return "";
  case MOperand::Kind::VReg: break;
  }
  const mir::VReg &v = fn.vregs[o.vreg];
  unsigned p = a.phys[o.vreg];
  if (v.cls == mir::RegClass::Mask && t.wave_size == 64 && o.part != Part::Whole)
    return "s" + std::to_string(o.part == Part::Hi ? p + 1 : p);
  if (v.cls == mir::RegClass::Mask)
    return mir::registerTupleText("s", p, t.wave_size == 64 ? 2 : 1, fn.tuples);
  if (v.cls == mir::RegClass::S64) {
    if (o.part == Part::Lo || half == 0)
      return "s" + std::to_string(p);
    if (o.part == Part::Hi || half == 1)
      return "s" + std::to_string(p + 1);
    return mir::registerTupleText("s", p, 2, fn.tuples);
  }
  if (v.cls == mir::RegClass::S32)
    return "s" + std::to_string(p);
  if (v.cls == mir::RegClass::V64) {
    if (o.part == Part::Lo || half == 0)
      return "v" + std::to_string(p);
    if (o.part == Part::Hi || half == 1)
      return "v" + std::to_string(p + 1);
    return mir::registerTupleText("v", p, 2, fn.tuples);
  }
  return "v" + std::to_string(p);
}

// The modifier that makes a global atomic return the old value: glc, sc0 on
// MI300, th:TH_ATOMIC_RETURN on gfx12 (docs/notes/atomics.md; MC rejects
// the others on each target).
const char *atomicReturnBit(const targets::TargetInfo &t) {
  if (t.generation >= targets::Generation::GFX12)
    return "th:TH_ATOMIC_RETURN";
  return t.name == "gfx942" ? "sc0" : "glc";
}

// global_atomic_OP [vdst,] vaddr, vdata, off [offset:N] [return bit] [scope] (flat_atomic_OP without ", off")
// ds_OP[_rtn] [vdst,] vaddr, vdata [, vdata1] [offset:N] (and ds_bpermute_b32 vdst, vaddr, vdata)
std::string atomicText(const mir::MInst &mi, std::string mn, const mir::Function &fn, const mir::Allocation &a,
                       const targets::TargetInfo &t) {
  const amd::OpDef &def = amd::opDef(mi.op);
  const bool returns = mi.dst.kind != MOperand::Kind::None;
  const int64_t off = static_cast<int32_t>(static_cast<uint32_t>(mi.srcs.at(def.encoding == amd::Encoding::DS ? mi.srcs.size() - 1 : 2).imm));
  std::string s;
  if (def.encoding == amd::Encoding::DS) {
    if (mi.op == amd::Op::DS_CMPST_RTN_B32 && t.generation >= targets::Generation::GFX11)
      mn = "ds_cmpstore_rtn_b32";
    if (mi.op == amd::Op::DS_CMPST_RTN_B64 && t.generation >= targets::Generation::GFX11)
      mn = "ds_cmpstore_rtn_b64";
    if (!returns)
      if (size_t at = mn.find("_rtn"); at != std::string::npos)
        mn.erase(at, 4);
    s = mn + " ";
    if (returns)
      s += operandText(mi.dst, def.dst, fn, a, t) + ", ";
    std::vector<size_t> order{0, 1};
    if (mi.srcs.size() == 4) // compare-swap: gfx9/10 print the compare value first, gfx11+ the new one
      order = t.generation >= targets::Generation::GFX11 ? std::vector<size_t>{0, 2, 1} : std::vector<size_t>{0, 1, 2};
    for (size_t i = 0; i < order.size(); ++i)
      s += (i ? ", " : "") + operandText(mi.srcs[order[i]], def.srcs[order[i]], fn, a, t);
    if (off)
      s += " offset:" + std::to_string(off);
    return s;
  }
  s = mn + " ";
  if (returns)
    s += operandText(mi.dst, def.dst, fn, a, t) + ", ";
  s += operandText(mi.srcs[0], def.srcs[0], fn, a, t) + ", " + operandText(mi.srcs[1], def.srcs[1], fn, a, t) +
       (amd::isFlat(mi.op) ? "" : ", off"); // FLAT has no SGPR-base field
  if (off)
    s += " offset:" + std::to_string(off);
  if (returns)
    s += std::string(" ") + atomicReturnBit(t);
  const std::string policy = operandText(mi.srcs.at(3), amd::Slot::Other, fn, a, t);
  if (!policy.empty())
    s += " " + policy;
  return s;
}

} // namespace

mir::MOperand physical(const MOperand &o, const mir::Function &fn, const mir::Allocation &a,
                       const targets::TargetInfo &t) {
  if (o.kind == MOperand::Kind::Pair) {
    const unsigned lo = a.phys[o.vreg], hi = a.phys[o.vregHi];
    const bool quad = fn.vregs[o.vreg].cls == mir::RegClass::V64;
    if (hi != lo + (quad ? 2 : 1))
      throw std::logic_error("register pair not consecutive");
    return mir::vgprs(lo, quad ? 4 : 2);
  }
  if (o.kind != MOperand::Kind::VReg)
    return o;
  const mir::VReg &v = fn.vregs[o.vreg];
  const unsigned p = a.phys[o.vreg];
  const mir::RegFile file = mir::isSgprClass(v.cls) ? mir::RegFile::Sgpr : mir::RegFile::Vgpr;
  switch (v.cls) {
  case mir::RegClass::Mask: // a wave64 mask's halves one at a time: SGPR spills
    if (t.wave_size == 64 && o.part != Part::Whole)
      return mir::physReg(file, o.part == Part::Hi ? p + 1 : p);
    return mir::physReg(file, p, t.wave_size == 64 ? 2 : 1);
  case mir::RegClass::V32:
  case mir::RegClass::S32: return mir::physReg(file, p);
  case mir::RegClass::V64:
  case mir::RegClass::S64:
    if (o.part == Part::Whole)
      return mir::physReg(file, p, 2);
    return mir::physReg(file, o.part == Part::Hi ? p + 1 : p);
  }
  return o;
}

mir::MInst physical(const mir::MInst &mi, const mir::Function &fn, const mir::Allocation &a,
                    const targets::TargetInfo &t) {
  mir::MInst r{mi.op, physical(mi.dst, fn, a, t), {}, mi.policy};
  r.srcs.reserve(mi.srcs.size());
  for (const MOperand &o : mi.srcs)
    r.srcs.push_back(physical(o, fn, a, t));
  return r;
}

std::vector<mir::MInst> expandBundle(const mir::MInst &mi, const targets::TargetInfo &t) {
  if (mi.op != amd::Op::S_PC_REL_ADDRESS)
    return {mi};
  const unsigned lo = mi.dst.physIndex;
  std::vector<mir::MInst> r{mir::MInst{amd::Op::S_GETPC_B64, mi.dst, {}}};
  if (t.getpc_zero_extends) // (the addends count its 4 bytes: Lowering::emitPrologue)
    r.push_back(mir::MInst{amd::Op::S_SEXT_I32_I16, mir::sgprs(lo + 1), {mir::sgprs(lo + 1)}});
  r.push_back(mir::MInst{amd::Op::S_ADD_U32, mir::sgprs(lo), {mir::sgprs(lo), mi.srcs.at(0)}});
  r.push_back(mir::MInst{amd::Op::S_ADDC_U32, mir::sgprs(lo + 1), {mir::sgprs(lo + 1), mi.srcs.at(1)}});
  return r;
}

std::string physName(unsigned vreg, const mir::Function &fn, const mir::Allocation &a, const targets::TargetInfo &t) {
  return operandText(mir::vregOperand(vreg), mir::slotOf(fn.vregs[vreg].cls), fn, a, t);
}

std::string printInst(const mir::MInst &mi, const mir::Function &fn, const mir::Allocation &a,
                      const targets::TargetInfo &t) {
  const amd::OpDef &def = amd::opDef(mi.op);
  switch (mi.op) {
  // Pseudo instructions: a label's line; the waits (for IR dumps only: the
  // wait insertion replaces them).
  case amd::Op::LABEL: return operandText(mi.srcs.at(0), amd::Slot::Other, fn, a, t) + ":";
  case amd::Op::WAIT_LOADS: return "(wait for every outstanding load)";
  case amd::Op::WAIT_ALL: return "(wait for every outstanding memory access)";
  // The wait's whole spelling depends on the counter and the target.
  case amd::Op::S_WAITCNT: return operandText(mi.srcs.at(0), amd::Slot::Other, fn, a, t);
  case amd::Op::S_DELAY_ALU: return targets::delayAluText(static_cast<unsigned>(mi.srcs.at(0).imm));
  default: break;
  }
  const std::string mn = amd::mnemonic(mi.op, t);
  if (def.encoding == amd::Encoding::CacheMaintenance) {
    const std::string policy = operandText(mi.srcs.at(0), amd::Slot::Other, fn, a, t);
    return policy.empty() ? mn : mn + " " + policy;
  }
  if (mi.op == amd::Op::V_DUAL_CNDMASK_PAIR) {
    // X writes the low half, Y the high half; both read VCC implicitly.
    std::string s;
    for (int h = 0; h < 2; ++h) {
      if (h)
        s += " :: ";
      s += mn + " " + operandText(mi.dst, def.dst, fn, a, t, h) + ", " +
           operandText(mi.srcs[0], def.srcs[0], fn, a, t, h) + ", " + operandText(mi.srcs[1], def.srcs[1], fn, a, t, h);
    }
    return s;
  }
  if (amd::isAtomic(mi.op) || mi.op == amd::Op::DS_BPERMUTE_B32) // ds_bpermute: an LDS atomic's operands
    return atomicText(mi, mn, fn, a, t);
  if (def.encoding == amd::Encoding::VMEM || def.encoding == amd::Encoding::DS) {
    // global_load vdst, vaddr, off|sbase [offset:N] / global_store vaddr, vdata, off|sbase [offset:N]
    // (FLAT-global syntax as llvm-mc prints it, no SGPR base: "off");
    // ds_read vdst, vaddr [offset:N] / ds_write vaddr, vdata [offset:N].
    const bool store = def.dst == amd::Slot::None;
    std::string s = mn + " ";
    if (store)
      s += operandText(mi.srcs[0], def.srcs[0], fn, a, t) + ", " + operandText(mi.srcs[1], def.srcs[1], fn, a, t);
    else
      s += operandText(mi.dst, def.dst, fn, a, t) + ", " + operandText(mi.srcs[0], def.srcs[0], fn, a, t);
    // An SGPR base (the saddr form) is the operand before the offset.
    if (def.encoding == amd::Encoding::VMEM && mi.srcs.size() >= 3 && def.srcs[mi.srcs.size() - 2] == amd::Slot::Sgprs)
      s += ", " + operandText(mi.srcs[mi.srcs.size() - 2], amd::Slot::Sgprs, fn, a, t);
    else if (def.encoding == amd::Encoding::VMEM && !amd::isFlat(mi.op))
      s += ", off";
    const int64_t off = static_cast<int32_t>(static_cast<uint32_t>(mi.srcs.back().imm));
    if (off)
      s += " offset:" + std::to_string(off);
    if (mi.policy != mir::CachePolicy::None)
      s += " " + operandText(mir::cachePolicy(mi.policy), amd::Slot::Other, fn, a, t);
    return s;
  }
  if (def.encoding == amd::Encoding::SMEM) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(mi.srcs[1].imm));
    return mn + " " + operandText(mi.dst, def.dst, fn, a, t) + ", " + operandText(mi.srcs[0], def.srcs[0], fn, a, t) +
           ", " + buf;
  }
  // SCC is implicit: an SOPC compare prints its sources only, s_cselect
  // leaves out the SCC it reads. (Written into one string: this prints
  // every instruction of a kernel, a list of operand strings each time.)
  std::string s;
  s.reserve(64);
  s += mn;
  bool first = true;
  auto operand = [&](std::string_view text) {
    s += first ? " " : ", ";
    s += text;
    first = false;
  };
  if (def.dst != amd::Slot::Scc && def.dst != amd::Slot::None)
    operand(operandText(mi.dst, def.dst, fn, a, t));
  if (def.writesVcc()) // the carry goes to VCC, written explicitly in the VOP2/VOP3B syntax
    operand(t.wave_size == 32 ? "vcc_lo" : "vcc");
  for (size_t i = 0; i < mi.srcs.size(); ++i)
    if (def.srcs[i] != amd::Slot::Scc)
      operand(operandText(mi.srcs[i], def.srcs[i], fn, a, t));
  s += def.suffix;
  return s;
}

} // namespace p2a::printer
