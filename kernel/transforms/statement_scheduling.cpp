#include "kernel/transforms/statement_scheduling.hpp"

#include "kernel/analysis/control_flow_graph.hpp"
#include "kernel/analysis/work_counter.hpp"
#include "targets/alu_delay.hpp"
#include "targets/occupancy.hpp"

#include <algorithm>
#include <optional>
#include <memory>
#include <set>
#include <unordered_map>

namespace p2a::kernel {

namespace {

// Latencies in cycles, the emulator's cycle estimate's figures
// (validation/amdgpu_emulator.cpp): a vector memory load waited on costs
// about 500, a scalar one 150 (uniform .const/.param loads become s_load),
// LDS 64 (ds_bpermute too). An ALU statement is one or a few VALU
// instructions, each completing about 4 cycles after it issues. A wave64 on
// GCN/CDNA's SIMD16s issues one every 4 cycles, so a dependent statement is
// ready when it could issue anyway; a wave32 on RDNA issues one a cycle and
// has its result 5 cycles later (RDNA3 ISA: the dependency stalls
// s_delay_alu describes; targets/alu_delay.hpp), so independent statements
// fill the gap: kIssueCycles per statement, 1 in wave32. (Latency 5 on
// gfx942 too measured slightly worse: sha256 3,204 -> 3,215 cycles.)
constexpr unsigned kVectorLoadLatency = 500, kScalarLoadLatency = 150, kLdsLatency = 64, kAluLatency = 4,
                   kIssueCycles = 4;

struct Timing {
  unsigned issueCycles = kIssueCycles, aluLatency = kAluLatency;
};
Timing timingFor(const targets::TargetInfo *t) {
  if (t && t->wave_size == 32)
    return {1, targets::kValuLatency};
  return {};
}
// The ready statements looked at per choice, best first: a bound, so that a
// block of 50,000 statements is scheduled in O(n log n).
constexpr unsigned kCandidateWindow = 16;

// Memory a statement may touch, as a set of address spaces.
enum MemoryClass : unsigned {
  kGlobalMemory = 1,
  kSharedMemory = 2,
  kLocalMemory = 4,
  kParamMemory = 8,
  kEveryMemory = 15,
};

unsigned memoryClasses(Space s) {
  switch (s) {
  case Space::Global: return kGlobalMemory;
  case Space::Shared: return kSharedMemory;
  case Space::Local: return kLocalMemory;
  case Space::Param: return kParamMemory;
  case Space::Const: return 0; // never written by a kernel
  case Space::Generic: return kEveryMemory;
  }
  return kEveryMemory;
}

struct MemoryEffect {
  unsigned reads = 0, writes = 0;
};

// What a statement does to memory and to the order of other threads'
// view of it. A statement with effects beyond memory is ordered against
// every memory access and every other such statement: as a write of all
// memory.
MemoryEffect memoryEffect(const Stmt &s) {
  const MemoryEffect ordered{kEveryMemory, kEveryMemory};
  switch (s.kind) {
  case Stmt::Kind::Load:
    if (s.strong || s.ordered)
      return ordered;
    if (s.space == Space::Global && s.nonCoherent) // read-only for the kernel's lifetime (PTX ISA 9.7.9.8)
      return {};
    return {memoryClasses(s.space), 0};
  case Stmt::Kind::Store:
    if (s.strong || s.ordered)
      return ordered;
    return {0, memoryClasses(s.space)};
  case Stmt::Kind::Atomic:
  case Stmt::Kind::Barrier:
  case Stmt::Kind::Fence:
  case Stmt::Kind::Trap:
  case Stmt::Kind::WarpShuffle:
  case Stmt::Kind::WarpVote:
  case Stmt::Kind::WarpSync:
  case Stmt::Kind::WarpCombine:
  case Stmt::Kind::Branch:
  case Stmt::Kind::Return: return ordered;
  case Stmt::Kind::Compute:
  case Stmt::Kind::ReadSpecial:
  case Stmt::Kind::AddressOf:
  case Stmt::Kind::Cvta:
  case Stmt::Kind::ArrayLoad: // registers only
  case Stmt::Kind::ArrayStore:
  case Stmt::Kind::Nop: return {};
  }
  return ordered;
}

unsigned latencyOf(const Stmt &s, const Timing &timing) {
  switch (s.kind) {
  case Stmt::Kind::Load:
    return s.space == Space::Shared ? kLdsLatency
           : s.space == Space::Const || s.space == Space::Param ? kScalarLoadLatency
                                                                : kVectorLoadLatency;
  case Stmt::Kind::Atomic: return s.space == Space::Shared ? kLdsLatency : kVectorLoadLatency;
  case Stmt::Kind::WarpShuffle: return kLdsLatency;
  default: return timing.aluLatency;
  }
}

// Per statement a list of register ids, all in one flat list (a vector per
// statement was two heap blocks a statement, each time a kernel is scheduled).
class StatementRegisters {
public:
  explicit StatementRegisters(size_t statements) { start_.reserve(statements + 1); }
  // Statement i's list, sorted, each id once: lists are added in statement order.
  void add(llvm::SmallVectorImpl<unsigned> &regs) {
    std::sort(regs.begin(), regs.end());
    regs.erase(std::unique(regs.begin(), regs.end()), regs.end());
    ids_.append(regs.begin(), regs.end());
    start_.push_back(static_cast<unsigned>(ids_.size()));
  }
  llvm::ArrayRef<unsigned> operator[](size_t i) const {
    return llvm::ArrayRef<unsigned>(ids_).slice(start_[i], start_[i + 1] - start_[i]);
  }

private:
  llvm::SmallVector<unsigned, 0> ids_;
  std::vector<unsigned> start_{0};
};

// The kernel's registers as small integers, and per statement the ones it
// reads (a guarded write's old value included) and writes, each once.
struct RegisterUse {
  explicit RegisterUse(size_t statements) : reads(statements), writes(statements) {}
  std::vector<unsigned> units; // per register: 32-bit VGPRs its value takes (0: a predicate, a uniform value)
  std::vector<unsigned> words; // per register: the SGPRs of its scalar home (0: none)
  StatementRegisters reads, writes; // per statement
  std::vector<long> base;           // per statement: a memory access's base register (-1: none)
};

// Ids in order of first appearance: per statement its memory access's base,
// then its writes, then its reads. Made from the liveness's numbering
// (`numbering`), so no name is hashed again; `useIdOf` receives each
// numbering id's id here.
RegisterUse registerUse(const Kernel &k, const RegisterNumbering &numbering, const std::vector<unsigned> &widths,
                        const std::set<std::string, std::less<>> &scalar,
                        const std::map<std::string, unsigned, std::less<>> &homeWords,
                        std::vector<unsigned> &useIdOf) {
  const size_t n = k.body.size();
  RegisterUse u(n);
  useIdOf.assign(numbering.size(), ~0u);
  auto id = [&](unsigned r) {
    unsigned &mine = useIdOf[r];
    if (mine == ~0u) {
      mine = static_cast<unsigned>(u.units.size());
      const llvm::StringRef name = numbering.name(r);
      const unsigned width = widths[r] ? widths[r] : 32; // (undeclared: 32 bits)
      u.units.push_back(width <= 1 || scalar.count(name) ? 0 : (width + 31) / 32);
      auto home = homeWords.find(name);
      u.words.push_back(home == homeWords.end() ? 0 : home->second);
    }
    return mine;
  };
  u.base.assign(n, -1);
  llvm::SmallVector<unsigned, 8> readIds, writeIds;
  for (size_t i = 0; i < n; ++i) {
    const Stmt &s = k.body[i];
    const llvm::ArrayRef<unsigned> reads = numbering.reads(i);
    // (A base register is the last a memory access reads: forEachReadRegister.)
    if ((s.kind == Stmt::Kind::Load || s.kind == Stmt::Kind::Store || s.kind == Stmt::Kind::Atomic) &&
        !s.baseIsSymbol && !s.extra().base.empty())
      u.base[i] = id(reads.back());
    readIds.clear();
    writeIds.clear();
    for (unsigned r : numbering.writes(i)) {
      writeIds.push_back(id(r));
      if (!s.guard.empty())
        readIds.push_back(id(r));
    }
    for (unsigned r : reads)
      readIds.push_back(id(r));
    u.reads.add(readIds);
    u.writes.add(writeIds);
  }
  return u;
}

// Where each register is held, as register assignment sees it: one
// interval per PTX register over statement positions, from its first to its
// last mark (an access, the first statement of a block it is live into, the
// last of a block it is live out of; lowering/register_assignment.cpp), with
// no holes. Per register the first and last block holding a mark.
struct RegisterExtent {
  std::vector<unsigned> firstBlock, lastBlock;
};

// The maximum over a range of a fixed sequence in O(1) (a sparse table,
// O(n log n) to build).
class RangeMax {
public:
  void build(const std::vector<unsigned> &v) {
    table_.assign(1, v);
    for (size_t w = 1; 2 * w <= v.size(); w *= 2) {
      const std::vector<unsigned> &prev = table_.back();
      std::vector<unsigned> next(v.size() - 2 * w + 1);
      for (size_t i = 0; i < next.size(); ++i)
        next[i] = std::max(prev[i], prev[i + w]);
      table_.push_back(std::move(next));
    }
  }
  unsigned max(size_t a, size_t b) const { // a <= b
    unsigned k = 0;
    while ((size_t(2) << k) <= b - a + 1)
      ++k;
    return std::max(table_[k][a], table_[k][b + 1 - (size_t(1) << k)]);
  }

private:
  std::vector<std::vector<unsigned>> table_;
};

// A memory access, for telling accesses apart: two through the same base
// register value (the same register, not written between them) or the same
// variable touch the same bytes only if [lo, hi) overlap; any other two may
// alias, unless they name different variables.
struct MemoryAccess {
  unsigned statement;
  bool write, ordered;
  long baseReg, baseVersion;  // register and the statement that last wrote it in the block (-1: on entry)
  const std::string *symbol;  // or a variable
  int64_t lo, hi;             // bytes from the base
};
constexpr size_t kRecentAccesses = 64;

bool mayAlias(const MemoryAccess &a, const MemoryAccess &b) {
  if (a.ordered || b.ordered)
    return true;
  const bool sameBase = (a.symbol && b.symbol && *a.symbol == *b.symbol) ||
                        (!a.symbol && !b.symbol && a.baseReg >= 0 && a.baseReg == b.baseReg &&
                         a.baseVersion == b.baseVersion);
  if (sameBase)
    return a.lo < b.hi && b.lo < a.hi;
  if (a.symbol && b.symbol) // two variables
    return false;
  return true;
}

// One basic block's statements as a dependence graph (positions 0..m-1 in
// original order), with the pressure estimate that follows the register
// intervals: a register accessed in the block is held from its first access
// to its last, or from the block's start if its interval begins before
// (live in, or marked in an earlier block), and to the block's end if it
// continues after. Registers the block does not touch but is live through
// are a constant.
class BlockSchedule {
public:
  BlockSchedule(const Kernel &k, const RegisterUse &use, const RegisterExtent &extent, unsigned block, size_t first,
                size_t end, const llvm::SparseBitVector<> &liveIn, const llvm::SparseBitVector<> &liveOut,
                const std::vector<unsigned> &idOfBit, const Timing &timing)
      : k_(k), use_(use), first_(first), m_(static_cast<unsigned>(end - first)), timing_(timing), succ_(m_),
        preds_(m_, 0), touched_(m_) {
    // The branch or return at the end stays there, and so does the setp
    // writing its guard right before it (sccFromCompare in the lowering).
    if (m_ && isTerminator(k.body[end - 1])) {
      fixedTail_ = 1;
      const Stmt &term = k.body[end - 1];
      if (m_ >= 2 && !term.guard.empty()) {
        const Stmt &cmp = k.body[end - 2];
        if (cmp.kind == Stmt::Kind::Compute && cmp.inst.form.opcode == ptx::Opcode::Setp && !cmp.inst.dsts.empty() &&
            cmp.inst.dsts[0].isReg() && cmp.inst.dsts[0].reg == term.guard.str())
          fixedTail_ = 2;
      }
    }
    buildGraph();
    std::unordered_map<unsigned, bool> in, out;
    for (unsigned bit : liveIn)
      if (idOfBit[bit] != ~0u)
        in[idOfBit[bit]] = true;
    for (unsigned bit : liveOut)
      if (idOfBit[bit] != ~0u)
        out[idOfBit[bit]] = true;
    for (Held &h : held_) {
      h.fromStart = in.count(h.reg) || extent.firstBlock[h.reg] < block;
      h.toEnd = out.count(h.reg) || extent.lastBlock[h.reg] > block;
      if (h.fromStart) {
        entryPressure_ += h.units;
        entryWords_ += h.words;
      }
    }
    for (const auto &[r, yes] : in) // live through without an access
      if (!index_.count(r)) {
        entryPressure_ += use.units[r];
        entryWords_ += use.words[r];
      }
  }

