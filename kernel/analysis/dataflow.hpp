// Per-register write and read counts, single definitions and basic blocks
// of a kernel body, for the rewrites in kernel/transforms/ that look for
// values written once (fusions, local-array promotion).
#pragma once

#include "kernel/kernel_ir.hpp"

#include <optional>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

namespace p2a::kernel {

// What the rewrites need to know about a kernel: its basic blocks, and
// for each register how often it is written and read and (if written
// once) where.
struct Dataflow {
  std::vector<unsigned> block;
  // (Hashed: looked up per operand by every pass that builds one, never walked in order.)
  std::unordered_map<std::string, unsigned> writes, reads;
  std::unordered_map<std::string, size_t> def;

  explicit Dataflow(const Kernel &k) : block(k.body.size(), 0) {
    std::set<unsigned> starts;
    for (const auto &[name, index] : k.labels)
      starts.insert(index);
    unsigned b = 0;
    for (size_t i = 0; i < k.body.size(); ++i) {
      if (i > 0 && (starts.count(static_cast<unsigned>(i)) || k.body[i - 1].kind == Stmt::Kind::Branch ||
                    k.body[i - 1].kind == Stmt::Kind::Return))
        ++b;
      block[i] = b;
      for (const std::string &r : writtenRegisters(k.body[i])) {
        ++writes[r];
        def[r] = i;
      }
      for (const std::string &r : readRegisters(k.body[i]))
        ++reads[r];
    }
  }

  // The statement that alone writes `reg`, read only once, in `user`'s
  // block before it -- an intermediate result a fusion may absorb.
  std::optional<size_t> singleUseDef(const std::string &reg, size_t user) const {
    auto w = writes.find(reg), r = reads.find(reg);
    auto d = def.find(reg);
    if (w == writes.end() || w->second != 1 || r == reads.end() || r->second != 1 || d == def.end())
      return std::nullopt;
    if (d->second >= user || block[d->second] != block[user])
      return std::nullopt;
    return d->second;
  }
};

// Is register `reg` (or an immediate) unchanged between statements `from` and `to`?
inline bool unchangedBetween(const Kernel &k, const ptx::Operand &o, size_t from, size_t to) {
  if (!o.isReg())
    return true;
  for (size_t j = from + 1; j < to; ++j)
    for (const std::string &w : writtenRegisters(k.body[j]))
      if (w == o.reg)
        return false;
  return true;
}

} // namespace p2a::kernel
