#include "isel/mir_printer.hpp"

#include <cstdio>

namespace p2a::mir {

namespace {

const char *className(RegClass c) {
  switch (c) {
  case RegClass::V32: return "v32";
  case RegClass::V64: return "v64";
  case RegClass::Mask: return "mask";
  case RegClass::S32: return "s32";
  case RegClass::S64: return "s64";
  }
  return "?";
}

std::string operandText(const MOperand &o, const Function &fn) {
  switch (o.kind) {
  case MOperand::Kind::VReg: return printVirtualReg(o.vreg, fn, o.part);
  case MOperand::Kind::Pair: return "{" + printVirtualReg(o.vreg, fn) + ", " + printVirtualReg(o.vregHi, fn) + "}";
  case MOperand::Kind::Imm: {
    char buf[32];
    std::snprintf(buf, sizeof buf, o.imm < 65 ? "%llu" : "0x%llx", static_cast<unsigned long long>(o.imm));
    return buf;
  }
  case MOperand::Kind::Vcc: return "vcc";
  case MOperand::Kind::Exec: return "exec";
  case MOperand::Kind::Scc: return "scc";
  case MOperand::Kind::None: return "";
  case MOperand::Kind::Phys: return physicalRegText(o);
  case MOperand::Kind::Wait: return std::string(o.counter == targets::Counter::VmLoad    ? "loads"
                                                : o.counter == targets::Counter::VmStore ? "stores"
                                                : o.counter == targets::Counter::Scalar  ? "scalar"
                                                                                         : "lds") +
                                    "<=" + std::to_string(o.imm);
  case MOperand::Kind::Label:
  case MOperand::Kind::Symbol:
  case MOperand::Kind::Special:
  case MOperand::Kind::HwReg:
  case MOperand::Kind::CachePolicy: return namedOperandText(o, fn);
  }
  return "?";
}

} // namespace

std::string registerTupleText(const char *file, unsigned first, unsigned count, TupleSpelling tuples) {
  if (count == 1)
    return file + std::to_string(first);
  if (tuples == TupleSpelling::Range)
    return file + ("[" + std::to_string(first) + ":" + std::to_string(first + count - 1) + "]");
  std::string text = "[";
  for (unsigned i = 0; i < count; ++i)
    text += (i ? "," : "") + (file + std::to_string(first + i));
  return text + "]";
}

std::string physicalRegText(const MOperand &o, TupleSpelling tuples) {
  const char *file = o.file == RegFile::Sgpr ? "s" : o.file == RegFile::Ttmp ? "ttmp" : "v";
  return registerTupleText(file, o.physIndex, o.physCount, tuples);
}

std::string namedOperandText(const MOperand &o, const Function &fn) {
  switch (o.kind) {
  case MOperand::Kind::Label: return fn.labels.at(o.imm);
  case MOperand::Kind::Symbol: {
    const SymbolRef &r = fn.symbols.at(o.imm);
    if (!r.from.empty())
      return "(" + r.name + "-" + r.from + (r.high ? ")>>32" : ")&4294967295");
    return r.name + (r.high ? "@rel32@hi" : "@rel32@lo") + (r.addend >= 0 ? "+" : "") + std::to_string(r.addend);
  }
  case MOperand::Kind::Special:
    switch (static_cast<SpecialReg>(o.imm)) {
    case SpecialReg::FlatScratchLo: return "flat_scratch_lo";
    case SpecialReg::FlatScratchHi: return "flat_scratch_hi";
    case SpecialReg::SrcSharedBase: return "src_shared_base";
    case SpecialReg::SrcPrivateBase: return "src_private_base";
    }
    break;
  case MOperand::Kind::HwReg:
    return static_cast<HwReg>(o.imm) == HwReg::FlatScrLo ? "hwreg(HW_REG_FLAT_SCR_LO)" : "hwreg(HW_REG_FLAT_SCR_HI)";
  case MOperand::Kind::CachePolicy:
    switch (static_cast<CachePolicy>(o.imm)) {
    case CachePolicy::None: return "";
    case CachePolicy::Sc1: return "sc1";
    case CachePolicy::Sc0Sc1: return "sc0 sc1";
    case CachePolicy::ScopeSe: return "scope:SCOPE_SE";
    case CachePolicy::ScopeDev: return "scope:SCOPE_DEV";
    case CachePolicy::ScopeSys: return "scope:SCOPE_SYS";
    case CachePolicy::Glc: return "glc";
    case CachePolicy::GlcDlc: return "glc dlc";
    case CachePolicy::Sc0: return "sc0";
    }
    break;
  default: break;
  }
  return "?";
}

std::string printVirtualReg(unsigned vreg, const Function &fn, rules::Part part) {
  const VReg &v = fn.vregs.at(vreg);
  const std::string &name = fn.ptxName(vreg);
  std::string s = name.empty() ? "%t" + std::to_string(vreg) : name;
  if (v.role == VRegRole::ScalarHome)
    s = "s:" + s; // the SGPR home of that register's value
  if (part == rules::Part::Lo)
    s += ".lo";
  else if (part == rules::Part::Hi)
    s += ".hi";
  return s + ":" + className(v.cls) + (v.readInPlace ? "(in place)" : "");
}

std::string printVirtual(const MInst &mi, const Function &fn) {
  if (mi.op == amd::Op::LABEL)
    return namedOperandText(mi.srcs.at(0), fn) + ":";
  std::string s = amd::opDef(mi.op).name;
  bool first = true;
  auto add = [&](const MOperand &o) {
    const std::string t = operandText(o, fn);
    if (t.empty())
      return;
    s += (first ? " " : ", ") + t;
    first = false;
  };
  add(mi.dst);
  for (const MOperand &o : mi.srcs)
    add(o);
  if (mi.policy != CachePolicy::None)
    s += " " + namedOperandText(cachePolicy(mi.policy), fn);
  return s;
}

} // namespace p2a::mir