  // The peak in original order; records that order's pressure profile.
  unsigned originalPeak() {
    resetPressure();
    before_.resize(m_ + 1);
    std::vector<unsigned> during(m_);
    unsigned peak = pressure_;
    for (unsigned p = 0; p < m_; ++p) {
      before_[p] = pressure_;
      during[p] = place(p);
      peak = std::max(peak, during[p]);
    }
    before_[m_] = pressure_;
    duringMax_.build(during);
    return peak;
  }

  // The new order (positions in the block), keeping pressure within `limit`
  // where original order allows it (originalPeak() first: its profile).
  // Taking p ahead of the first statement not yet placed (the frontier, in
  // original order) holds what p writes across the statements from the
  // frontier up to p, so p goes first only if what is held beyond the
  // original order's pressure, plus what p adds, fits under the limit at
  // the highest original pressure among those statements.
  // Scalar homes the same way, but only as they stand: a statement writing
  // one goes ahead of the frontier only while the homes held stay within
  // `wordsLimit` (the uniform-value analysis gives no more SGPRs than that
  // to values held at once; beyond, they would become per-lane values).
  // `finish`, if given, receives when the model issues the last of them.
  std::vector<unsigned> schedule(unsigned limit, unsigned wordsLimit, uint64_t *finish = nullptr) {
    resetPressure();
    const unsigned free = m_ - fixedTail_;
    std::vector<unsigned> order;
    order.reserve(m_);
    std::vector<unsigned> waiting = preds_;
    std::vector<uint64_t> available(m_, 0), start(m_, 0);
    // Ready statements by priority (longest path to the block's end first,
    // then original order) and by original order.
    std::set<std::pair<uint64_t, unsigned>> byPriority;
    std::set<unsigned> byPosition;
    auto makeReady = [&](unsigned p) {
      if (p >= free)
        return;
      byPriority.insert({~height_[p], p});
      byPosition.insert(p);
    };
    for (unsigned p = 0; p < free; ++p)
      if (!waiting[p])
        makeReady(p);
    uint64_t now = 0;
    while (order.size() < free) {
      countWork(1);
      unsigned pick = ~0u, fallback = ~0u;
      uint64_t fallbackAvailable = ~uint64_t(0);
      unsigned looked = 0;
      const unsigned frontier = *byPosition.begin();
      const unsigned extra = pressure_ > before_[frontier] ? pressure_ - before_[frontier] : 0;
      for (auto it = byPriority.begin(); it != byPriority.end() && looked < kCandidateWindow; ++it, ++looked) {
        const unsigned p = it->second;
        const Change c = change(p);
        if (p != frontier && c.born > c.dying && extra + c.born + duringMax_.max(frontier, p - 1) > limit)
          continue;
        if (p != frontier && wordsLimit && c.wordsBorn > c.wordsDying && words_ + c.wordsBorn > wordsLimit)
          continue;
        if (available[p] <= now) {
          pick = p;
          break;
        }
        if (available[p] < fallbackAvailable) {
          fallbackAvailable = available[p];
          fallback = p;
        }
      }
      if (pick == ~0u)
        pick = fallback != ~0u ? fallback : *byPosition.begin();
      byPriority.erase({~height_[pick], pick});
      byPosition.erase(pick);
      order.push_back(pick);
      place(pick);
      now = std::max(now, available[pick]);
      start[pick] = now;
      now += timing_.issueCycles;
      for (const auto &[s, latency] : succ_[pick]) {
        available[s] = std::max(available[s], start[pick] + latency);
        if (--waiting[s] == 0)
          makeReady(s);
      }
    }
    for (unsigned p = free; p < m_; ++p) // the fixed tail, after everything else
      order.push_back(p);
    if (finish)
      *finish = now;
    return order;
  }

private:
  static bool isTerminator(const Stmt &s) { return s.kind == Stmt::Kind::Branch || s.kind == Stmt::Kind::Return; }

