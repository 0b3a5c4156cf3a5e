#include "kernel/kernel_ir.hpp"
#include "kernel/analysis/work_counter.hpp"

#include "grammar/ast_blocks.hpp"
#include "semantics/bitvec.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <type_traits>

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
  // (A scan, counted: a loop over many variables must index them instead.)
  for (size_t i = 0; i < variables.size(); ++i)
    if (variables[i].name == n) {
      countWork(i + 1);
      return &variables[i];
    }
  countWork(variables.size());
  return nullptr;
}

VariableIndex::VariableIndex(const std::vector<Variable> &variables) {
  for (const Variable &v : variables)
    byName_.try_emplace(v.name, &v);
}

const Variable *VariableIndex::find(llvm::StringRef name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : it->second;
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

void nameRegisterOperands(Kernel &k) {
  RegisterNames &names = k.registerNamesToWrite();
  // (Sized by the registers declared, but at most about one a statement: a
  // kernel may declare far more than it uses.)
  names.reserve(std::min(k.registers.size(), k.body.size()) + 16);
  auto operands = [&](std::vector<ptx::Operand> &ops) {
    for (ptx::Operand &o : ops)
      if (o.isReg() && !o.reg.empty())
        names.intern(o.reg);
  };
  auto otherName = [&](const auto &r) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(r)>, ptx::RegisterName>)
      names.intern(llvm::StringRef(static_cast<const std::string &>(r)));
  };
  for (Stmt &s : k.body) {
    operands(s.inst.srcs);
    operands(s.inst.dsts);
    if (!s.extra().values.empty() || !s.extra().srcs.empty()) {
      Stmt::Extra &e = s.extraToWrite();
      operands(e.values);
      operands(e.srcs);
    }
    forEachReadRegister(s, otherName);
    forEachWrittenRegister(s, otherName);
  }
}

void foldAway(Stmt &s, std::string note) {
  s.kind = Stmt::Kind::Nop;
  s.inst = ptx::Instruction{};
  s.note = std::move(note);
}

std::vector<std::string> arrayElementsAccessed(const Stmt &s) {
  const auto [first, end] = arrayElementRange(s);
  return {s.extra().elements.begin() + first, s.extra().elements.begin() + end};
}

std::vector<std::string> writtenRegisters(const Stmt &s) {
  std::vector<std::string> out;
  forEachWrittenRegister(s, [&](const std::string &r) { out.push_back(r); });
  return out;
}

std::vector<std::string> readRegisters(const Stmt &s) {
  std::vector<std::string> out;
  forEachReadRegister(s, [&](const std::string &r) { out.push_back(r); });
  return out;
}

} // namespace p2a::kernel
