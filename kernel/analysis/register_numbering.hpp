// Dense ids for the registers a kernel body reads and writes, and per
// statement the ids it reads and writes, made in one walk of the body.
// The analyses over whole kernels (liveness, uniform values, scheduling)
// index vectors by these ids instead of keying maps by names: names are
// hashed once per access here, never again in their fixed points.
//
// Ids are given in order of first appearance, each statement's reads
// before its writes (the order forEachReadRegister/forEachWrittenRegister
// visit them), so the numbering of a body is always the same.
//
// A register operand is numbered by the id its kernel's register table gave
// it (kernel/register_names.hpp), through a vector; a name without one (a
// guard, a load's base, a rewrite's new operand) by a lookup in that table,
// and only a name the table lacks by a map of the numbering's own. Names
// are references into the table, whose entries never move: a rewrite may
// edit the kernel in place (and add names to its table) while it reads the
// numbering (and a Dataflow over it) made before the edits.
#pragma once

#include "kernel/kernel_ir.hpp"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Allocator.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace p2a::kernel {

// A register to look up: an operand's name, with its id, or any name.
struct RegisterRef {
  RegisterRef(const ptx::RegisterName &r) : name(r.str()), tableId(r.id()) {}
  RegisterRef(const std::string &s) : name(s) {}
  RegisterRef(const ptx::SparseString &s) : name(s.str()) {}
  RegisterRef(llvm::StringRef s) : name(s) {}
  RegisterRef(const char *s) : name(s) {}
  llvm::StringRef name;
  uint32_t tableId = ptx::RegisterName::kNoId;
};

class RegisterNumbering {
public:
  explicit RegisterNumbering(const Kernel &k);
  // (Moves keep the names where they are; a copy would point into the original's.)
  RegisterNumbering(RegisterNumbering &&) = default;
  RegisterNumbering &operator=(RegisterNumbering &&) = default;
  RegisterNumbering(const RegisterNumbering &) = delete;
  RegisterNumbering &operator=(const RegisterNumbering &) = delete;

  size_t size() const { return source_.size(); }
  llvm::StringRef name(unsigned id) const {
    const uint32_t from = source_[id];
    return from & kOther ? otherNames_[from & ~kOther] : table_->name(from);
  }
  std::optional<unsigned> find(RegisterRef r) const {
    std::optional<uint32_t> t;
    if (r.tableId != ptx::RegisterName::kNoId)
      t = r.tableId;
    else
      t = table_->find(r.name);
    if (t) {
      if (*t < numberOf_.size() && numberOf_[*t] != kNone)
        return numberOf_[*t];
      return std::nullopt; // (in the table, not in the body numbered)
    }
    auto it = others_.find(r.name);
    if (it == others_.end())
      return std::nullopt;
    return it->second;
  }
  // Statement i's registers, as forEachReadRegister / forEachWrittenRegister
  // give them (a repeated register appears each time).
  llvm::ArrayRef<unsigned> reads(size_t i) const {
    return llvm::ArrayRef<unsigned>(readIds_).slice(readStart_[i], readStart_[i + 1] - readStart_[i]);
  }
  llvm::ArrayRef<unsigned> writes(size_t i) const {
    return llvm::ArrayRef<unsigned>(writeIds_).slice(writeStart_[i], writeStart_[i + 1] - writeStart_[i]);
  }

private:
  static constexpr unsigned kNone = ~0u;
  // The names' arena, of a type of its own: under AddressSanitizer the slab
  // functions of llvm::BumpPtrAllocator instantiated here poison each new
  // slab, and the linker would take them for LLVM MC's own (uninstrumented)
  // ones too, whose inline allocation never unpoisons: MCContext's symbol
  // table then wrote into poisoned memory. A slab size of its own keeps
  // the two instantiations apart.
  using NameArena = llvm::BumpPtrAllocatorImpl<llvm::MallocAllocator, 16384>;
  const RegisterNames *table_;
  std::vector<unsigned> numberOf_;               // per id of the table, its number here (kNone: not read or written)
  llvm::StringMap<unsigned, NameArena> others_; // names the table lacks
  // By number: the id in the table, or kOther and the index in otherNames_.
  // (4 bytes a register where a name is 16: a large kernel's analyses hold
  // a numbering of 80,000 registers through each lowering.)
  static constexpr uint32_t kOther = 1u << 31;
  std::vector<uint32_t> source_;
  std::vector<llvm::StringRef> otherNames_; // the keys of others_
  std::vector<unsigned> readStart_, readIds_, writeStart_, writeIds_;
};

} // namespace p2a::kernel
