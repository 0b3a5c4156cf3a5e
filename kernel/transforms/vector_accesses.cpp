#include "kernel/transforms/vector_accesses.hpp"

#include "kernel/analysis/dataflow.hpp"
#include "kernel/transforms/statement_building.hpp"

#include <algorithm>

namespace p2a::kernel {

namespace {

// A weak .v2/.v4 load of 32-bit elements into 32-bit registers that
// nothing else writes: each starts at the unpacking copy, so it may take
// its half of the pair's registers.
// What widens asks of the statement alone.
bool mayWiden(const Stmt &s) {
  return s.kind == Stmt::Kind::Load && s.elemBits == 32 && (s.extra().values.size() == 2 || s.extra().values.size() == 4) &&
         !s.strong && !s.ordered && !(s.space == Space::Param && s.baseIsSymbol) && // (parameters are read from SGPRs)
         s.guard.empty(); // (a guarded write reads what it keeps: the pair would be live up to the load)
}

bool widens(const Kernel &k, const Stmt &s, const Dataflow &df) {
  if (!mayWiden(s))
    return false;
  for (const ptx::Operand &v : s.extra().values)
    if (!v.isReg() || k.registerWidth(v.reg) != 32 || df.writes(v.reg) != 1)
      return false;
  return true;
}

} // namespace

Kernel widenVectorAccesses(Kernel k) {
  if (std::none_of(k.body.begin(), k.body.end(), mayWiden)) // (no register counts to take)
    return k;
  const size_t n = k.body.size();
  const Dataflow df(k);
  std::vector<std::vector<Stmt>> before(n), after(n);
  unsigned fresh = 0;
  for (size_t i = 0; i < n; ++i) {
    Stmt &s = k.body[i];
    if (!widens(k, s, df))
      continue;
    const std::string what = "ld.v" + std::to_string(s.extra().values.size()) + " of 32-bit elements";
    std::vector<ptx::Operand> pairs;
    for (size_t e = 0; e < s.extra().values.size(); e += 2) {
      const std::string q = "%__pair" + std::to_string(fresh++);
      k.registers.set(q, ptx::RegisterType{ptx::TypeClass::B, 64});
      pairs.push_back(registerOperand(q));
      Stmt unpack = computation(s,
                                ptx::Instruction{ptx::Form{ptx::Opcode::MovUnpack, ptx::TypeClass::B, 64},
                                                 {s.extra().values[e], s.extra().values[e + 1]}, {registerOperand(q)}, {}, {}},
                                "elements " + std::to_string(e) + " and " + std::to_string(e + 1) + " of the " +
                                    what + ": the halves of one 64-bit element");
      unpack.inserted = true;
      after[i].push_back(std::move(unpack));
    }
    s.extraToWrite().values = std::move(pairs);
    s.elemBits = 64;
    s.elemType = ptx::TypeClass::B;
    s.note = "the " + what + " as " + std::to_string(s.extra().values.size()) + " 64-bit element(s)";
  }
  return withInsertedStatements(std::move(k), std::move(before), std::move(after));
}

} // namespace p2a::kernel
