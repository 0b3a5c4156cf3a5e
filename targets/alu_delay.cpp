#include "targets/alu_delay.hpp"

#include <algorithm>

namespace p2a::targets {

std::string delayIdName(unsigned id) {
  if (id >= 1 && id <= 4)
    return "VALU_DEP_" + std::to_string(id);
  if (id >= 5 && id <= 7)
    return "TRANS32_DEP_" + std::to_string(id - 4);
  if (id >= 9 && id <= 11)
    return "SALU_CYCLE_" + std::to_string(id - 8);
  return "NO_DEP";
}

namespace {

// instskip: instid1 applies to the (skip + 1)-th instruction after the hint.
std::string skipName(unsigned skip) { return skip == 1 ? "NEXT" : "SKIP_" + std::to_string(skip - 1); }

} // namespace

unsigned delayAluSimm16(unsigned id0, unsigned skip, unsigned id1) { return id0 | skip << 4 | id1 << 7; }

std::string delayAluText(unsigned simm16) {
  const unsigned id0 = simm16 & 0xf, skip = simm16 >> 4 & 7, id1 = simm16 >> 7 & 0xf;
  std::string text = "s_delay_alu instid0(" + delayIdName(id0) + ")";
  if (skip)
    text += " | instskip(" + skipName(skip) + ")";
  if (id1)
    text += " | instid1(" + delayIdName(id1) + ")";
  return text;
}

void AluDelayTracker::blockBoundary() {
  state_.clear();
  openId_.reset();
  sinceOpen_ = 0;
}

std::optional<AluDelayTracker::Hint> AluDelayTracker::issue(const AluInstr &in) {
  std::optional<Hint> hint;
  if (in.kind == AluInstr::Kind::Reset) {
    state_.clear();
  } else if (in.kind != AluInstr::Kind::Other) {
    // What the sources wait for; each consumed entry is dropped (a later
    // reader of the same register is at least as far from the producer).
    bool valu = false;
    unsigned valuNum = 5, saluCycles = 0;
    for (const RegUnit &r : in.reads) {
      auto it = state_.find(r);
      if (it == state_.end())
        continue;
      if (it->second.valuNum < 5) {
        valu = true;
        valuNum = std::min(valuNum, it->second.valuNum);
      }
      saluCycles = std::max(saluCycles, it->second.saluCycles);
      state_.erase(it);
    }
    std::vector<unsigned> ids;
    if (valu)
      ids.push_back(valuNum); // VALU_DEP_n: the n-th VALU back
    if (saluCycles)
      ids.push_back(8 + std::min(saluCycles, 3u));
    if (ids.size() == 1 && openId_ && sinceOpen_ <= 5) {
      hint = Hint{true, delayAluSimm16(*openId_, sinceOpen_, ids[0]), false};
      openId_.reset();
    } else if (!ids.empty()) {
      hint = Hint{false, delayAluSimm16(ids[0], 0, ids.size() == 2 ? ids[1] : 0), ids.size() == 1};
      if (ids.size() == 1) {
        openId_ = ids[0];
        sinceOpen_ = 0;
      } else {
        openId_.reset();
      }
    }
    // The results this instruction writes replace older producers.
    for (const RegUnit &w : in.writes) {
      Entry e;
      if (in.kind == AluInstr::Kind::Valu) {
        e.valuCycles = in.latency;
        e.valuNum = 0;
      } else {
        e.saluCycles = in.latency;
      }
      state_[w] = e;
    }
  }
  ++sinceOpen_;
  // Time passes: entries age by the instruction's issue cycles, VALU
  // producers also by one VALU; a producer 5 VALU back, or whose latency
  // has elapsed, needs no hint any more.
  for (auto it = state_.begin(); it != state_.end();) {
    Entry &e = it->second;
    if (e.valuNum < 5) {
      e.valuNum += in.kind == AluInstr::Kind::Valu ? 1 : 0;
      if (e.valuNum >= 5 || e.valuCycles <= in.cycles)
        e.valuNum = 5;
      else
        e.valuCycles -= in.cycles;
    }
    e.saluCycles = e.saluCycles > in.cycles ? e.saluCycles - in.cycles : 0;
    it = e.empty() ? state_.erase(it) : std::next(it);
  }
  return hint;
}

} // namespace p2a::targets
