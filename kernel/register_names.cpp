#include "kernel/register_names.hpp"

namespace p2a::kernel {

RegisterNames::RegisterNames(const RegisterNames &o) { *this = o; }

RegisterNames &RegisterNames::operator=(const RegisterNames &o) {
  if (this == &o)
    return *this;
  ids_ = llvm::StringMap<uint32_t, NameArena>(static_cast<unsigned>(o.size()));
  entries_.clear();
  entries_.reserve(o.size());
  for (const llvm::StringMapEntry<uint32_t> *e : o.entries_)
    intern(e->getKey());
  return *this;
}

void RegisterNames::reserve(size_t names) {
  if (!entries_.empty())
    return;
  ids_ = llvm::StringMap<uint32_t, NameArena>(static_cast<unsigned>(names));
  entries_.reserve(names);
}

uint32_t RegisterNames::intern(llvm::StringRef name) {
  const auto [it, added] = ids_.try_emplace(name, static_cast<uint32_t>(entries_.size()));
  if (added)
    entries_.push_back(&*it);
  return it->second;
}

} // namespace p2a::kernel