  // A register the block accesses.
  struct Held {
    unsigned reg = 0, units = 0, words = 0;
    unsigned accesses = 0; // statements touching it
    bool fromStart = false, toEnd = false;
  };

  void edge(unsigned from, unsigned to, unsigned latency) {
    if (from == to)
      return;
    succ_[from].push_back({to, latency});
    ++preds_[to];
  }

  unsigned heldIndex(unsigned r) {
    auto [it, fresh] = index_.emplace(r, static_cast<unsigned>(held_.size()));
    if (fresh)
      held_.push_back({r, use_.units[r], use_.words[r], 0, false, false});
    return it->second;
  }

  void buildGraph() {
    std::unordered_map<unsigned, unsigned> lastWriter;
    std::unordered_map<unsigned, std::vector<unsigned>> readersSince;
    // Memory, per class: the accesses since the last flush, each checked
    // against a new access (see mayAlias), and the flush every later access
    // follows. A flush, when kRecentAccesses are held, orders everything
    // held before one access: each access is checked against a bounded set.
    std::vector<MemoryAccess> recent[4];
    long flush[4] = {-1, -1, -1, -1};
    for (unsigned p = 0; p < m_; ++p) {
      countWork(1);
      const size_t i = first_ + p;
      const Stmt &s = k_.body[i];
      MemoryAccess access{p, false, false, -1, -1, nullptr, 0, 0};
      if (s.kind == Stmt::Kind::Load || s.kind == Stmt::Kind::Store || s.kind == Stmt::Kind::Atomic) {
        access.baseReg = use_.base[i];
        if (access.baseReg >= 0)
          if (auto w = lastWriter.find(static_cast<unsigned>(access.baseReg)); w != lastWriter.end())
            access.baseVersion = w->second;
        access.symbol = s.baseIsSymbol ? &s.extra().base : nullptr;
        access.lo = s.offset;
        access.hi = s.offset + int64_t(std::max<size_t>(1, s.extra().values.size())) * std::max(1u, s.elemBits / 8);
      }
      for (unsigned r : use_.reads[i]) {
        if (auto w = lastWriter.find(r); w != lastWriter.end())
          edge(w->second, p, latencyOf(k_.body[first_ + w->second], timing_));
        readersSince[r].push_back(p);
        touched_[p].push_back(heldIndex(r));
      }
      for (unsigned r : use_.writes[i]) {
        if (auto w = lastWriter.find(r); w != lastWriter.end())
          edge(w->second, p, 0);
        for (unsigned q : readersSince[r])
          edge(q, p, 0);
        readersSince[r].clear();
        lastWriter[r] = p;
        touched_[p].push_back(heldIndex(r));
      }
      std::sort(touched_[p].begin(), touched_[p].end());
      touched_[p].erase(std::unique(touched_[p].begin(), touched_[p].end()), touched_[p].end());
      for (unsigned h : touched_[p])
        ++held_[h].accesses;
      const MemoryEffect e = memoryEffect(s);
      access.write = e.writes != 0;
      access.ordered = e.writes == kEveryMemory && e.reads == kEveryMemory;
      for (unsigned c = 0; c < 4; ++c) {
        const unsigned bit = 1u << c;
        if (!((e.reads | e.writes) & bit))
          continue;
        if (flush[c] >= 0)
          edge(static_cast<unsigned>(flush[c]), p, 0);
        for (const MemoryAccess &a : recent[c])
          if ((a.write || access.write) && mayAlias(a, access))
            edge(a.statement, p, 0);
        if (recent[c].size() >= kRecentAccesses) {
          for (const MemoryAccess &a : recent[c])
            edge(a.statement, p, 0);
          recent[c].clear();
          flush[c] = p;
          continue;
        }
        recent[c].push_back(access);
      }
    }
    // Longest latency-weighted path to the block's end (edges run forward).
    height_.assign(m_, 0);
    for (unsigned p = m_; p-- > 0;) {
      uint64_t h = latencyOf(k_.body[first_ + p], timing_);
      for (const auto &[s, latency] : succ_[p])
        h = std::max<uint64_t>(h, latency + height_[s]);
      height_[p] = h;
    }
  }

