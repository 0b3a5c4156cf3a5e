// Register assignment: live intervals of the virtual registers, physical
// registers from regalloc, and the table of where each PTX register lives.
#include "lowering/lowering.hpp"
#include "targets/occupancy.hpp"

#include <array>
#include <tuple>

namespace p2a::klower {

namespace {

// The VGPRs the hardware fills with work-item IDs (AMDGPUUsage "VGPR
// register set up order"): v0 packed (gfx90a+, gfx11+), else v0..v2, kept
// as an even count so that pairs after them stay aligned.
unsigned workItemIdVgprs(const targets::TargetInfo &t) { return t.packed_work_item_ids ? 2 : 4; }

} // namespace

bool Lowering::assignRegisters(bool lowered) {
  // Keep v0 (packed IDs) or v0..v2 free, and the ABI SGPRs below the masks;
  // the VGPRs holding spilled SGPR values come right after the ABI's.
  const unsigned abiVgprs = workItemIdVgprs(t_);
  const unsigned firstSgpr = kParamSgprs + alignUp(paramDwords_, 2) + 2 * static_cast<unsigned>(globalSgpr_.size());
  spillLaneBase_ = abiVgprs;
  // The budget: launch bounds may ask for fewer VGPRs than the target has;
  // if even spilling cannot reach that, the target's (-Wlaunch-bounds says so).
  RegisterBudget budget = registerBudget();
  const RegisterBudget hardware{targets::kMaxVgprs, targets::kMaxSgprs};
  constexpr unsigned kMaxRounds = 16;
  for (unsigned round = 0;; ++round) {
    const unsigned laneVgprs = alignUp((spillLaneWords_ + t_.wave_size - 1) / t_.wave_size, 2);
    regalloc::LiveIntervals live = liveIntervals();
    for (const auto &[temp, pos] : spillTemps_) // a spilled value's stand-in lives in its statement
      live.start[temp] = live.end[temp] = static_cast<long>(pos);
    out_.allocation = regalloc::allocate(fn_, t_, abiVgprs + laneVgprs, firstSgpr, &live);
    regalloc::AllocationScore best = regalloc::scoreOf(fn_, out_.allocation);
    // (Past kLargeKernel statements, Always only: each allocation of
    // KeyHunt's 100k-statement kernels, lowered four times each, is a
    // quarter second.)
    constexpr size_t kLargeKernel = 20000;
    for (regalloc::DyingSources sharing : {regalloc::DyingSources::WhereFresh, regalloc::DyingSources::Always}) {
      if (sharing == regalloc::DyingSources::WhereFresh && fn_.body.size() > kLargeKernel)
        continue;
      mir::Allocation other = regalloc::allocate(fn_, t_, abiVgprs + laneVgprs, firstSgpr, &live, sharing);
      const regalloc::AllocationScore score = regalloc::scoreOf(fn_, other);
      if (score.betterThan(best)) {
        out_.allocation = std::move(other);
        best = score;
      }
    }
    out_.numVgprs = out_.allocation.numVgprs;
    out_.numSgprs = out_.allocation.numSgprs;
    out_.spillLaneVgprs = laneVgprs;
    if ((out_.numVgprs <= budget.vgprs && out_.numSgprs <= budget.sgprs) || !lowered)
      break;
    // Out of SGPRs with homes for uniform values: the caller translates
    // again without them first (the lane masks come first).
    outOfSgprsWithHomes_ = out_.numSgprs > targets::kMaxSgprs &&
                           (!uniform_.scalarStatements.empty() || !literalSgprs_.empty()) && opts_.scalarHomeSgprs > 0;
    const bool spilled = !outOfSgprsWithHomes_ && round < kMaxRounds && spillToFit(out_.allocation, live, budget, round);
    if (spilled)
      continue;
    const bool belowTarget = budget.vgprs < hardware.vgprs || budget.sgprs < hardware.sgprs;
    if (!outOfSgprsWithHomes_ && belowTarget) {
      // Launch bounds are checkLaunchBounds' to report; the command line's here.
      for (const auto &[asked, used, what] : {std::tuple{opts_.maxVgprs, out_.numVgprs, "vgprs"},
                                              std::tuple{opts_.maxSgprs, out_.numSgprs, "sgprs"}})
        if (asked && used > asked)
          warning(diags_, k_.loc, "register-budget",
                  std::string("--max-") + what + "=" + std::to_string(asked) + " is not met: kernel '" + k_.name +
                      "' uses " + std::to_string(used) + " on " + t_.name +
                      " (what the ABI, the control flow and its instructions need at once, after spilling)");
      if (out_.numVgprs <= hardware.vgprs && out_.numSgprs <= hardware.sgprs)
        break; // within the target's registers
      if (round < kMaxRounds) {
        budget = hardware;
        continue;
      }
    }
    error(diags_, k_.loc,
          "kernel '" + k_.name + "' needs " + std::to_string(out_.numVgprs) + " VGPRs and " +
              std::to_string(out_.numSgprs) + " SGPRs at its peak register pressure, more than " + t_.name +
              " offers (" + std::to_string(targets::kMaxVgprs) + "/" + std::to_string(targets::kMaxSgprs) + ")" +
              (outOfSgprsWithHomes_ ? ""
                                    : ", even with " + std::to_string(out_.spilledVgprValues + out_.spilledSgprValues) +
                                          " values spilled: the rest are registers the ABI, the control flow or the "
                                          "instructions themselves need at once"));
    return false;
  }
  out_.maxBlockThreads =
      std::min(k_.bounds.blockLimit(), targets::maxWorkgroupThreads(t_, out_.numVgprs, out_.numSgprs));
  if (privateBytes_ > t_.maxScratchBytesPerLane()) {
    error(diags_, k_.loc,
          "kernel '" + k_.name + "' needs " + std::to_string(privateBytes_) + " bytes of scratch per thread with its "
              "spills; a lane on " + t_.name + " has at most " + std::to_string(t_.maxScratchBytesPerLane()));
    return false;
  }
  for (unsigned v = 0; v < fn_.vregs.size(); ++v) {
    const std::string &name = fn_.ptxName(v);
    const mir::VRegRole role = fn_.vregs[v].role;
    if (role == mir::VRegRole::ScalarHome)
      out_.scalarHomes.push_back(
          {name, fn_.vregs[v].spilled ? spillLocation(v) : printer::physName(v, fn_, out_.allocation, t_)});
    if (role == mir::VRegRole::Temporary || role == mir::VRegRole::ScalarHome)
      continue;
    // (Where each register lives is for listings, `check`'s traces and IR
    // dumps only: a batch translation without them drops the table, which
    // for one of KeyHunt's 80k-statement kernels was 4 MiB per try, and a
    // kept try's beside the next.)
    if (!opts_.keepListing && opts_.printAfter.empty())
      continue;
    std::string where;
    if (fn_.vregs[v].spilled)
      where = spillLocation(v);
    else if (auto it = inPlace_.find(v); it != inPlace_.end())
      where = it->second.kind == MOperand::Kind::Phys ? sgprText(it->second)
                                                      : printer::physName(it->second.vreg, fn_, out_.allocation, t_);
    else
      where = printer::physName(v, fn_, out_.allocation, t_);
    out_.registers.push_back({name, where});
  }
  return true;
}

const kernel::RegisterNumbering &Lowering::registerIds() { return analyses_.live.numbering; }

regalloc::LiveIntervals Lowering::liveIntervals() {
  const size_t n = k_.body.size();
  const unsigned nv = static_cast<unsigned>(fn_.vregs.size());
  regalloc::LiveIntervals iv{std::vector<long>(nv, -1), std::vector<long>(nv, -1)};
  auto vregOf = [&](llvm::StringRef r) -> long {
    auto it = fn_.ptxRegs.find(r);
    if (it == fn_.ptxRegs.end() || inPlace_.count(it->second))
      return -1;
    return it->second;
  };
  // A uniform register's SGPR home holds its value wherever the register
  // does: the same liveness (scalar writers are unguarded).
  auto homeVreg = [&](llvm::StringRef r) -> long {
    auto it = fn_.scalarHomes.find(r);
    return it == fn_.scalarHomes.end() || fn_.vregs[it->second].cls == mir::RegClass::Mask ? -1 : long(it->second);
  };
  // (Each register's vreg and home looked up once, then the statements' id lists.)
  const kernel::RegisterNumbering &ids = registerIds();
  std::vector<std::array<long, 2>> vregsOf(ids.size());
  for (unsigned r = 0; r < ids.size(); ++r)
    vregsOf[r] = {vregOf(ids.name(r)), homeVreg(ids.name(r))};
  // Per statement the vregs it reads and writes, each kind in one flat list
  // (a vector per statement was three heap blocks a statement, per try).
  std::vector<unsigned> useIds, defIds;
  std::vector<size_t> useStart(n + 1, 0), defStart(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const Stmt &st = k_.body[i];
    for (unsigned r : ids.reads(i))
      for (long v : vregsOf[r])
        if (v >= 0)
          useIds.push_back(static_cast<unsigned>(v));
    for (unsigned r : ids.writes(i))
      for (long v : vregsOf[r])
        if (v >= 0)
          defIds.push_back(static_cast<unsigned>(v));
    if (!st.guard.empty()) // a guarded write keeps the old value in other lanes
      useIds.insert(useIds.end(), defIds.begin() + static_cast<long>(defStart[i]), defIds.end());
    useStart[i + 1] = useIds.size();
    defStart[i + 1] = defIds.size();
  }
  auto use = [&](size_t i) { return llvm::ArrayRef<unsigned>(useIds).slice(useStart[i], useStart[i + 1] - useStart[i]); };
  auto def = [&](size_t i) { return llvm::ArrayRef<unsigned>(defIds).slice(defStart[i], defStart[i + 1] - defStart[i]); };
  auto mark = [&](unsigned v, size_t i) {
    const long p = static_cast<long>(i);
    iv.start[v] = iv.start[v] < 0 ? p : std::min(iv.start[v], p);
    iv.end[v] = std::max(iv.end[v], p);
  };
  const unsigned nb = numBlocks_;
  const std::vector<std::vector<unsigned>> &succ = cfg_.succ;
  std::vector<llvm::SparseBitVector<>> liveIn, liveOut;
  kernel::blockLiveness(cfg_, n, kernel::StatementValues{def, use, [](size_t) { return false; }}, liveIn, liveOut);
  // The positions that bound each interval: the block's last statement for
  // a value live out of it, its first for one live into it, and every def
  // and use. A value live across a statement is live-out there or used later
  // in the block, and was defined earlier in it or is live-in, so these are
  // its extremes without marking every live value at every statement (which
  // was quadratic: 100k statements times 50k values in an inlined kernel).
  for (unsigned b = 0; b < nb && n; ++b) {
    const size_t first = blockStart_[b], end = b + 1 < nb ? blockStart_[b + 1] : n;
    if (end > first)
      for (unsigned v : liveOut[b])
        mark(v, end - 1);
    for (size_t i = first; i < end; ++i) {
      for (unsigned v : def(i))
        mark(v, i);
      for (unsigned v : use(i))
        mark(v, i);
    }
    for (unsigned v : liveIn[b]) // live on entry: held from the block's first statement
      mark(v, blockStart_[b]);
  }
  // A predicate or home needed by lanes waiting in block z is held through
  // every block x that may run meanwhile.
  std::vector<bool> uniformEnd(nb, false);
  for (unsigned b = 0; b < nb && n; ++b)
    uniformEnd[b] = uniform_.uniformBranches.count(cfg_.blockEnd(b) - 1) > 0;
  const kernel::WaitingLanes waiting(cfg_, uniformEnd);
  for (unsigned z = 0; z < nb && n; ++z) {
    const auto [first, last] = waiting.runningWhileWaiting(z);
    if (first > last)
      continue;
    for (unsigned v : liveIn[z])
      if (mir::isSgprClass(fn_.vregs[v].cls)) {
        mark(v, blockStart_[first]);
        mark(v, cfg_.blockEnd(last) - 1);
      }
  }
  // Statements that only copy VGPR values (mov, mov.b64's pack and unpack,
  // cvt's zero extension and truncation): the allocator may give the copy
  // its source's registers (regalloc.hpp, CopyHint). Also the first or last
  // statement of a block, whose control flow (EXEC, masks, branches) touches
  // no VGPR: the destination starts there, so no lane held a value of it
  // that the move, under EXEC, would have kept.
  for (size_t i = 0; i < n; ++i) {
    const std::vector<MInst> &insts = fn_.body[i].insts;
    if (!k_.body[i].guard.empty() || insts.empty() ||
        std::any_of(insts.begin(), insts.end(), [](const MInst &mi) { return mi.op != amd::Op::V_MOV_B32; }))
      continue;
    for (const MInst &mi : insts)
      if (mi.dst.kind == MOperand::Kind::VReg && mi.srcs.size() == 1 && mi.srcs[0].kind == MOperand::Kind::VReg)
        iv.copies.push_back({static_cast<long>(i), mi.dst.vreg, mi.dst.part == rules::Part::Hi ? 1u : 0u,
                             mi.srcs[0].vreg, mi.srcs[0].part == rules::Part::Hi ? 1u : 0u});
  }
  // Holes (regalloc.hpp): per VGPR value, the longest run of positions in
  // one block between an access and a statement that writes it whole
  // without reading it (no guard, no v_writelane, every half written, no
  // instruction of it or around it reading the value): the value is dead
  // there, and its registers may hold another. The keccak state carried
  // around a round loop is dead from its last read to its new value, while
  // the round's 25 rotated lanes are live (keccak gfx942: 166 -> 142 VGPRs).
  iv.holes.assign(nv, {});
  std::vector<long> lastAccess(nv, -1);
  std::vector<unsigned> readHere(nv, ~0u), writtenHere(nv, ~0u); // position of the mark; halves written
  std::vector<uint8_t> halves(nv, 0);
  // (The same walk finds the last position reading the work-item IDs' VGPRs, below.)
  iv.abiVgprs = workItemIdVgprs(t_);
  auto readsIds = [&](const MOperand &o) {
    return o.kind == MOperand::Kind::Phys && o.file == mir::RegFile::Vgpr && o.physIndex < iv.abiVgprs;
  };
  std::vector<unsigned> touched; // (this statement's; one vector for all)
  for (size_t i = 0; i < n; ++i) {
    touched.clear();
    auto touch = [&](unsigned v) {
      if (readHere[v] != i && writtenHere[v] != i)
        touched.push_back(v);
    };
    auto noteOperand = [&](const MOperand &o, bool write, bool partial) {
      if (o.kind != MOperand::Kind::VReg && o.kind != MOperand::Kind::Pair)
        return;
      for (unsigned half = 0; half < 2; ++half) {
        const unsigned v = half ? o.vregHi : o.vreg; // (vregHi is 0 outside a pair)
        if (v >= nv || (half && o.kind != MOperand::Kind::Pair))
          continue;
        touch(v);
        if (!write || partial) {
          readHere[v] = static_cast<unsigned>(i);
          continue;
        }
        if (writtenHere[v] != i)
          halves[v] = 0;
        writtenHere[v] = static_cast<unsigned>(i);
        halves[v] |= o.kind == MOperand::Kind::Pair || o.part == rules::Part::Whole ? 3 : o.part == rules::Part::Lo ? 1 : 2;
      }
    };
    const std::vector<MInst> *parts[] = {&before_[i], &fn_.body[i].insts, &after_[i]};
    for (const std::vector<MInst> *part : parts)
      for (const MInst &mi : *part) {
        for (const MOperand &o : mi.srcs)
          noteOperand(o, false, false);
        noteOperand(mi.dst, true, mi.op == amd::Op::V_WRITELANE_B32);
        if (readsIds(mi.dst) || std::any_of(mi.srcs.begin(), mi.srcs.end(), readsIds))
          iv.abiVgprsEnd = static_cast<long>(i);
      }
    for (unsigned v : use(i))
      touch(v), readHere[v] = static_cast<unsigned>(i);
    for (unsigned v : touched) {
      const long last = lastAccess[v];
      const mir::RegClass cls = fn_.vregs[v].cls;
      const bool wholeWrite = writtenHere[v] == i && readHere[v] != i &&
                              halves[v] == 3 &&
                              llvm::is_contained(def(i), v);
      if (wholeWrite && last >= 0 && blockOf_[static_cast<size_t>(last)] == blockOf_[i] &&
          (cls == mir::RegClass::V32 || cls == mir::RegClass::V64)) {
        regalloc::Hole &h = iv.holes[v];
        if (static_cast<long>(i) - last > h.to - h.from)
          h = {last, static_cast<long>(i)};
      }
      lastAccess[v] = static_cast<long>(i);
    }
  }
  // The work-item IDs' VGPRs are free after their last read; a read inside
  // a loop keeps them to the end of the loop's last block.
  for (bool grown = iv.abiVgprsEnd >= 0; grown;) {
    grown = false;
    const unsigned b = blockOf_[static_cast<size_t>(iv.abiVgprsEnd)];
    for (unsigned z = b; z < nb; ++z)
      for (unsigned s : succ[z])
        if (s <= b && static_cast<long>(cfg_.blockEnd(z)) - 1 > iv.abiVgprsEnd) {
          iv.abiVgprsEnd = static_cast<long>(cfg_.blockEnd(z)) - 1;
          grown = true;
        }
  }
  for (const regalloc::CopyHint &c : iv.copies) // (copies keep their own sharing rules)
    iv.holes[c.dst] = iv.holes[c.src] = {};
  // Block lane masks (shareLaneMasks) are cleared before the first
  // statement and read and written around block boundaries to the end: held
  // throughout, which makes them values the spiller may move to VGPR lanes
  // when SGPRs run out (a kernel with a hundred blocks in one loop).
  if (n)
    for (const auto &[v, value] : literalSgprs_) { // set in the prologue, read anywhere
      iv.start[v] = 0;
      iv.end[v] = static_cast<long>(n) - 1;
    }
  if (n)
    for (unsigned v : maskVreg_) {
      iv.start[v] = 0;
      iv.end[v] = static_cast<long>(n) - 1;
    }
  return iv;
}

} // namespace p2a::klower
