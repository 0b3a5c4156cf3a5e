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
  case MOperand::Kind::Phys: {
    const std::string file = o.physSgpr ? "s" : "v";
    if (o.physCount == 1)
      return file + std::to_string(o.physIndex);
    return file + "[" + std::to_string(o.physIndex) + ":" + std::to_string(o.physIndex + o.physCount - 1) + "]";
  }
  }
  return "?";
}

} // namespace

std::string printVirtualReg(unsigned vreg, const Function &fn, rules::Part part) {
  const VReg &v = fn.vregs.at(vreg);
  std::string s = v.ptxName.empty() ? "%t" + std::to_string(vreg) : v.ptxName;
  if (part == rules::Part::Lo)
    s += ".lo";
  else if (part == rules::Part::Hi)
    s += ".hi";
  return s + ":" + className(v.cls) + (v.readInPlace ? "(in place)" : "");
}

std::string printVirtual(const MInst &mi, const Function &fn) {
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
  return s;
}

} // namespace p2a::mir
