// A kernel's register names, each given an id on first sight: the table
// that register operands' ids (ptx/register_name.hpp) index. The decoder
// gives every register operand of the kernel its id; RegisterNumbering
// (kernel/analysis/register_numbering.hpp) then numbers an operand by its
// id, through a vector, and looks up by name only what has none (a name
// outside an operand: a guard, a load's base; a rewrite's new operand).
//
// Ids only grow and never change: an operand keeps its id through every
// copy of its statement within the kernel, and a copy of the kernel copies
// the table with the same ids. (An operand is never moved into another
// kernel: each kernel is decoded on its own.)
#pragma once

#include "ptx/register_name.hpp"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Allocator.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace p2a::kernel {

class RegisterNames {
public:
  RegisterNames() = default;
  RegisterNames(RegisterNames &&) = default;
  RegisterNames &operator=(RegisterNames &&) = default;
  // (A copy gives each name the same id; its names are its own.)
  RegisterNames(const RegisterNames &o);
  RegisterNames &operator=(const RegisterNames &o);

  // Room for about `names` names, made before they are entered (growing
  // the map hashes every name again); only while the table is empty.
  void reserve(size_t names);
  // The id of `name`, given now if it has none.
  uint32_t intern(llvm::StringRef name);
  // Gives `r` its name's id, where it has none.
  void intern(ptx::RegisterName &r) {
    if (r.id() == ptx::RegisterName::kNoId)
      r.setId(intern(llvm::StringRef(r.str())));
  }
  std::optional<uint32_t> find(llvm::StringRef name) const {
    auto it = ids_.find(name);
    if (it == ids_.end())
      return std::nullopt;
    return it->second;
  }
  llvm::StringRef name(uint32_t id) const { return entries_[id]->getKey(); }
  size_t size() const { return entries_.size(); }

private:
  // (An arena type of its own: see register_numbering.hpp's NameArena.)
  using NameArena = llvm::BumpPtrAllocatorImpl<llvm::MallocAllocator, 16384, 16384, 129>;
  llvm::StringMap<uint32_t, NameArena> ids_;
  // By id, the entries of ids_ (which never move): 8 bytes a name, where
  // its StringRef is 16.
  std::vector<const llvm::StringMapEntry<uint32_t> *> entries_;
};

} // namespace p2a::kernel
