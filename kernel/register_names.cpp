#include "kernel/register_names.hpp"

namespace p2a::kernel {

RegisterNames::RegisterNames(const RegisterNames &o) { *this = o; }

RegisterNames &RegisterNames::operator=(const RegisterNames &o) {
  if (this == &o)
    return *this;
  ids_ = llvm::StringMap<uint32_t, NameArena>(static_cast<unsigned>(o.size()));
  names_.clear();
  names_.reserve(o.size());
  for (llvm::StringRef n : o.names_)
    intern(n);
  return *this;
}

void RegisterNames::reserve(size_t names) {
  if (!names_.empty())
    return;
  ids_ = llvm::StringMap<uint32_t, NameArena>(static_cast<unsigned>(names));
  names_.reserve(names);
}

uint32_t RegisterNames::intern(llvm::StringRef name) {
  const auto [it, added] = ids_.try_emplace(name, static_cast<uint32_t>(names_.size()));
  if (added)
    names_.push_back(it->first());
  return it->second;
}

} // namespace p2a::kernel
