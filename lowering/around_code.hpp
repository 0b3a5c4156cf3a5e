// The code a lowering places before or after each statement (control
// flow: a guard's EXEC narrowing, a block's head and tail; spill code),
// which most statements do not have. A vector of instructions per
// statement was 24 bytes of each, empty or not, for each of the two lists
// (KeyHunt's 80k-statement kernels: 3.8 MB per lowering); here a
// statement without code costs 4 bytes of an index, and the lists that
// exist sit in a deque, whose elements never move, so a reference to one
// stays good while others are made.
#pragma once

#include "isel/machine_ir.hpp"

#include <cstdint>
#include <deque>
#include <vector>

namespace p2a::klower {

class AroundCode {
public:
  // n statements, none with code.
  void reset(size_t n) {
    slot_.assign(n, 0);
    lists_.clear();
  }
  size_t size() const { return slot_.size(); }
  // Statement i's code (empty if it has none).
  const std::vector<mir::MInst> &operator[](size_t i) const {
    static const std::vector<mir::MInst> none;
    return slot_[i] ? lists_[slot_[i] - 1] : none;
  }
  // Statement i's code, to edit (its list is made on the first edit).
  std::vector<mir::MInst> &toWrite(size_t i) {
    if (!slot_[i]) {
      lists_.emplace_back();
      slot_[i] = static_cast<uint32_t>(lists_.size());
    }
    return lists_[slot_[i] - 1];
  }
  // Statement i's code is done with (laid out): its memory goes.
  void release(size_t i) {
    if (slot_[i])
      std::vector<mir::MInst>().swap(lists_[slot_[i] - 1]);
  }

private:
  std::vector<uint32_t> slot_;               // per statement: 0, or 1 + its list's index
  std::deque<std::vector<mir::MInst>> lists_;
};

} // namespace p2a::klower
