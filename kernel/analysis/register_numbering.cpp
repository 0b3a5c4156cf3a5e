#include "kernel/analysis/register_numbering.hpp"

#include <algorithm>

namespace p2a::kernel {

RegisterNumbering::RegisterNumbering(const Kernel &k) {
  const size_t n = k.body.size();
  readStart_.reserve(n + 1);
  writeStart_.reserve(n + 1);
  // (Sized up front, by the registers declared but at most about one a
  // statement: growing the map rehashes every name again, and each larger
  // table is a calloc that jemalloc zeroes by returning its pages, a TLB
  // shootdown with threads running; a kernel may declare far more than it
  // uses.)
  const unsigned expected = static_cast<unsigned>(std::min(k.registers.size(), n) + 16);
  ids_ = llvm::StringMap<unsigned, NameArena>(expected);
  names_.reserve(expected);
  readIds_.reserve(2 * n);
  writeIds_.reserve(n);
  auto id = [&](const std::string &r) {
    const auto [it, added] = ids_.try_emplace(r, static_cast<unsigned>(names_.size()));
    if (added)
      names_.push_back(it->first());
    return it->second;
  };
  for (size_t i = 0; i < n; ++i) {
    readStart_.push_back(static_cast<unsigned>(readIds_.size()));
    writeStart_.push_back(static_cast<unsigned>(writeIds_.size()));
    forEachReadRegister(k.body[i], [&](const std::string &r) { readIds_.push_back(id(r)); });
    forEachWrittenRegister(k.body[i], [&](const std::string &r) { writeIds_.push_back(id(r)); });
  }
  readStart_.push_back(static_cast<unsigned>(readIds_.size()));
  writeStart_.push_back(static_cast<unsigned>(writeIds_.size()));
}

} // namespace p2a::kernel
