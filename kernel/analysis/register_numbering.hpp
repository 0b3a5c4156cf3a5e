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
// The numbering keeps its own copy of each name (one per register, not per
// operand): a rewrite may edit the kernel in place while it reads the
// numbering (and a Dataflow over it) made before the edits. The copies sit
// in the map's entries, allocated from one arena: a StringMap compares
// full hashes before it touches a name, so a probe of a large kernel's map
// reads one name, not one per collision (KeyHunt's 80k-statement kernels
// number their registers some fourteen times each).
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

class RegisterNumbering {
public:
  explicit RegisterNumbering(const Kernel &k);
  // (Moves keep the names where they are; a copy would point into the original's.)
  RegisterNumbering(RegisterNumbering &&) = default;
  RegisterNumbering &operator=(RegisterNumbering &&) = default;
  RegisterNumbering(const RegisterNumbering &) = delete;
  RegisterNumbering &operator=(const RegisterNumbering &) = delete;

  size_t size() const { return names_.size(); }
  llvm::StringRef name(unsigned id) const { return names_[id]; }
  std::optional<unsigned> find(llvm::StringRef name) const {
    auto it = ids_.find(name);
    if (it == ids_.end())
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
  // The names' arena, of a type of its own: under AddressSanitizer the slab
  // functions of llvm::BumpPtrAllocator instantiated here poison each new
  // slab, and the linker would take them for LLVM MC's own (uninstrumented)
  // ones too, whose inline allocation never unpoisons: MCContext's symbol
  // table then wrote into poisoned memory. A slab size of its own keeps
  // the two instantiations apart.
  using NameArena = llvm::BumpPtrAllocatorImpl<llvm::MallocAllocator, 16384>;
  llvm::StringMap<unsigned, NameArena> ids_;
  std::vector<llvm::StringRef> names_; // the keys of ids_ (entries never move)
  std::vector<unsigned> readStart_, readIds_, writeStart_, writeIds_;
};

} // namespace p2a::kernel
