#include "isel/regalloc.hpp"

#include "targets/target_info.hpp"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/BitVector.h>

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <stdexcept>

namespace p2a::regalloc {

namespace {

// A register file: registers ever handed out (`used`, whose size is the
// count the code needs) and, among them, those given back: by a finished
// temporary, or lent by a value through a hole in its interval
// (`lentUntil`: the position that takes it back; a taker must end before).
struct Pool {
  static constexpr long kNotLent = LONG_MAX;
  std::vector<bool> used;
  llvm::BitVector released; // (walked by its set bits: bestGivenBack)
  std::vector<long> lentUntil;
  unsigned inUse = 0; // registers handed out and not given back
  unsigned lent = 0;  // registers with a lentUntil

  void grow(size_t size) {
    if (used.size() < size) {
      used.resize(size, false);
      released.resize(size, false);
      lentUntil.resize(size, kNotLent);
    }
  }

  // `count` consecutive fresh registers starting at a multiple of `align`.
  unsigned take(unsigned count, unsigned align) {
    for (unsigned base = 0;; base += align) {
      grow(base + count);
      bool free = true;
      for (unsigned k = 0; k < count; ++k)
        free = free && !used[base + k];
      if (free) {
        for (unsigned k = 0; k < count; ++k)
          used[base + k] = true;
        inUse += count;
        return base;
      }
    }
  }

  // For a temporary (held to position `end`): given-back registers first,
  // else fresh ones. Among given-back ones, the lent registers that go back
  // soonest after `end` (the tightest hole: longer ones stay for longer
  // values), then the lowest.
  unsigned takeForTemp(unsigned count, unsigned align, long end = kNotLent) {
    if (const std::optional<unsigned> best = bestGivenBack(count, align, end)) {
      for (unsigned k = 0; k < count; ++k)
        released[*best + k] = false;
      inUse += count;
      return *best;
    }
    return take(count, align);
  }

  // The given-back block takeForTemp would take, if any.
  std::optional<unsigned> bestGivenBack(unsigned count, unsigned align, long end) const {
    std::optional<unsigned> best;
    long bestUntil = kNotLent;
    // Only a block of given-back registers fits, so the blocks are those
    // holding a given-back register, in increasing order as a walk of every
    // aligned block would meet them (this runs for every temporary).
    for (int r = released.find_first(); r >= 0;) {
      const unsigned base = static_cast<unsigned>(r) / align * align;
      r = base + align < released.size() ? released.find_next(static_cast<int>(base + align) - 1) : -1;
      if (base + count > released.size())
        break;
      bool ok = true;
      long until = kNotLent;
      for (unsigned k = 0; k < count; ++k) {
        ok = ok && isFree(base + k, end);
        until = std::min(until, lentUntil[base + k]);
      }
      if (ok && (!best || until < bestUntil)) {
        best = base;
        bestUntil = until;
        if (lent == 0)
          break; // (nothing lent: the first fits as well as any)
      }
    }
    return best;
  }

  // Whether register r may hold a value to position `end`.
  bool isFree(unsigned r, long end = kNotLent) const {
    return r >= used.size() || (released[r] && (lentUntil[r] == kNotLent || end < lentUntil[r]));
  }

  // Whether register r is lent to a value ending before `end`'s position.
  bool lentBefore(unsigned r, long end) const {
    return r < lentUntil.size() && lentUntil[r] != kNotLent && end >= lentUntil[r];
  }

  // Register r, known free, for a value that starts now.
  void takeOne(unsigned r) {
    grow(r + 1);
    used[r] = true;
    released[r] = false;
    ++inUse;
  }

  void release(unsigned base, unsigned count) {
    for (unsigned k = 0; k < count; ++k)
      released[base + k] = true;
    inUse -= count;
  }

