#include "kernel/analysis/register_numbering.hpp"

#include <algorithm>
#include <cassert>
#include <type_traits>

namespace p2a::kernel {

RegisterNumbering::RegisterNumbering(const Kernel &k) : table_(&k.registerNames()) {
  const size_t n = k.body.size();
  readStart_.reserve(n + 1);
  writeStart_.reserve(n + 1);
  numberOf_.assign(table_->size(), kNone);
  source_.reserve(std::min(table_->size(), n) + 16);
  readIds_.reserve(2 * n);
  writeIds_.reserve(n);
  auto ofTableId = [&](uint32_t t) {
    unsigned &number = numberOf_[t];
    if (number == kNone) {
      number = static_cast<unsigned>(source_.size());
      source_.push_back(t);
    }
    return number;
  };
  auto ofName = [&](llvm::StringRef r) {
    if (std::optional<uint32_t> t = table_->find(r))
      return ofTableId(*t);
    const auto [it, added] = others_.try_emplace(r, static_cast<unsigned>(source_.size()));
    if (added) {
      source_.push_back(kOther | static_cast<uint32_t>(otherNames_.size()));
      otherNames_.push_back(it->first());
    }
    return it->second;
  };
  auto number = [&](const auto &r) {
    if constexpr (std::is_same_v<std::decay_t<decltype(r)>, ptx::RegisterName>) {
      // (An id past the table cannot be this kernel's: its name decides.)
      const uint32_t t = r.id();
      if (t < numberOf_.size()) {
        assert(table_->name(t) == llvm::StringRef(r.str()) && "an id of another kernel");
        return ofTableId(t);
      }
    }
    return ofName(llvm::StringRef(static_cast<const std::string &>(r)));
  };
  for (size_t i = 0; i < n; ++i) {
    readStart_.push_back(static_cast<unsigned>(readIds_.size()));
    writeStart_.push_back(static_cast<unsigned>(writeIds_.size()));
    forEachReadRegister(k.body[i], [&](const auto &r) { readIds_.push_back(number(r)); });
    forEachWrittenRegister(k.body[i], [&](const auto &r) { writeIds_.push_back(number(r)); });
  }
  readStart_.push_back(static_cast<unsigned>(readIds_.size()));
  writeStart_.push_back(static_cast<unsigned>(writeIds_.size()));
}

} // namespace p2a::kernel
