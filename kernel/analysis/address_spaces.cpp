#include "kernel/analysis/address_spaces.hpp"
#include "kernel/analysis/work_counter.hpp"

#include <llvm/ADT/SmallVector.h>

namespace p2a::kernel {

namespace {

// The lattice, per register: no write seen yet, only integer values, only
// pointers into one space, or anything.
struct Origin {
  enum class Kind { Unset, Integer, Pointer, Unknown } kind = Kind::Unset;
  Space space = Space::Generic;
  bool operator==(const Origin &o) const { return kind == o.kind && (kind != Kind::Pointer || space == o.space); }
};

Origin join(const Origin &a, const Origin &b) {
  if (a.kind == Origin::Kind::Unset)
    return b;
  if (b.kind == Origin::Kind::Unset || a == b)
    return a;
  return {Origin::Kind::Unknown};
}

Origin pointer(Space s) { return {Origin::Kind::Pointer, s}; }

} // namespace

std::map<std::string, Space> pointerSpaces(const Kernel &k, const RegisterNumbering &ids) {
  std::vector<Origin> origin(ids.size()); // per register id (Unset: no write seen yet)
  // What statement i writes into its (single) destination.
  auto value = [&](size_t i) -> Origin {
    const Stmt &s = k.body[i];
    switch (s.kind) {
    case Stmt::Kind::Load:
      // A kernel argument is a global pointer (or an integer, which is
      // never used as an address without arithmetic that keeps it global);
      // anything loaded from memory may be any pointer.
      if (s.space == Space::Param && s.baseIsSymbol && k.param(s.extra().base))
        return pointer(Space::Global);
      return {Origin::Kind::Unknown};
    case Stmt::Kind::Cvta:
      if (!s.toGeneric)
        return {Origin::Kind::Integer}; // a segment offset, not a generic address
      return pointer(s.space == Space::Shared ? Space::Shared : s.space == Space::Local ? Space::Local : Space::Global);
    case Stmt::Kind::AddressOf: {
      const Variable *v = k.variable(s.extra().symbol);
      return v && (v->space == Space::Global || v->space == Space::Const) ? pointer(Space::Global)
                                                                          : Origin{Origin::Kind::Integer};
    }
    case Stmt::Kind::ReadSpecial: return {Origin::Kind::Integer};
    case Stmt::Kind::Compute: {
      const ptx::Opcode op = s.inst.form.opcode;
      // (The numbering lists a Compute's register sources in order, after its guard.)
      llvm::ArrayRef<unsigned> registers = ids.reads(i);
      if (!s.guard.empty())
        registers = registers.drop_front();
      llvm::SmallVector<Origin, 4> srcs;
      for (const ptx::Operand &o : s.inst.srcs) {
        if (o.isReg()) {
          srcs.push_back(origin[registers.front()]);
          registers = registers.drop_front();
        } else {
          srcs.push_back({Origin::Kind::Integer});
        }
        if (srcs.back().kind == Origin::Kind::Unset)
          return Origin{}; // nothing known yet (a loop-carried source): no contribution
      }
      bool anyPointer = false, anyUnknown = false;
      for (const Origin &o : srcs) {
        anyPointer |= o.kind == Origin::Kind::Pointer;
        anyUnknown |= o.kind == Origin::Kind::Unknown;
      }
      if (op == ptx::Opcode::Mov && srcs.size() == 1)
        return srcs[0];
      if (op == ptx::Opcode::Selp && srcs.size() == 3)
        return join(srcs[0], srcs[1]);
      if ((op == ptx::Opcode::Add || op == ptx::Opcode::Sub) && srcs.size() == 2 && !s.inst.form.carryIn &&
          !s.inst.form.carryOut) {
        // pointer + integer, integer + pointer, pointer - integer
        const bool p0 = srcs[0].kind == Origin::Kind::Pointer, p1 = srcs[1].kind == Origin::Kind::Pointer;
        const bool i0 = srcs[0].kind == Origin::Kind::Integer, i1 = srcs[1].kind == Origin::Kind::Integer;
        if (p0 && i1)
          return srcs[0];
        if (p1 && i0 && op == ptx::Opcode::Add)
          return srcs[1];
      }
      // Any other use of a pointer (masking it, packing halves, the
      // difference of two) may still be an address, of unknown space.
      if (anyPointer || anyUnknown || op == ptx::Opcode::MovPack)
        return {Origin::Kind::Unknown};
      return {Origin::Kind::Integer};
    }
    default: return {Origin::Kind::Unknown};
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    countWork(k.body.size());
    for (size_t i = 0; i < k.body.size(); ++i) {
      const llvm::ArrayRef<unsigned> written = ids.writes(i);
      for (unsigned r : written) {
        const Origin v = written.size() == 1 ? value(i) : Origin{Origin::Kind::Unknown};
        Origin &o = origin[r];
        const Origin j = join(o, v);
        if (!(j == o)) {
          o = j;
          changed = true;
        }
      }
    }
  }
  std::map<std::string, Space> spaces;
  for (unsigned r = 0; r < ids.size(); ++r)
    if (origin[r].kind == Origin::Kind::Pointer)
      spaces.emplace(ids.name(r), origin[r].space);
  return spaces;
}

} // namespace p2a::kernel
