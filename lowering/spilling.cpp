// Spilling (lowering.hpp, "spilling"): values kept in memory when the
// registers run out.
//
// The allocator gives each live value a register for its live interval
// (register_assignment.cpp). Where the values live at some statement need
// more than the budget, spillToFit picks some of them to live in memory for
// their whole interval ("spill everywhere", as in Chaitin's allocator and
// Poletto and Sarkar's linear scan): every statement that names one gets a
// temporary for it instead, which lives only during that statement. Then the
// registers are assigned again; a few rounds settle it.
//
// Which values: a sweep over the statements in layout order keeps the
// values live there in a queue ordered by spill weight -- the statements
// that name the value, each counted 10^(loop depth) (at most 10^4), divided
// by the length of its interval -- and, where the pressure exceeds the
// budget, spills the lightest values that are live there but not named
// there (spilling a value named there frees nothing there). Long-lived
// values used rarely and outside loops go first: nvcc's kernel arguments
// held for the whole kernel, a hash state read once per round.
//
// Where they go:
//  - a VGPR value (V32, V64) to the lane's private segment (scratch), after
//    the .local variables: scratch_store after the statement's last write
//    (under that write's EXEC, so lanes that did not run keep their value in
//    memory, as they would in a register), scratch_load before its first
//    read;
//  - a uniform value or predicate (S32, S64, lane masks) to lanes of VGPRs
//    reserved for that: v_writelane / v_readlane, which ignore EXEC (an SGPR
//    holds one value for the whole wave). LLVM spills SGPRs the same way
//    (SIRegisterInfo::spillSGPR).
// A value whose first mention in a statement is a whole write that does not
// read it needs no load there.
#include "lowering/lowering.hpp"
#include "targets/occupancy.hpp"

#include <cmath>
#include <queue>