  void resetPressure() {
    pressure_ = entryPressure_;
    words_ = entryWords_;
    accessesLeft_.resize(held_.size());
    for (size_t h = 0; h < held_.size(); ++h)
      accessesLeft_[h] = held_[h].accesses;
  }

  // What placing statement p does to the pressure: the registers it
  // touches first (born) and last (dying) in the block. Registers are
  // assigned over statement positions, so at p both are held.
  // (The same for scalar homes' SGPRs: wordsBorn, wordsDying.)
  struct Change {
    unsigned born = 0, dying = 0, wordsBorn = 0, wordsDying = 0;
  };
  Change change(unsigned p) const {
    Change c;
    for (unsigned h : touched_[p]) {
      const Held &r = held_[h];
      if (!r.fromStart && accessesLeft_[h] == r.accesses) {
        c.born += r.units;
        c.wordsBorn += r.words;
      }
      if (!r.toEnd && accessesLeft_[h] == 1) {
        c.dying += r.units;
        c.wordsDying += r.words;
      }
    }
    return c;
  }

  // Places p: returns the pressure while p runs.
  unsigned place(unsigned p) {
    const Change c = change(p);
    const unsigned during = pressure_ + c.born;
    pressure_ = during - c.dying;
    words_ = words_ + c.wordsBorn - c.wordsDying;
    for (unsigned h : touched_[p])
      --accessesLeft_[h];
    return during;
  }

