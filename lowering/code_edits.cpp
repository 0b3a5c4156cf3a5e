#include "lowering/code_edits.hpp"

#include <stdexcept>

namespace p2a::klower {

void CodeEdits::apply(std::vector<mir::CodeInst> &code) {
  const size_t n = code.size();
  // Drop the removed instructions (moving the rest forward), and give each
  // insertion its place among those kept: the kept instructions before it.
  size_t kept = 0, nextRemoved = 0, nextInserted = 0;
  for (size_t i = 0; i <= n; ++i) {
    for (; nextInserted < inserted_.size() && inserted_[nextInserted].first == i; ++nextInserted)
      inserted_[nextInserted].first = kept;
    if (nextInserted < inserted_.size() && inserted_[nextInserted].first < i)
      throw std::logic_error("CodeEdits: insertions out of order");
    if (i == n)
      break;
    if (nextRemoved < removed_.size() && removed_[nextRemoved] == i) {
      ++nextRemoved;
      continue;
    }
    if (kept != i)
      code[kept] = std::move(code[i]);
    ++kept;
  }
  if (nextInserted != inserted_.size() || nextRemoved != removed_.size())
    throw std::logic_error("CodeEdits: an edit past the end of the code");
  code.resize(kept);
  removed_.clear();
  if (inserted_.empty())
    return;
  // Insert from the back: each kept instruction moves once, to its place.
  const size_t total = kept + inserted_.size();
  code.resize(total);
  size_t to = total;
  size_t next = inserted_.size(); // the insertions not yet placed are [0, next)
  for (size_t i = kept + 1; i-- > 0;) {
    // (Those before position i, the last first; i == kept: those at the end.)
    for (; next > 0 && inserted_[next - 1].first == i; --next)
      code[--to] = std::move(inserted_[next - 1].second);
    if (i == 0)
      break;
    if (to - 1 == i - 1)
      break; // everything before is already in place
    code[--to] = std::move(code[i - 1]);
  }
  inserted_.clear();
}

} // namespace p2a::klower
