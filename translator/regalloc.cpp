#include "translator/regalloc.hpp"

#include "targets/target_info.hpp"

#include <stdexcept>

namespace p2a::regalloc {

namespace {

struct Pool {
  std::vector<bool> used;
  unsigned take(unsigned count, unsigned align) {
    for (unsigned base = 0;; base += align) {
      if (used.size() < base + count)
        used.resize(base + count, false);
      bool free = true;
      for (unsigned k = 0; k < count; ++k)
        free = free && !used[base + k];
      if (free) {
        for (unsigned k = 0; k < count; ++k)
          used[base + k] = true;
        return base;
      }
    }
  }
};

} // namespace

mir::Allocation allocate(const mir::Function &fn, const targets::TargetInfo &t) {
  const unsigned n = static_cast<unsigned>(fn.vregs.size());
  const unsigned unset = ~0u;
  mir::Allocation a;
  a.phys.assign(n, unset);
  Pool vgprs, sgprs;
  const unsigned maskRegs = t.wave_size == 64 ? 2 : 1;
  for (unsigned v = 0; v < n; ++v) {
    if (a.phys[v] != unset)
      continue;
    switch (fn.vregs[v].cls) {
    case mir::RegClass::Mask: a.phys[v] = sgprs.take(maskRegs, maskRegs); break;
    case mir::RegClass::V64: a.phys[v] = vgprs.take(2, 2); break;
    case mir::RegClass::V32: {
      const std::pair<unsigned, unsigned> *pr = nullptr;
      for (const auto &p : fn.pairs)
        if (p.first == v || p.second == v)
          pr = &p;
      if (!pr) {
        a.phys[v] = vgprs.take(1, 1);
        break;
      }
      if (a.phys[pr->first] != unset || a.phys[pr->second] != unset)
        throw std::logic_error("regalloc: half of a register pair assigned alone");
      unsigned base = vgprs.take(2, 2);
      a.phys[pr->first] = base;
      a.phys[pr->second] = base + 1;
      break;
    }
    }
  }
  a.numVgprs = static_cast<unsigned>(vgprs.used.size());
  a.numSgprs = static_cast<unsigned>(sgprs.used.size());
  return a;
}

} // namespace p2a::regalloc
