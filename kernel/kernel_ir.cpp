#include "kernel/kernel_ir.hpp"

#include "grammar/ast_blocks.hpp"
#include "semantics/bitvec.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace p2a::kernel {

namespace ast = ::ptx::ast;
using ptx::TypeClass;

const char *spaceName(Space s) {
  switch (s) {
  case Space::Param: return "param";
  case Space::Global: return "global";
  case Space::Generic: return "generic";
  case Space::Shared: return "shared";
  case Space::Local: return "local";
  case Space::Const: return "const";
  }
  return "?";
}

const Param *Kernel::param(const std::string &n) const {
  for (const Param &p : params)
    if (p.name == n)
      return &p;
  return nullptr;
}

const Variable *Kernel::variable(const std::string &n) const {
  for (const Variable &v : variables)
    if (v.name == n)
      return &v;
  return nullptr;
}


SegmentLayout layoutSegment(const Kernel &k, Space space) {
  SegmentLayout l;
  unsigned dynamicAlign = 1;
  for (const Variable &v : k.variables) {
    if (v.space != space)
      continue;
    if (v.dynamic) {
      l.dynamic = true;
      dynamicAlign = std::max(dynamicAlign, v.align);
      continue;
    }
    l.bytes = alignTo(l.bytes, std::max(v.align, 1u));
    l.offset[v.name] = l.bytes;
    l.bytes += v.size;
  }
  if (l.dynamic) {
    l.bytes = alignTo(l.bytes, dynamicAlign);
    for (const Variable &v : k.variables)
      if (v.space == space && v.dynamic)
        l.offset[v.name] = l.bytes;
  }
  return l;
}

void foldAway(Stmt &s, std::string note) {
  s.kind = Stmt::Kind::Nop;
  s.inst = ptx::Instruction{};
  s.note = std::move(note);
}

std::vector<std::string> arrayElementsAccessed(const Stmt &s) {
  if (!s.base.empty()) // any of them (a store's others keep their values: it reads them too)
    return s.elements;
  const size_t first = size_t(s.offset / 4), dwords = s.values.size() * (s.elemBits == 64 ? 2 : 1);
  return {s.elements.begin() + first, s.elements.begin() + first + dwords};
}

std::vector<std::string> writtenRegisters(const Stmt &s) {
  std::vector<std::string> out;
  switch (s.kind) {
  case Stmt::Kind::Compute:
    for (const ptx::Operand &d : s.inst.dsts)
      if (d.isReg())
        out.push_back(d.reg);
    break;
  case Stmt::Kind::Load:
  case Stmt::Kind::ArrayLoad:
    for (const ptx::Operand &v : s.values)
      out.push_back(v.reg);
    break;
  case Stmt::Kind::ArrayStore: out = arrayElementsAccessed(s); break;
  case Stmt::Kind::ReadSpecial:
  case Stmt::Kind::AddressOf:
  case Stmt::Kind::Cvta:
  case Stmt::Kind::WarpVote: out.push_back(s.dst); break;
  case Stmt::Kind::Barrier:
    if (s.barrierReduce != Stmt::BarrierReduce::None)
      out.push_back(s.dst);
    break;
  case Stmt::Kind::WarpShuffle:
  case Stmt::Kind::WarpCombine:
    out.push_back(s.dst);
    if (!s.predDst.empty())
      out.push_back(s.predDst);
    break;
  case Stmt::Kind::Atomic:
    if (!s.dst.empty())
      out.push_back(s.dst);
    break;
  default: break;
  }
  return out;
}

std::vector<std::string> readRegisters(const Stmt &s) {
  std::vector<std::string> out;
  auto add = [&](const ptx::Operand &o) {
    if (o.isReg())
      out.push_back(o.reg);
  };
  if (!s.guard.empty())
    out.push_back(s.guard);
  switch (s.kind) {
  case Stmt::Kind::Compute:
    for (const ptx::Operand &o : s.inst.srcs)
      add(o);
    break;
  case Stmt::Kind::Store:
  case Stmt::Kind::Atomic:
    for (const ptx::Operand &o : s.values)
      add(o);
    [[fallthrough]];
  case Stmt::Kind::Load:
    if (!s.baseIsSymbol)
      out.push_back(s.base);
    break;
  case Stmt::Kind::ArrayStore:
    for (const ptx::Operand &o : s.values)
      add(o);
    if (s.base.empty()) // (a store at a constant offset only writes its elements)
      break;
    [[fallthrough]];
  case Stmt::Kind::ArrayLoad: {
    if (!s.base.empty())
      out.push_back(s.base);
    const std::vector<std::string> elements = arrayElementsAccessed(s);
    out.insert(out.end(), elements.begin(), elements.end());
    break;
  }
  case Stmt::Kind::Cvta:
  case Stmt::Kind::WarpShuffle:
  case Stmt::Kind::WarpVote:
  case Stmt::Kind::WarpSync:
  case Stmt::Kind::WarpCombine:
  case Stmt::Kind::Barrier:
  case Stmt::Kind::Trap:
    for (const ptx::Operand &o : s.srcs)
      add(o);
    break;
  default: break;
  }
  return out;
}

} // namespace p2a::kernel
