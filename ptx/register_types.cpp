#include "ptx/register_types.hpp"

#include <algorithm>
#include <stdexcept>

namespace p2a::ptx {

namespace {

// A range's index is written without leading zeros (`%r<10>` declares %r1,
// not %r01), and is below 2^20 (kMaxDeclaredRegisters): seven digits.
constexpr size_t kMaxIndexDigits = 7;

} // namespace

const RegisterType *RegisterTypes::find(std::string_view name) const {
  const RegisterType *found = nullptr;
  uint64_t foundOrder = 0;
  if (auto it = singles_.find(name); it != singles_.end()) {
    found = &it->second.type;
    foundOrder = it->second.order;
  }
  if (ranges_.empty())
    return found;
  // Each split of the trailing digits into a range's prefix and an index
  // (kMaxIndexDigits): `%x12` is %x's 12th or %x1's 2nd.
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
  const bool known = find(name) != nullptr;
  singles_[std::string(name)] = {type, ++made_};
  size_ += !known;
}

namespace {

// Whether `name` is `prefix` followed by an index in [from, to), written as
// a range declares it (no leading zeros).
bool inRange(std::string_view name, std::string_view prefix, uint32_t from, uint32_t to) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix)
    return false;
  const std::string_view digits = name.substr(prefix.size());
  if (digits.size() > kMaxIndexDigits || (digits.size() > 1 && digits[0] == '0'))
    return false;
  uint32_t index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9')
      return false;
    index = index * 10 + static_cast<uint32_t>(c - '0');
  }
  return index >= from && index < to;
}

} // namespace

void RegisterTypes::setRange(std::string_view prefix, uint32_t count, RegisterType type) {
  if (count == 0)
    return;
  // (size() counts distinct names, as a map's did: the ranges of a prefix
  // cover [0, the largest count), and names set one by one within what is
  // newly covered were counted already.)
  llvm::SmallVector<Range, 1> &ranges = ranges_[std::string(prefix)];
  uint32_t covered = 0;
  for (const Range &r : ranges)
    covered = std::max(covered, r.count);
  if (count > covered) {
    size_ += count - covered;
    for (const auto &[name, single] : singles_)
      size_ -= inRange(name, prefix, covered, count);
  }
  ranges.push_back({count, type, ++made_});
  prefixLengths_ |= uint64_t(1) << std::min<size_t>(prefix.size(), 63);
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