namespace p2a::klower {

namespace {

// The scratch instructions' immediate offset holds 0..2047 on every target
// (see lowerLocal); a slot beyond it is addressed through a VGPR.
constexpr unsigned kScratchFieldMax = 2047;
constexpr unsigned kMaxLoopDepthWeight = 4;

} // namespace

RegisterBudget registerBudgetFor(const kernel::Kernel &k, const targets::TargetInfo &t, const Options &opts) {
  RegisterBudget b{targets::kMaxVgprs, targets::kMaxSgprs};
  if (opts.maxVgprs)
    b.vgprs = std::min(b.vgprs, opts.maxVgprs);
  if (opts.maxSgprs)
    b.sgprs = std::min(b.sgprs, opts.maxSgprs);
  const kernel::LaunchBounds &lb = k.bounds;
  // .maxnreg: registers per thread (a VGPR holds one 32-bit value per lane).
  if (lb.maxRegisters)
    b.vgprs = std::min(b.vgprs, lb.maxRegisters);
  // .maxntid / .reqntid: as many VGPRs as let a block of that size be
  // resident (else it cannot be launched at all); .minnctapersm: that many
  // blocks (of at most 1024 threads without a bound), as ptxas does.
  if (lb.maxThreads || lb.required[0] || lb.minBlocksPerSm) {
    const unsigned waves = targets::wavesPerSimdNeeded(t, std::max(1u, lb.minBlocksPerSm), lb.blockLimit());
    if (const unsigned v = targets::vgprsForWaves(t, waves, targets::kMaxSgprs))
      b.vgprs = std::min(b.vgprs, v);
  }
  return b;
}

std::vector<unsigned> Lowering::loopDepths() const {
  const size_t n = k_.body.size();
  std::vector<long> delta(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const Stmt &st = k_.body[i];
    if (st.kind != Stmt::Kind::Branch || st.target >= n || blockOf_[st.target] > blockOf_[i])
      continue;
    ++delta[blockStart_[blockOf_[st.target]]]; // the loop: from its head block to the back edge
    --delta[i + 1];
  }
  std::vector<unsigned> depth(n);
  long d = 0;
  for (size_t i = 0; i < n; ++i) {
    d += delta[i];
    depth[i] = static_cast<unsigned>(std::max(d, 0L));
  }
  return depth;
}

bool Lowering::spillToFit(const mir::Allocation &a, const regalloc::LiveIntervals &live, RegisterBudget budget,
                          unsigned round) {
  const size_t n = fn_.body.size();
  const unsigned nv = static_cast<unsigned>(fn_.vregs.size());
  auto width = [&](unsigned v) { return mir::registerCount(fn_.vregs[v].cls, t_.wave_size); };
  // The statements naming each vreg (before, in and after the statement's
  // own instructions). Two 32-bit registers a rule ties into a pair (hi =
  // lo + 1) spill together, as one 64-bit value (`partner`); a pair operand
  // of anything else pins its registers.
  std::vector<std::vector<uint32_t>> refPos(nv);
  std::vector<bool> pinned(nv, false);
  std::vector<long> partner(nv, -1);
  std::vector<bool> pairLow(nv, false);
  for (const auto &[lo, hi] : fn_.pairs) {
    if (partner[lo] >= 0 || partner[hi] >= 0)
      pinned[lo] = pinned[hi] = true; // (in two pairs)
    partner[lo] = hi;
    partner[hi] = lo;
    pairLow[lo] = true;
  }
  auto note = [&](unsigned v, size_t u) {
    std::vector<uint32_t> &r = refPos[v];
    if (r.empty() || r.back() != u)
      r.push_back(static_cast<uint32_t>(u));
  };
  for (size_t u = 0; u < n; ++u) {
    const std::vector<MInst> *parts[] = {&before_[u], &fn_.body[u].insts, &after_[u]};
    for (const std::vector<MInst> *part : parts)
      for (const MInst &mi : *part)
        for (const MOperand *o : [&] {
               std::vector<const MOperand *> ops{&mi.dst};
               for (const MOperand &s : mi.srcs)
                 ops.push_back(&s);
               return ops;
             }()) {
          if (o->kind == MOperand::Kind::Pair) {
            if (partner[o->vreg] != long(o->vregHi))
              pinned[o->vreg] = pinned[o->vregHi] = true;
            note(o->vreg, u);
            note(o->vregHi, u);
          } else if (o->kind == MOperand::Kind::VReg) {
            note(o->vreg, u);
          }
        }
  }
  const std::vector<unsigned> depth = loopDepths();
  std::vector<unsigned> chosen;
  std::vector<bool> blockMask(nv, false); // (lane masks are spill candidates as values are)
  for (unsigned m : maskVreg_)
    blockMask[m] = true;
  for (const bool sgprFile : {false, true}) {
    const unsigned have = sgprFile ? a.numSgprs : a.numVgprs, limit = sgprFile ? budget.sgprs : budget.vgprs;
    if (have <= limit)
      continue;
    const std::vector<unsigned> &inUse = sgprFile ? a.sgprsInUse : a.vgprsInUse;
    const unsigned peak = inUse.empty() ? 0 : *std::max_element(inUse.begin(), inUse.end());
    // Registers held outside the body's positions, and alignment gaps:
    // what the count exceeds the peak by; each round asks one more.
    const long extra = long(have) - long(peak) + long(round);
    std::vector<unsigned> cands;
    std::vector<double> weight(nv, 0);
    auto eligible = [&](unsigned v) {
      const mir::VReg &r = fn_.vregs[v];
      return !r.spilled && !r.readInPlace && !pinned[v] && mir::isSgprClass(r.cls) == sgprFile &&
             (r.role == mir::VRegRole::PtxRegister || r.role == mir::VRegRole::ScalarHome || blockMask[v]) &&
             v < live.start.size() && live.start[v] >= 0;
    };
    // A candidate is a vreg or a pair (by its low half): interval and
    // statements the union of its halves'.
    std::vector<long> start(live.start), end(live.end);
    for (unsigned v = 0; v < nv; ++v) {
      if (!eligible(v))
        continue;
      if (partner[v] >= 0) {
        const unsigned hi = static_cast<unsigned>(partner[v]);
        if (!pairLow[v] || !eligible(hi))
          continue;
        start[v] = std::min(live.start[v], live.start[hi]);
        end[v] = std::max(live.end[v], live.end[hi]);
        std::vector<uint32_t> merged;
        std::merge(refPos[v].begin(), refPos[v].end(), refPos[hi].begin(), refPos[hi].end(), std::back_inserter(merged));
        merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
        refPos[v] = std::move(merged); // (the high half's own list stays for the rewrite)
      }
      double uses = 0;
      for (uint32_t p : refPos[v])
        uses += std::pow(10.0, std::min(depth[p], kMaxLoopDepthWeight));
      weight[v] = uses / double(end[v] - start[v] + 1);
      cands.push_back(v);
    }
    std::sort(cands.begin(), cands.end(), [&](unsigned x, unsigned y) { return start[x] < start[y]; });
    using Entry = std::pair<double, unsigned>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> lightest;
    // Relief: the registers spilled values free at each position (all of
    // their interval from where they were chosen, but where they are named).
    std::vector<long> reliefEnds(n + 1, 0), namedAt(n, 0);
    long relief = 0;
    size_t next = 0;
    for (size_t p = 0; p < n; ++p) {
      relief += reliefEnds[p];
      while (next < cands.size() && start[cands[next]] <= long(p)) {
        lightest.push({weight[cands[next]], cands[next]});
        ++next;
      }
      long over = long(inUse[p]) + extra - long(limit) - (relief - namedAt[p]);
      std::vector<Entry> namedHere;
      while (over > 0 && !lightest.empty()) {
        const Entry e = lightest.top();
        lightest.pop();
        const unsigned v = e.second;
        if (end[v] < long(p))
          continue; // its interval is over
        const std::vector<uint32_t> &r = refPos[v];
        if (std::binary_search(r.begin(), r.end(), uint32_t(p))) {
          namedHere.push_back(e);
          continue;
        }
        const long w = partner[v] >= 0 ? 2 : long(width(v));
        chosen.push_back(v);
        fn_.vregs[v].spilled = true;
        if (partner[v] >= 0) {
          fn_.vregs[size_t(partner[v])].spilled = true;
          spillPartner_[v] = static_cast<unsigned>(partner[v]);
        }
        over -= w;
        relief += w;
        reliefEnds[size_t(end[v]) + 1] -= w;
        for (auto it = std::upper_bound(r.begin(), r.end(), uint32_t(p)); it != r.end() && long(*it) <= end[v]; ++it)
          namedAt[*it] += w;
      }
      for (const Entry &e : namedHere)
        lightest.push(e);
    }
  }
  if (chosen.empty())
    return false;
  // Slots, then every statement that names a chosen value.
  for (unsigned v : chosen) {
    const mir::RegClass c = fn_.vregs[v].cls;
    if (mir::isSgprClass(c)) {
      spillLaneWords_ = alignUp(spillLaneWords_, width(v)); // a pair's words in one VGPR
      spillSlot_[v] = spillLaneWords_;
      spillLaneWords_ += width(v);
      ++out_.spilledSgprValues;
    } else {
      const auto pairHi = spillPartner_.find(v);
      const unsigned bytes = pairHi != spillPartner_.end() ? 8 : 4 * width(v);
      spillScratchBytes_ = alignUp(spillScratchBytes_, bytes);
      spillSlot_[v] = alignUp(declaredPrivateBytes_, 8) + spillScratchBytes_;
      spillScratchBytes_ += bytes;
      ++out_.spilledVgprValues;
      if (pairHi != spillPartner_.end()) { // the high half: the slot's second word
        spillSlot_[pairHi->second] = spillSlot_[v] + 4;
        ++out_.spilledVgprValues;
      }
    }
  }
  std::vector<std::vector<unsigned>> byPos(n);
  for (unsigned v : chosen)
    for (uint32_t p : refPos[v])
      byPos[p].push_back(v);
  for (size_t u = 0; u < n; ++u)
    if (!byPos[u].empty())
      rewriteSpilled(u, byPos[u]);
  privateBytes_ = spillScratchBytes_ ? alignUp(declaredPrivateBytes_, 8) + spillScratchBytes_ : declaredPrivateBytes_;
  out_.privateBytes = privateBytes_;
  out_.spillScratchBytes = spillScratchBytes_;
  return true;
}

std::vector<MInst> Lowering::laneCopies(unsigned vreg, const MOperand &from, bool toLanes) const {
  std::vector<MInst> out;
  const unsigned slot = spillSlot_.at(vreg), words = mir::registerCount(fn_.vregs[vreg].cls, t_.wave_size);
  for (unsigned w = 0; w < words; ++w) {
    const MOperand value =
        from.kind == MOperand::Kind::Imm ? from : vregOperand(from.vreg, words == 1 ? Part::Whole : w ? Part::Hi : Part::Lo);
    const MOperand vgpr = mir::vgprs(spillLaneBase_ + (slot + w) / t_.wave_size);
    const MOperand lane = mir::immOperand((slot + w) % t_.wave_size);
    out.push_back(toLanes ? MInst{amd::Op::V_WRITELANE_B32, vgpr, {value, lane}}
                          : MInst{amd::Op::V_READLANE_B32, value, {vgpr, lane}});
  }
  return out;
}

std::vector<MInst> Lowering::spillCopy(unsigned vreg, const MOperand &value, bool store, size_t pos) {
  const mir::RegClass c = fn_.vregs[vreg].cls;
  if (mir::isSgprClass(c))
    return laneCopies(vreg, value, store);
  std::vector<MInst> out;
  const unsigned slot = spillSlot_.at(vreg);
  const bool wide = c == mir::RegClass::V64 || value.kind == MOperand::Kind::Pair;
  const amd::Op op = store ? (wide ? amd::Op::SCRATCH_STORE_B64 : amd::Op::SCRATCH_STORE_B32)
                           : (wide ? amd::Op::SCRATCH_LOAD_B64 : amd::Op::SCRATCH_LOAD_B32);
  // The address: the zero VGPR with the slot in the offset field, else the
  // slot's offset moved into a VGPR first (a load's own temporary, whose low
  // half it overwrites; a store needs one more).
  MOperand addr = vregOperand(spillAddressZero());
  uint64_t field = slot;
  if (slot > kScratchFieldMax) {
    if (store) {
      const unsigned a = newTemp(mir::RegClass::V32);
      spillTemps_.push_back({a, pos});
      addr = vregOperand(a);
    } else {
      addr = vregOperand(value.vreg, c == mir::RegClass::V64 ? Part::Lo : Part::Whole);
    }
    out.push_back({amd::Op::V_MOV_B32, addr, {mir::immOperand(slot)}});
    field = 0;
  }
  if (store)
    out.push_back({op, noOperand(), {addr, value, mir::immOperand(field)}});
  else
    out.push_back({op, value, {addr, mir::immOperand(field)}});
  return out;
}

void Lowering::rewriteSpilled(size_t pos, const std::vector<unsigned> &spilled) {
  std::vector<std::vector<MInst> *> parts{&before_.toWrite(pos), &fn_.body[pos].insts, &after_.toWrite(pos)};
  struct Place {
    size_t part = ~size_t(0), index = 0;
  };
  // One per spilled value: a vreg, or a pair (lo, hi) with a pair of
  // temporaries, which the allocator keeps consecutive as it did the pair.
  struct Use {
    unsigned hi = 0, temp = 0, tempHi = 0;
    bool pair = false;
    Place first, lastWrite;
    bool firstIsWholeWrite = false;
    std::set<std::pair<size_t, size_t>> loadBefore, storeAfter; // (part, index): with labels in the code
  };
  // Code with a label in it (block heads and ends, loops inside a
  // statement) may be entered past the first reference or left before the
  // last write: there every reading instruction gets its own load and every
  // writing one its own store.
  bool labelled = false;
  for (const std::vector<MInst> *part : parts)
    for (const MInst &mi : *part)
      labelled |= mi.op == amd::Op::LABEL;
  std::map<unsigned, Use> uses;
  for (unsigned v : spilled) {
    Use &u = uses[v];
    u.temp = newTemp(fn_.vregs[v].cls);
    spillTemps_.push_back({u.temp, pos});
    if (auto it = spillPartner_.find(v); it != spillPartner_.end()) {
      u.pair = true;
      u.hi = it->second;
      u.tempHi = newTemp(fn_.vregs[u.hi].cls);
      spillTemps_.push_back({u.tempHi, pos});
      fn_.pairs.push_back({u.temp, u.tempHi});
    }
  }
  for (size_t p = 0; p < parts.size(); ++p)
    for (size_t i = 0; i < parts[p]->size(); ++i) {
      MInst &mi = (*parts[p])[i];
      for (auto &[v, use] : uses) {
        // Renames `o` if it names the value; says whether it did.
        auto rename = [&](MOperand &o) {
          bool hit = false;
          if (o.kind == MOperand::Kind::VReg || o.kind == MOperand::Kind::Pair) {
            if (o.vreg == v)
              o.vreg = use.temp, hit = true;
            else if (use.pair && o.vreg == use.hi)
              o.vreg = use.tempHi, hit = true;
          }
          if (o.kind == MOperand::Kind::Pair && use.pair && o.vregHi == use.hi)
            o.vregHi = use.tempHi, hit = true;
          return hit;
        };
        bool reads = false;
        for (MOperand &s : mi.srcs)
          reads |= rename(s);
        const bool writes = rename(mi.dst);
        if (!reads && !writes)
          continue;
        if (labelled) {
          if (reads || mi.dst.part != Part::Whole || use.pair) // (a partial write keeps the rest)
            use.loadBefore.insert({p, i});
          if (writes)
            use.storeAfter.insert({p, i});
          continue;
        }
        if (use.first.part == ~size_t(0)) {
          use.first = {p, i};
          // (a pair's halves may be written one at a time: always loaded)
          use.firstIsWholeWrite = writes && !reads && mi.dst.part == Part::Whole && !use.pair;
        }
        if (writes)
          use.lastWrite = {p, i};
      }
    }
  auto valueOf = [](const Use &use) {
    if (!use.pair)
      return vregOperand(use.temp);
    MOperand o;
    o.kind = MOperand::Kind::Pair;
    o.vreg = use.temp;
    o.vregHi = use.tempHi;
    return o;
  };
  for (size_t p = 0; p < parts.size(); ++p) {
    std::vector<MInst> rebuilt;
    rebuilt.reserve(parts[p]->size() + 2 * uses.size());
    for (size_t i = 0; i < parts[p]->size(); ++i) {
      for (const auto &[v, use] : uses)
        if ((use.first.part == p && use.first.index == i && !use.firstIsWholeWrite) || use.loadBefore.count({p, i}))
          for (MInst &mi : spillCopy(v, valueOf(use), false, pos))
            rebuilt.push_back(std::move(mi));
      rebuilt.push_back((*parts[p])[i]);
      for (const auto &[v, use] : uses)
        if ((use.lastWrite.part == p && use.lastWrite.index == i) || use.storeAfter.count({p, i}))
          for (MInst &mi : spillCopy(v, valueOf(use), true, pos))
            rebuilt.push_back(std::move(mi));
    }
    *parts[p] = std::move(rebuilt);
  }
}

unsigned Lowering::spillAddressZero() {
  // The kernel's zero VGPR (see zeroVgpr); lowerStatements set it in the
  // first statement if the statements used it, else it is set here.
  const bool fresh = !zeroVgpr_;
  const unsigned z = zeroVgpr();
  if (fresh)
    setZeroVgprFirst(z);
  return z;
}

std::string Lowering::spillLocation(unsigned vreg) const {
  const unsigned slot = spillSlot_.at(vreg);
  const mir::RegClass c = fn_.vregs[vreg].cls;
  if (!mir::isSgprClass(c))
    return "scratch+" + std::to_string(slot);
  const unsigned words = mir::registerCount(c, t_.wave_size);
  std::string s = "v" + std::to_string(spillLaneBase_ + slot / t_.wave_size) + " lane";
  s += words == 1 ? " " + std::to_string(slot % t_.wave_size)
                  : "s " + std::to_string(slot % t_.wave_size) + "-" + std::to_string((slot + 1) % t_.wave_size);
  return s;
}

} // namespace p2a::klower