  const Kernel &k_;
  const RegisterUse &use_;
  size_t first_;
  unsigned m_;
  Timing timing_;
  unsigned fixedTail_ = 0;
  std::vector<std::vector<std::pair<unsigned, unsigned>>> succ_; // (successor, latency)
  std::vector<unsigned> preds_;
  std::vector<uint64_t> height_;
  std::vector<Held> held_;
  std::unordered_map<unsigned, unsigned> index_; // register -> held_ index
  std::vector<std::vector<unsigned>> touched_;   // per statement: held_ indices
  std::vector<unsigned> accessesLeft_;
  unsigned entryPressure_ = 0, pressure_ = 0, entryWords_ = 0, words_ = 0;
  std::vector<unsigned> before_; // original order: the pressure before each statement
  RangeMax duringMax_;           // original order: the pressure during statements [a, b]
};

// Blocks up to this many statements are also scheduled within their own
// peak, to see whether the registers the occupancy budget allows buy time.
constexpr size_t kCompareOrdersUpTo = 2000, kCompareOrdersInKernelsUpTo = 20000;

// The estimated pressure a block may reach: the most VGPRs that keep the
// waves per SIMD of the kernel's estimated peak, under `maxVgprs`.
unsigned occupancyBudget(const ScheduleLimits &limits, unsigned kernelPeak) {
  if (!limits.target)
    return 0;
  const unsigned waves = targets::occupancy(*limits.target, kernelPeak + kScheduleMarginVgprs, 0, 0).wavesPerSimd;
  unsigned most = targets::vgprsForWaves(*limits.target, waves, 0);
  if (limits.maxVgprs)
    most = std::min(most, limits.maxVgprs);
  return most > kScheduleMarginVgprs ? most - kScheduleMarginVgprs : 0;
}

} // namespace

std::vector<unsigned> scheduleOrder(const Kernel &k, const ScheduleLimits &limits, unsigned *estimatedPeak,
                                    const KernelAnalyses *analyses) {
  const size_t n = k.body.size();
  std::vector<unsigned> result(n);
  for (size_t i = 0; i < n; ++i)
    result[i] = static_cast<unsigned>(i);
  if (n < 3)
    return result;
  std::optional<KernelAnalyses> own;
  if (!analyses)
    analyses = &own.emplace(k);
  const ControlFlowGraph &g = analyses->cfg;
  const RegisterLiveness &live = analyses->live;
  std::vector<unsigned> idOfBit; // a liveness bit's register in `use`
  const RegisterUse use = registerUse(k, live.numbering, analyses->widths, limits.scalarRegisters, limits.homeWords, idOfBit);
  const std::vector<llvm::SparseBitVector<>> &liveOut = live.liveOut;
  RegisterExtent extent{std::vector<unsigned>(use.units.size(), ~0u), std::vector<unsigned>(use.units.size(), 0)};
  auto mark = [&](unsigned r, unsigned b) {
    extent.firstBlock[r] = std::min(extent.firstBlock[r], b);
    extent.lastBlock[r] = std::max(extent.lastBlock[r], b);
  };
  for (size_t i = 0; i < n; ++i) {
    for (unsigned r : use.reads[i])
      mark(r, g.blockOf[i]);
    for (unsigned r : use.writes[i])
      mark(r, g.blockOf[i]);
  }
  for (unsigned b = 0; b < g.numBlocks; ++b)
    for (const llvm::SparseBitVector<> *set : {&live.liveIn[b], &liveOut[b]})
      for (unsigned bit : *set)
        if (idOfBit[bit] != ~0u)
          mark(idOfBit[bit], b);
  const Timing timing = timingFor(limits.target);
  std::vector<std::unique_ptr<BlockSchedule>> blocks(g.numBlocks);
  std::vector<unsigned> blockPeak(g.numBlocks, 0);
  unsigned kernelPeak = 0;
  for (unsigned b = 0; b < g.numBlocks; ++b) {
    const size_t first = g.blockStart[b], end = g.blockEnd(b);
    if (end - first < 2)
      continue;
    blocks[b] = std::make_unique<BlockSchedule>(k, use, extent, b, first, end, live.liveIn[b], liveOut[b], idOfBit,
                                                timing);
    blockPeak[b] = blocks[b]->originalPeak();
    kernelPeak = std::max(kernelPeak, blockPeak[b]);
  }
  if (estimatedPeak)
    *estimatedPeak = kernelPeak;
  const unsigned budget = occupancyBudget(limits, kernelPeak);
  for (unsigned b = 0; b < g.numBlocks; ++b) {
    if (!blocks[b])
      continue;
    const size_t first = g.blockStart[b];
    // A block's own peak as written bounds it, or the occupancy budget if
    // higher: the estimate leaves out what is the same in every order
    // (temporaries within a statement), so the two compare like with like.
    // Registers beyond the block's own peak are spent only where the model
    // finishes the block more than 1% sooner with them (its resolution):
    // siphash's loop took 2 VGPRs more (26 -> 28) for 0.1% fewer cycles.
    // (Not on blocks of thousands of statements nor in kernels of tens of
    // thousands, inlined code, where scheduling twice cost 13% of KeyHunt's
    // translation and found 2 VGPRs more, not fewer.)
    uint64_t finish = 0;
    std::vector<unsigned> order = blocks[b]->schedule(std::max(blockPeak[b], budget), limits.maxHomeWords, &finish);
    if (budget > blockPeak[b] && order.size() <= kCompareOrdersUpTo && n <= kCompareOrdersInKernelsUpTo) {
      uint64_t ownFinish = 0;
      std::vector<unsigned> own = blocks[b]->schedule(blockPeak[b], limits.maxHomeWords, &ownFinish);
      if (ownFinish * 100 <= finish * 101)
        order = std::move(own);
    }
    blocks[b].reset(); // (memory: one block's graph at a time from here)
    for (size_t j = 0; j < order.size(); ++j)
      result[first + j] = static_cast<unsigned>(first + order[j]);
  }
  return result;
}

namespace {

// Position i takes what was at from[i], in place: each cycle of the
// permutation moves its statements along by one (a second body of default
// statements would be 600 bytes a statement).
void permute(Kernel &k, const std::vector<unsigned> &from) {
  const size_t n = k.body.size();
  if (k.sourceIndex.empty()) {
    k.sourceIndex.resize(n);
    for (size_t i = 0; i < n; ++i)
      k.sourceIndex[i] = static_cast<unsigned>(i);
  }
  std::vector<bool> placed(n, false);
  for (size_t start = 0; start < n; ++start) {
    if (placed[start] || from[start] == start)
      continue;
    Stmt held = std::move(k.body[start]);
    const unsigned heldSource = k.sourceIndex[start];
    size_t j = start;
    while (from[j] != start) {
      k.body[j] = std::move(k.body[from[j]]);
      k.sourceIndex[j] = k.sourceIndex[from[j]];
      placed[j] = true;
      j = from[j];
    }
    k.body[j] = std::move(held);
    k.sourceIndex[j] = heldSource;
    placed[j] = true;
  }
}

} // namespace

void reorderStatements(Kernel &k, const std::vector<unsigned> &order) { permute(k, order); }

void restoreOrder(Kernel &k, const std::vector<unsigned> &order) {
  std::vector<unsigned> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    inverse[order[i]] = static_cast<unsigned>(i);
  permute(k, inverse);
  // (a body that had no sourceIndex is back in its own order)
  bool identity = true;
  for (size_t i = 0; i < k.sourceIndex.size() && identity; ++i)
    identity = k.sourceIndex[i] == i;
  if (identity)
    k.sourceIndex.clear();
}

Kernel scheduleStatements(const Kernel &k, const ScheduleLimits &limits, unsigned *estimatedPeak) {
  Kernel out = k;
  reorderStatements(out, scheduleOrder(k, limits, estimatedPeak));
  return out;
}

} // namespace p2a::kernel