  // A hole: register r, held, is free until position `until`, which takes it back.
  void lend(unsigned r, long until) {
    release(r, 1);
    lentUntil[r] = until;
    ++lent;
  }
  void takeBack(unsigned r) {
    if (!released[r])
      throw std::logic_error("regalloc: a lent register is still held where its value resumes");
    lentUntil[r] = kNotLent;
    --lent;
    takeOne(r);
  }
};

// Items grouped by a position (a statement, a vreg), in one flat list: a
// big kernel's allocation grouped its values per statement in a vector
// each, four lists of 80,000 vectors per allocation, two allocations per
// lowering try (a fifth of regalloc's time and 10 MB at the peak). Each
// group keeps the order its items were added in.
template <typename T> class Groups {
public:
  // `each(add)` calls add(group, item) for every item; it is called twice
  // (to count, then to fill) and must give the same items both times.
  template <typename Each> Groups(size_t groups, Each each) : start_(groups + 1, 0) {
    each([&](size_t g, const T &) { ++start_[g + 1]; });
    for (size_t g = 0; g < groups; ++g)
      start_[g + 1] += start_[g];
    items_.resize(start_.back());
    std::vector<size_t> next(start_.begin(), start_.end() - 1);
    each([&](size_t g, const T &item) { items_[next[g]++] = item; });
  }
  llvm::ArrayRef<T> operator[](size_t g) const {
    return llvm::ArrayRef<T>(items_).slice(start_[g], start_[g + 1] - start_[g]);
  }

private:
  std::vector<size_t> start_;
  std::vector<T> items_;
};

} // namespace

mir::Allocation allocate(const mir::Function &fn, const targets::TargetInfo &t, unsigned firstVgpr,
                         unsigned firstSgpr, const LiveIntervals *live, DyingSources sharing) {
  const unsigned n = static_cast<unsigned>(fn.vregs.size());
  const unsigned unset = ~0u;
  mir::Allocation a;
  a.phys.assign(n, unset);
  Pool vgprs, sgprs;
  if (firstVgpr % 2 || firstSgpr % 2)
    throw std::logic_error("regalloc: reserved register counts must be even");
  // Reserved registers are simply marked used: never handed out, counted.
  vgprs.grow(firstVgpr);
  vgprs.used.assign(firstVgpr, true);
  vgprs.inUse = firstVgpr;
  sgprs.grow(firstSgpr);
  sgprs.used.assign(firstSgpr, true);
  sgprs.inUse = firstSgpr;
  const unsigned maskRegs = t.wave_size == 64 ? 2 : 1;

  std::vector<int> pairOf(n, -1);
  for (size_t i = 0; i < fn.pairs.size(); ++i) {
    pairOf[fn.pairs[i].first] = static_cast<int>(i);
    pairOf[fn.pairs[i].second] = static_cast<int>(i);
  }
  auto hasInterval = [&](unsigned v) { return live && v < live->start.size() && live->start[v] >= 0; };
  auto spilled = [&](unsigned v) { return fn.vregs[v].spilled; };
  auto isTemp = [&](unsigned v) { return fn.vregs[v].role == mir::VRegRole::Temporary || hasInterval(v); };
  // A temporary may reuse registers only if nothing ties it to a PTX register.
  auto reusable = [&](unsigned v) {
    if (!isTemp(v))
      return false;
    if (pairOf[v] < 0)
      return true;
    const auto &p = fn.pairs[static_cast<size_t>(pairOf[v])];
    return isTemp(p.first) && isTemp(p.second);
  };

  // The vregs each lowered PTX instruction references, and the last one that
  // references each vreg.
  // (One flat list, each instruction's slice sorted and without repeats.)
  std::vector<unsigned> refIds;
  std::vector<size_t> refStart(fn.body.size() + 1, 0);
  std::vector<long> lastUse(n, -1);
  for (size_t u = 0; u < fn.body.size(); ++u) {
    const size_t first = refIds.size();
    auto note = [&](const mir::MOperand &o) {
      if (o.kind != mir::MOperand::Kind::VReg && o.kind != mir::MOperand::Kind::Pair)
        return;
      if (spilled(o.vreg) || (o.kind == mir::MOperand::Kind::Pair && spilled(o.vregHi)))
        throw std::logic_error("regalloc: an instruction names a spilled register");
      refIds.push_back(o.vreg);
      if (o.kind == mir::MOperand::Kind::Pair)
        refIds.push_back(o.vregHi);
    };
    for (const mir::MInst &mi : fn.body[u].insts) {
      note(mi.dst);
      for (const mir::MOperand &s : mi.srcs)
        note(s);
    }
    std::sort(refIds.begin() + static_cast<long>(first), refIds.end());
    refIds.erase(std::unique(refIds.begin() + static_cast<long>(first), refIds.end()), refIds.end());
    refStart[u + 1] = refIds.size();
    for (size_t i = first; i < refIds.size(); ++i)
      lastUse[refIds[i]] = static_cast<long>(u);
  }
  auto refs = [&](size_t u) {
    return llvm::ArrayRef<unsigned>(refIds).slice(refStart[u], refStart[u + 1] - refStart[u]);
  };

  // Intervals: a pair's halves share the union of theirs.
  std::vector<long> firstPos(n, -1);
  if (live) {
    for (unsigned v = 0; v < n; ++v)
      if (hasInterval(v)) {
        firstPos[v] = live->start[v];
        lastUse[v] = std::max(lastUse[v], live->end[v]);
      }
    for (const auto &[lo, hi] : fn.pairs)
      if (hasInterval(lo) || hasInterval(hi)) {
        const long s0 = std::min(firstPos[lo] < 0 ? LONG_MAX : firstPos[lo], firstPos[hi] < 0 ? LONG_MAX : firstPos[hi]);
        const long e0 = std::max(lastUse[lo], lastUse[hi]);
        firstPos[lo] = firstPos[hi] = s0 == LONG_MAX ? -1 : s0;
        lastUse[lo] = lastUse[hi] = e0;
      }
  }
  const Groups<unsigned> startsAt(fn.body.size(), [&](auto add) {
    for (unsigned v = 0; v < n; ++v)
      if (!spilled(v) && firstPos[v] >= 0 && static_cast<size_t>(firstPos[v]) < fn.body.size())
        add(static_cast<size_t>(firstPos[v]), v);
  });
  // Halves of a later copy into a pair (mov.b64's pack, cvt's zero
  // extension) that end there: each prefers the register that lets the
  // copy take it (CopyHint), the low half an even one with its next free,
  // the high half the one after its partner's.
  struct PairRole {
    bool high = false;
    long partner = -1; // the other half's source, if one is hinted
  };
  std::vector<std::optional<PairRole>> pairRole(n);
  if (live)
    for (const CopyHint &c : live->copies) {
      const bool ok = c.dst < n && c.src < n && fn.vregs[c.dst].cls == mir::RegClass::V64 &&
                      fn.vregs[c.src].cls == mir::RegClass::V32 && c.srcHalf == 0 && pairOf[c.src] < 0 &&
                      pairOf[c.dst] < 0 && hasInterval(c.src) && lastUse[c.src] == c.at && firstPos[c.dst] == c.at;
      if (!ok || pairRole[c.src])
        continue;
      PairRole role;
      role.high = c.dstHalf == 1;
      // (A pack's other half: the same dst at the same position. The hints
      // are in position order: those at c's position only, not every hint.)
      auto atC = std::equal_range(live->copies.begin(), live->copies.end(), c,
                                  [](const CopyHint &x, const CopyHint &y) { return x.at < y.at; });
      for (auto o = atC.first; o != atC.second; ++o)
        if (o->dst == c.dst && o->dstHalf != c.dstHalf && o->src != c.src)
          role.partner = o->src;
      pairRole[c.src] = role;
    }
  auto preferredVgpr = [&](unsigned v) -> std::optional<unsigned> {
    const PairRole &role = *pairRole[v];
    if (role.partner >= 0 && a.phys[static_cast<size_t>(role.partner)] != unset) {
      const unsigned p = a.phys[static_cast<size_t>(role.partner)];
      if (role.high ? p % 2 == 0 && vgprs.isFree(p + 1, lastUse[v]) : p % 2 == 1 && vgprs.isFree(p - 1, lastUse[v]))
        return role.high ? p + 1 : p - 1;
      return std::nullopt;
    }
    for (unsigned b = 0;; b += 2)
      if (vgprs.isFree(b, lastUse[v]) && vgprs.isFree(b + 1, lastUse[v]))
        return role.high ? b + 1 : b;
  };
  auto assign = [&](unsigned v) {
    const bool temp = reusable(v);
    switch (fn.vregs[v].cls) {
    case mir::RegClass::Mask:
      a.phys[v] = temp ? sgprs.takeForTemp(maskRegs, maskRegs) : sgprs.take(maskRegs, maskRegs);
      return;
    case mir::RegClass::S32:
      a.phys[v] = temp ? sgprs.takeForTemp(1, 1) : sgprs.take(1, 1);
      return;
    case mir::RegClass::S64:
      a.phys[v] = temp ? sgprs.takeForTemp(2, 2) : sgprs.take(2, 2);
      return;
    case mir::RegClass::V64:
    case mir::RegClass::V32: {
      const unsigned half = fn.vregs[v].cls == mir::RegClass::V64 ? 2 : 1;
      if (pairOf[v] < 0) {
        if (temp && pairRole[v])
          if (const std::optional<unsigned> r = preferredVgpr(v)) {
            a.phys[v] = *r;
            vgprs.takeOne(*r);
            return;
          }
        a.phys[v] = temp ? vgprs.takeForTemp(half, half, lastUse[v]) : vgprs.take(half, half);
        return;
      }
      // A tied pair: two 32-bit values in a register pair, or two 64-bit
      // ones in four consecutive VGPRs (a 128-bit operand).
      const auto &p = fn.pairs[static_cast<size_t>(pairOf[v])];
      if (a.phys[p.first] != unset || a.phys[p.second] != unset)
        throw std::logic_error("regalloc: half of a register pair assigned alone");
      const unsigned base = temp ? vgprs.takeForTemp(2 * half, 2, std::max(lastUse[p.first], lastUse[p.second]))
                                 : vgprs.take(2 * half, 2);
      a.phys[p.first] = base;
      a.phys[p.second] = base + half;
      return;
    }
    }
  };
  auto width = [&](unsigned v) { return mir::registerCount(fn.vregs[v].cls, t.wave_size); };
  auto poolOf = [&](unsigned v) -> Pool & { return mir::isSgprClass(fn.vregs[v].cls) ? sgprs : vgprs; };

  // In program order: a PTX instruction's registers are assigned before it,
  // and its temporaries are released after it (never in the middle: the
  // proofs assume a rule's temporaries are distinct from its operands).
  // With intervals, values live across the position are released after it
  // too (not only those it references).
  const Groups<unsigned> endsAt(fn.body.size(), [&](auto add) {
    if (live)
      for (unsigned v = 0; v < n; ++v)
        if (!spilled(v) && hasInterval(v) && lastUse[v] >= 0 && static_cast<size_t>(lastUse[v]) < fn.body.size())
          add(static_cast<size_t>(lastUse[v]), v);
  });
  std::vector<bool> released(n, false);
  a.vgprsInUse.assign(fn.body.size(), 0);
  a.sgprsInUse.assign(fn.body.size(), 0);
  // Copies made free (CopyHint): the registers of a source handed on to a
  // destination (bit k: its register k), which its end no longer releases;
  // and VGPRs two values share (a copy of a source that lives on, where
  // neither is written while the other is live), released by the later end.
  std::vector<uint8_t> handedOn(n, 0);
  std::vector<uint8_t> shared; // per VGPR: 1 while two values hold it
  auto sharedReg = [&](unsigned r) { return r < shared.size() && shared[r]; };
  // Positions writing each vreg, ascending (each once).
  const Groups<long> defsOf(live ? n : 0, [&](auto add) {
    if (!live)
      return;
    std::vector<long> lastDef(n, -1);
    for (size_t u = 0; u < fn.body.size(); ++u)
      for (const mir::MInst &mi : fn.body[u].insts)
        for (unsigned half = 0; half < 2; ++half) {
          // (vregHi is 0 outside a pair: a plain operand names vreg only,
          // which may itself be vreg 0.)
          const unsigned v = half ? mi.dst.vregHi : mi.dst.vreg;
          if ((mi.dst.kind != mir::MOperand::Kind::VReg && mi.dst.kind != mir::MOperand::Kind::Pair) ||
              (half && mi.dst.kind != mir::MOperand::Kind::Pair) || v >= n)
            continue;
          if (lastDef[v] != static_cast<long>(u))
            add(v, lastDef[v] = static_cast<long>(u));
        }
  });
  auto writtenIn = [&](unsigned v, long from, long to) { // a write of v at a position in (from, to]
    const llvm::ArrayRef<long> defs = defsOf[v];
    auto it = std::upper_bound(defs.begin(), defs.end(), from);
    return it != defs.end() && *it <= to;
  };
  auto releaseVgprs = [&](unsigned base, unsigned count) {
    for (unsigned r = base; r < base + count; ++r)
      if (sharedReg(r))
        shared[r] = 0; // the other holder keeps it
      else
        vgprs.release(r, 1);
  };
  auto isVgprValue = [&](unsigned v) {
    return fn.vregs[v].cls == mir::RegClass::V32 || fn.vregs[v].cls == mir::RegClass::V64;
  };
  size_t nextHint = 0;
  auto coalesceCopies = [&](size_t u) {
    const std::vector<CopyHint> &hints = live->copies;
    const size_t first = nextHint;
    while (nextHint < hints.size() && hints[nextHint].at <= static_cast<long>(u))
      ++nextHint;
    for (size_t h = first; h < nextHint; ++h) {
      if (hints[h].at != static_cast<long>(u))
        continue;
      const unsigned d = hints[h].dst;
      if (a.phys[d] != unset || spilled(d) || !isVgprValue(d) || pairOf[d] >= 0 || !reusable(d) ||
          firstPos[d] != static_cast<long>(u))
        continue;
      // Every hint of d at u names one base for it, from sources ending here.
      const unsigned w = width(d);
      long base = -1;
      bool ok = true;
      uint8_t fromSource[2] = {0, 0}; // d's register k <- (source index + 1) into hints
      for (size_t g = h; g < nextHint && ok; ++g) {
        const CopyHint &c = hints[g];
        if (c.dst != d)
          continue;
        const unsigned s = c.src;
        const long at = static_cast<long>(u);
        bool usable = a.phys[s] != unset && !spilled(s) && isVgprValue(s) && pairOf[s] < 0 && reusable(s) &&
                      hasInterval(s) && !released[s] && c.srcHalf < width(s) && c.dstHalf < w &&
                      !(handedOn[s] >> c.srcHalf & 1) && !sharedReg(a.phys[s] + c.srcHalf);
        // A source that lives on is shared where neither value is written
        // while the other is live (positions bound both intervals).
        usable = usable && (lastUse[s] == at || (!writtenIn(s, at, lastUse[d]) && !writtenIn(d, at, lastUse[s])));
        // (A register lent through a hole goes back before d would end.)
        usable = usable && !vgprs.lentBefore(a.phys[s] + c.srcHalf, lastUse[d]);
        if (!usable)
          continue; // this half is copied by its move
        const long b = static_cast<long>(a.phys[s] + c.srcHalf) - static_cast<long>(c.dstHalf);
        if ((base >= 0 && b != base) || b < 0 || b % w || fromSource[c.dstHalf])
          ok = false;
        base = b;
        fromSource[c.dstHalf] = static_cast<uint8_t>(g - h + 1);
      }
      if (!ok || base < 0)
        continue;
      for (unsigned k = 0; k < w && ok; ++k)
        ok = fromSource[k] || vgprs.isFree(static_cast<unsigned>(base) + k, lastUse[d]);
      if (!ok)
        continue;
      a.phys[d] = static_cast<unsigned>(base);
      for (unsigned k = 0; k < w; ++k) {
        if (!fromSource[k]) {
          vgprs.takeOne(static_cast<unsigned>(base) + k);
          continue;
        }
        const CopyHint &c = hints[h + fromSource[k] - 1];
        if (lastUse[c.src] == static_cast<long>(u)) {
          handedOn[c.src] |= static_cast<uint8_t>(1u << c.srcHalf);
          continue;
        }
        const unsigned r = static_cast<unsigned>(base) + k;
        if (shared.size() <= r)
          shared.resize(r + 1, 0);
        shared[r] = 1;
      }
    }
  };
  // A rule's destination that starts here takes the register of a source
  // whose value ends here, where the rule's proof covers the two being one
  // register (LoweredInst::aliasSrcs): PTX's `d, d, b` in effect, which
  // frees a register for the instruction's other values (a dying source's
  // register is otherwise released only after the instruction).
  auto takeDyingSource = [&](size_t u) {
    const mir::LoweredInst &li = fn.body[u];
    const unsigned d = li.aliasDst;
    if (li.aliasSrcs.empty() || d >= n || a.phys[d] != unset || spilled(d) || !isVgprValue(d) || pairOf[d] >= 0 ||
        !reusable(d) || !hasInterval(d) || firstPos[d] != static_cast<long>(u) || fn.vregs[d].readInPlace ||
        pairRole[d])
      return; // (a value a later copy packs into a pair keeps the register that copy prefers)
    // WhereFresh: only where d would otherwise need a fresh register;
    // elsewhere the usual choice stands (it keeps the registers later copies
    // and pairs were fitted to).
    if (sharing == DyingSources::WhereFresh && vgprs.bestGivenBack(width(d), width(d), lastUse[d]))
      return;
    for (unsigned s : li.aliasSrcs) {
      if (s >= n || s == d || a.phys[s] == unset || spilled(s) || fn.vregs[s].cls != fn.vregs[d].cls ||
          pairOf[s] >= 0 || !reusable(s) || !hasInterval(s) || released[s] || handedOn[s] ||
          lastUse[s] != static_cast<long>(u) || fn.vregs[s].readInPlace)
        continue;
      bool usable = true;
      for (unsigned k = 0; k < width(s) && usable; ++k)
        usable = !sharedReg(a.phys[s] + k) && !vgprs.lentBefore(a.phys[s] + k, lastUse[d]);
      if (!usable)
        continue;
      a.phys[d] = a.phys[s];
      handedOn[s] = static_cast<uint8_t>((1u << width(s)) - 1);
      return;
    }
  };
  auto releaseOne = [&](unsigned v) {
    if (a.phys[v] == unset)
      return;
    if (handedOn[v]) { // only the registers it kept
      if (!released[v])
        for (unsigned k = 0; k < width(v); ++k)
          if (!(handedOn[v] >> k & 1))
            releaseVgprs(a.phys[v] + k, 1);
      released[v] = true;
      return;
    }
    if (pairOf[v] >= 0) { // a pair goes back whole, once, through its low half
      const unsigned lo = fn.pairs[static_cast<size_t>(pairOf[v])].first;
      if (!released[lo])
        vgprs.release(a.phys[lo], 2 * width(lo));
      released[lo] = true;
      return;
    }
    if (!released[v]) {
      if (isVgprValue(v))
        releaseVgprs(a.phys[v], width(v));
      else
        poolOf(v).release(a.phys[v], width(v));
    }
    released[v] = true;
  };
  // Holes (LiveIntervals::holes): a value with one, whole and assigned on
  // its own registers, lends them after `from` and takes them back at `to`.
  // (Few values have holes: the values taken back are kept by position,
  // each position's in the order they were lent.)
  const Groups<unsigned> lendsAfter(fn.body.size(), [&](auto add) {
    if (live && live->holes.size() == n)
      for (unsigned v = 0; v < n; ++v) {
        const Hole &h = live->holes[v];
        if (h.from >= 0 && h.to > h.from + 1 && static_cast<size_t>(h.to) < fn.body.size() && hasInterval(v) &&
            !spilled(v) && isVgprValue(v) && pairOf[v] < 0 && firstPos[v] <= h.from && lastUse[v] >= h.to)
          add(static_cast<size_t>(h.from), v);
      }
  });
  std::map<size_t, std::vector<unsigned>> takesBackAt;
  // The work-item IDs' VGPRs, once read for the last time.
  const bool freesAbiVgprs = live && live->abiVgprs && live->abiVgprs <= firstVgpr;
  if (freesAbiVgprs && live->abiVgprsEnd < 0)
    vgprs.release(0, live->abiVgprs);
  for (size_t u = 0; u < fn.body.size(); ++u) {
    if (!takesBackAt.empty() && takesBackAt.begin()->first == u) {
      for (unsigned v : takesBackAt.begin()->second)
        for (unsigned k = 0; k < width(v); ++k)
          vgprs.takeBack(a.phys[v] + k);
      takesBackAt.erase(takesBackAt.begin());
    }
    if (live) {
      coalesceCopies(u);
      if (sharing != DyingSources::Keep)
        takeDyingSource(u);
    }
    for (unsigned v : startsAt[u])
      if (a.phys[v] == unset)
        assign(v);
    for (unsigned v : refs(u))
      if (a.phys[v] == unset)
        assign(v);
    a.vgprsInUse[u] = vgprs.inUse;
    a.sgprsInUse[u] = sgprs.inUse;
    for (unsigned v : refs(u))
      if (reusable(v) && lastUse[v] == static_cast<long>(u) && !hasInterval(v))
        poolOf(v).release(a.phys[v], width(v));
    for (unsigned v : endsAt[u])
      if (reusable(v))
        releaseOne(v);
    if (freesAbiVgprs && live->abiVgprsEnd == static_cast<long>(u))
      vgprs.release(0, live->abiVgprs);
    for (unsigned v : lendsAfter[u]) {
      bool whole = a.phys[v] != unset && !released[v] && !handedOn[v];
      for (unsigned k = 0; whole && k < width(v); ++k)
        whole = !sharedReg(a.phys[v] + k) && !vgprs.isFree(a.phys[v] + k) &&
                vgprs.lentUntil[a.phys[v] + k] == Pool::kNotLent; // (not itself on a lent register)
      if (!whole)
        continue;
      const long to = live->holes[v].to;
      for (unsigned k = 0; k < width(v); ++k)
        vgprs.lend(a.phys[v] + k, to);
      takesBackAt[static_cast<size_t>(to)].push_back(v);
    }
  }
  // Registers no instruction references: control-flow masks (used by code
  // the lowering adds around the body) get their own; a register marked
  // `readInPlace` holds nothing (the code reads its SGPRs instead), nor does
  // a temporary left unreferenced (a copy a later step dropped), so any
  // released register serves and the count does not grow.
  for (unsigned v = 0; v < n; ++v)
    if (a.phys[v] == unset && !spilled(v)) {
      const bool holdsNothing =
          fn.vregs[v].readInPlace || (fn.vregs[v].role == mir::VRegRole::Temporary && !hasInterval(v));
      if (pairOf[v] >= 0 || !holdsNothing) {
        assign(v);
        continue;
      }
      Pool &pool = poolOf(v);
      const unsigned w = width(v);
      a.phys[v] = pool.takeForTemp(w, w);
      pool.release(a.phys[v], w);
    }
  a.numVgprs = static_cast<unsigned>(vgprs.used.size());
  a.numSgprs = static_cast<unsigned>(sgprs.used.size());
  return a;
}

namespace {

// The 32-bit VGPR copies (v_mov_b32 between VGPRs) an allocation leaves as
// real moves: those whose source and destination got different registers.
unsigned remainingCopies(const mir::Function &fn, const mir::Allocation &a) {
  auto physOf = [&](const mir::MOperand &o) {
    return a.phys[o.vreg] + (o.part == rules::Part::Hi ? 1u : 0u);
  };
  unsigned copies = 0;
  for (const mir::LoweredInst &li : fn.body)
    for (const mir::MInst &mi : li.insts)
      if (mi.op == amd::Op::V_MOV_B32 && mi.dst.kind == mir::MOperand::Kind::VReg && mi.srcs.size() == 1 &&
          mi.srcs[0].kind == mir::MOperand::Kind::VReg && mi.dst.vreg < a.phys.size() &&
          mi.srcs[0].vreg < a.phys.size() && physOf(mi.dst) != physOf(mi.srcs[0]))
        ++copies;
  return copies;
}

} // namespace

AllocationScore scoreOf(const mir::Function &fn, const mir::Allocation &a) {
  return {a.numVgprs, remainingCopies(fn, a)};
}

bool AllocationScore::betterThan(const AllocationScore &y) const {
  return (vgprs < y.vgprs && copies <= y.copies) || (vgprs == y.vgprs && copies < y.copies);
}

} // namespace p2a::regalloc
