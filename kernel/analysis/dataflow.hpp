// Per-register write and read counts, single definitions and basic blocks
// of a kernel body, for the rewrites in kernel/transforms/ that look for
// values written once (fusions, local-array promotion).
#pragma once

#include "kernel/analysis/register_numbering.hpp"
#include "kernel/kernel_ir.hpp"

#include <optional>
#include <string>
#include <vector>

namespace p2a::kernel {

// What the rewrites need to know about a kernel: its basic blocks, and
// for each register how often it is written and read and (if written
// once) where. Counted over the registers' dense ids (register_numbering):
// one hash of a name per operand, and per register three vector slots.
class Dataflow {
public:
  std::vector<unsigned> block;

  explicit Dataflow(const Kernel &k) : block(k.body.size(), 0), ids_(k) {
    // (A flag per statement: a tree of the labels' statements was searched
    // for every statement, and inlined kernels have a label per call.)
    std::vector<bool> starts(k.body.size() + 1, false);
    for (const auto &[name, index] : k.labels)
      if (index < starts.size())
        starts[index] = true;
    writes_.assign(ids_.size(), 0);
    reads_.assign(ids_.size(), 0);
    def_.assign(ids_.size(), 0);
    unsigned b = 0;
    for (size_t i = 0; i < k.body.size(); ++i) {
      if (i > 0 && (starts[i] || k.body[i - 1].kind == Stmt::Kind::Branch ||
                    k.body[i - 1].kind == Stmt::Kind::Return))
        ++b;
      block[i] = b;
      for (unsigned r : ids_.writes(i)) {
        ++writes_[r];
        def_[r] = i;
      }
      for (unsigned r : ids_.reads(i))
        ++reads_[r];
    }
  }

  // How often `reg` is written and read (0: never, or no such register).
  unsigned writes(RegisterRef reg) const { return count(writes_, reg); }
  unsigned reads(RegisterRef reg) const { return count(reads_, reg); }
  // The last statement writing `reg` (the only one where writes(reg) is 1);
  // `reg` must be written.
  size_t def(RegisterRef reg) const { return def_[*ids_.find(reg)]; }

  // The registers' dense ids, for a rewrite's own per-register tables: how
  // many there are, a name's (none for a register the body does not name),
  // and the ids statement i writes.
  size_t registerCount() const { return ids_.size(); }
  std::optional<unsigned> id(RegisterRef reg) const { return ids_.find(reg); }
  llvm::ArrayRef<unsigned> writtenIds(size_t i) const { return ids_.writes(i); }

  // The statement that alone writes `reg`, read only once, in `user`'s
  // block before it -- an intermediate result a fusion may absorb.
  std::optional<size_t> singleUseDef(RegisterRef reg, size_t user) const {
    const std::optional<unsigned> r = ids_.find(reg);
    if (!r || writes_[*r] != 1 || reads_[*r] != 1)
      return std::nullopt;
    const size_t d = def_[*r];
    if (d >= user || block[d] != block[user])
      return std::nullopt;
    return d;
  }

private:
  RegisterNumbering ids_;
  std::vector<unsigned> writes_, reads_;
  std::vector<size_t> def_;

  unsigned count(const std::vector<unsigned> &counts, RegisterRef reg) const {
    const std::optional<unsigned> r = ids_.find(reg);
    return r ? counts[*r] : 0;
  }
};

// Does a statement in [from, to) write register `reg`? (Each statement's
// registers visited in place: a list of their names per statement was a
// heap block and a string copy each, for every candidate of every fusion.)
inline bool writtenIn(const Kernel &k, const std::string &reg, size_t from, size_t to) {
  for (size_t j = from; j < to; ++j) {
    bool written = false;
    forEachWrittenRegister(k.body[j], [&](const std::string &w) { written = written || w == reg; });
    if (written)
      return true;
  }
  return false;
}

// Is register `reg` (or an immediate) unchanged between statements `from` and `to`?
inline bool unchangedBetween(const Kernel &k, const ptx::Operand &o, size_t from, size_t to) {
  return !o.isReg() || !writtenIn(k, o.reg, from + 1, to);
}

} // namespace p2a::kernel
