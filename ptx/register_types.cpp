#include "ptx/register_types.hpp"

#include <algorithm>
#include <stdexcept>

namespace p2a::ptx {

const RegisterType *RegisterTypes::find(std::string_view name) const {
  const RegisterType *found = nullptr;
  uint64_t foundOrder = 0;
  if (auto it = singles_.find(name); it != singles_.end()) {
    found = &it->second.type;
    foundOrder = it->second.order;
  }
  if (ranges_.empty())
    return found;
  // Each split of the trailing digits into a range's prefix and an index:
  // `%x12` is %x's 12th or %x1's 2nd. An index is written without leading
  // zeros (`%r<10>` declares %r1, not %r01), and is below 2^20
  // (kMaxDeclaredRegisters: seven digits).
  constexpr size_t kMaxIndexDigits = 7;
  uint64_t index = 0, scale = 1;
  for (size_t i = name.size(); i > 0 && name.size() - i < kMaxIndexDigits; --i) {
    const char c = name[i - 1];
    if (c < '0' || c > '9')
      break;
    index += static_cast<uint64_t>(c - '0') * scale;
    scale *= 10;
    if (c == '0' && i != name.size())
      continue; // (a leading zero)
    if (!((prefixLengths_ >> std::min<size_t>(i - 1, 63)) & 1))
      continue; // (no range has a prefix this long)
    auto it = ranges_.find(name.substr(0, i - 1));
    if (it == ranges_.end())
      continue;
    for (const Range &r : it->second)
      if (index < r.count && r.order > foundOrder) {
        found = &r.type;
        foundOrder = r.order;
      }
  }
  return found;
}

const RegisterType &RegisterTypes::at(std::string_view name) const {
  if (const RegisterType *t = find(name))
    return *t;
  throw std::out_of_range("register " + std::string(name) + " has no type");
}

void RegisterTypes::set(std::string_view name, RegisterType type) {
  auto [it, added] = singles_.try_emplace(std::string(name));
  it->second = {type, ++made_};
  size_ += added;
}

void RegisterTypes::setRange(std::string_view prefix, uint32_t count, RegisterType type) {
  if (count == 0)
    return;
  ranges_[std::string(prefix)].push_back({count, type, ++made_});
  prefixLengths_ |= uint64_t(1) << std::min<size_t>(prefix.size(), 63);
  size_ += count;
}

void RegisterTypes::forEach(const std::function<void(const std::string &, const RegisterType &)> &visit) const {
  for (const auto &[name, single] : singles_)
    if (find(name) == &single.type)
      visit(name, single.type);
  for (const auto &[prefix, ranges] : ranges_)
    for (const Range &r : ranges)
      for (uint32_t i = 0; i < r.count; ++i) {
        const std::string name = prefix + std::to_string(i);
        if (find(name) == &r.type)
          visit(name, r.type);
      }
}

} // namespace p2a::ptx
