#include "validation/ptx_interpreter.hpp"

#include "semantics/bitvec.hpp"
#include "semantics/ptx_semantics.hpp"

#include <llvm/ADT/DenseMap.h>

#include <algorithm>
#include <unordered_map>

namespace p2a::interp {

using kernel::Space;
using kernel::Special;
using kernel::Stmt;
using sem::BV;

namespace {

// Generic addresses of shared and local memory live in windows of the flat
// space (PTX ISA 6.4.1 "generic addressing"); cvta converts by adding or
// subtracting the window base. The windows are the emulator's apertures
// (memory.hpp).
constexpr uint64_t kSharedWindow = kSharedAperture;
constexpr uint64_t kLocalWindow = kPrivateAperture;
constexpr uint64_t kWindowSize = kApertureSize;

struct Thread {
  std::vector<uint64_t> regs;
  std::vector<bool> defined;
  std::vector<uint8_t> local;
  unsigned pc = 0;
  bool done = false;
  bool atBarrier = false;
  bool atWarpSync = false; // waiting at shfl.sync / vote.sync (t.pc) for its warp
  uint64_t steps = 0;
  unsigned tid[3] = {0, 0, 0};
  unsigned linear = 0; // within the block
};

// Who last stored a byte of shared memory, and which warps read it, since
// the block's last barrier (Options::sharedRace).
struct SharedAccess {
  uint32_t writerPlus1 = 0; // block-linear thread id + 1; 0: none yet
  uint32_t writeEpoch = 0, writeStmt = 0;
  uint32_t readEpoch = 0, readStmt = 0;
  uint32_t reader = 0;      // block-linear thread id of a reader
  uint32_t readerWarps = 0; // bit w: a thread of warp w read it in readEpoch
};

class Interpreter {
public:
  Interpreter(const kernel::Kernel &k, const Launch &l, GlobalMemory &mem, const Options &o)
      : k_(k), l_(l), mem_(mem), o_(o) {
    k.registers.forEach([&](const std::string &name, const ptx::RegisterType &) { slot(name); });
    const kernel::SegmentLayout shared = kernel::layoutSegment(k, Space::Shared);
    const kernel::SegmentLayout local = kernel::layoutSegment(k, Space::Local);
    sharedOffset_ = shared.offset;
    localOffset_ = local.offset;
    for (const kernel::Variable &v : k.variables) {
      if (v.space == Space::Shared || v.space == Space::Local) {
        continue;
      } else if (const GlobalMemory::Buffer *b = mem.byName(v.name)) {
        globalAddr_[v.name] = b->base;
      } else {
        std::vector<uint8_t> init = v.init;
        init.resize(v.size, 0);
        globalAddr_[v.name] = mem.add(v.name, std::move(init));
      }
    }
    // A kernel that takes a parameter's address reads the parameter block
    // through it (ld.param [%rd]): the block is memory then, as the
    // kernarg segment is on the GPU.
    for (const Stmt &s : k.body)
      if (s.kind == Stmt::Kind::AddressOf && k.param(s.extra().symbol) && !paramBase_)
        paramBase_ = mem.add("kernel parameters", l.params);
    // Addresses in initializers, once every variable has one.
    for (const kernel::Variable &v : k.variables)
      for (const kernel::Variable::Address &a : v.addresses) {
        auto to = globalAddr_.find(a.symbol), at = globalAddr_.find(v.name);
        if (to == globalAddr_.end() || at == globalAddr_.end())
          continue;
        if (uint8_t *p = mem.find(at->second + a.offset, 8))
          storeLE(p, 8, to->second + static_cast<uint64_t>(a.addend));
      }
    sharedBytes_ = shared.bytes;
    localBytes_ = local.bytes;
  }

  std::optional<Fault> run() {
    for (unsigned bz = 0; bz < l_.grid.z; ++bz)
      for (unsigned by = 0; by < l_.grid.y; ++by)
        for (unsigned bx = 0; bx < l_.grid.x; ++bx) {
          ctaid_[0] = bx;
          ctaid_[1] = by;
          ctaid_[2] = bz;
          if (std::optional<Fault> f = runBlock())
            return f;
          if (o_.afterBlock)
            o_.afterBlock(blockLinear_ + 1);
        }
    return std::nullopt;
  }

private:
  unsigned slot(const std::string &name) {
    // Nearly every name read is one of the kernel's own strings, read again
    // and again from the same place: its address finds the slot without
    // hashing the text (checked against the slot's name, since a temporary
    // may take an address another name had). (The recorded hardware
    // kernels' interpreter test: 1.38 -> 1.19 s.)
    if (auto known = slotAt_.find(&name); known != slotAt_.end() && *slotName_[known->second] == name)
      return known->second;
    auto [it, inserted] = slots_.try_emplace(name, static_cast<unsigned>(slots_.size()));
    if (inserted) {
      slotMask_.push_back(sem::maskOf(width(name)));
      slotName_.push_back(&it->first); // (an unordered_map's keys stay where they are)
    }
    slotAt_[&name] = it->second;
    return it->second;
  }
  unsigned width(const std::string &name) const {
    const ptx::RegisterType *declared = k_.registers.find(name);
    return declared ? declared->width : 64;
  }

  std::optional<Fault> runBlock() {
    shared_.assign(sharedBytes_ + l_.dynamicSharedBytes, 0);
    if (o_.sharedRace)
      sharedAccess_.assign(shared_.size(), SharedAccess{});
    std::vector<Thread> threads(l_.block.count());
    unsigned n = 0;
    for (unsigned z = 0; z < l_.block.z; ++z)
      for (unsigned y = 0; y < l_.block.y; ++y)
        for (unsigned x = 0; x < l_.block.x; ++x) {
          Thread &t = threads[n];
          t.tid[0] = x;
          t.tid[1] = y;
          t.tid[2] = z;
          t.linear = n++;
          t.regs.assign(slots_.size(), 0);
          t.defined.assign(slots_.size(), false);
          t.local.assign(localBytes_, 0);
        }
    blockLinear_ = (uint64_t(ctaid_[2]) * l_.grid.y + ctaid_[1]) * l_.grid.x + ctaid_[0];
    barrierEpoch_ = 0;
    const uint64_t blockLinear = blockLinear_;
    for (;;) {
      // Each warp in turn runs until its threads finish or wait; within a
      // warp the threads take turns, each up to its next access another
      // thread can see (stepThread), so a converged warp runs in lockstep as
      // NVIDIA's do. Code written for lockstep warps
      // (a load of what a neighbouring lane stored, with no __syncwarp)
      // gets the value it gets on hardware. Any order is a valid PTX
      // execution; this one is also the one such code was tested on.
      for (size_t w0 = 0; w0 < threads.size(); w0 += 32)
        for (bool moved = true; moved;) {
          moved = false;
          for (size_t i = w0; i < std::min(threads.size(), w0 + 32); ++i) {
            Thread &t = threads[i];
            if (t.done || t.atBarrier || t.atWarpSync)
              continue;
            traced_ = o_.trace && blockLinear * l_.block.count() + t.linear == o_.traceThread;
            if (std::optional<Fault> f = stepThread(t))
              return f;
            moved = true;
          }
        }
      bool anyLive = false, anyWarpSync = false;
      for (Thread &t : threads) {
        anyLive |= !t.done;
        anyWarpSync |= t.atWarpSync;
      }
      // Warp-synchronous statements first: their threads go on running; a
      // barrier opens only when nothing else can move.
      if (anyWarpSync) {
        if (std::optional<Fault> f = resolveWarpSyncs(threads))
          return f;
        continue;
      }
      if (!anyLive)
        return std::nullopt;
      // Every live thread waits at the barrier: release them all, with
      // bar.red's result over them.
      if (std::optional<Fault> f = reduceAtBarrier(threads))
        return f;
      for (Thread &t : threads)
        t.atBarrier = false;
      ++barrierEpoch_;
    }
  }

  Fault fault(const Stmt &s, std::string msg) { return Fault{std::move(msg), s.loc}; }

  // bar.red (PTX ISA 9.7.13.1): the count of the waiting threads' true
  // predicates, or whether all / any is true, into each one's destination.
  std::optional<Fault> reduceAtBarrier(std::vector<Thread> &threads) {
    uint64_t count = 0, waiting = 0;
    const Stmt *red = nullptr;
    std::optional<Fault> f;
    for (Thread &t : threads) {
      if (!t.atBarrier)
        continue;
      const Stmt &s = k_.body[t.pc - 1];
      if (s.barrierReduce == Stmt::BarrierReduce::None)
        continue;
      if (red && red != &s)
        return fault(s, "threads of one block wait at two different bar.red statements (undefined in PTX)");
      red = &s;
      std::optional<BV> p = read(t, s.extra().srcs[0], 1, s, f);
      if (!p)
        return f;
      ++waiting;
      count += (p->value() != 0) != s.srcNegated ? 1 : 0;
    }
    if (!red)
      return std::nullopt;
    const uint64_t value = red->barrierReduce == Stmt::BarrierReduce::Popc  ? count
                           : red->barrierReduce == Stmt::BarrierReduce::And ? (count == waiting ? 1 : 0)
                                                                            : (count != 0 ? 1 : 0);
    for (Thread &t : threads)
      if (t.atBarrier)
        write(t, red->extra().dst, value);
    return std::nullopt;
  }

  // A trap's report; for CUDA's assert (__assertfail's arguments in srcs)
  // its message, file, line and function as the CUDA runtime prints them,
  // where the thread's registers and memory hold them.
  std::string trapMessage(Thread &t, const Stmt &s) {
    const std::string who = "thread " + std::to_string(t.linear) + " of block " + std::to_string(blockLinear_);
    if (s.extra().srcs.size() != 4)
      return "the kernel executes trap (" + who + "): it aborts, and the launch fails";
    auto value = [&](const ptx::Operand &o) -> std::optional<uint64_t> {
      const unsigned i = slot(o.reg);
      if (i >= t.defined.size() || !t.defined[i])
        return std::nullopt;
      return t.regs[i];
    };
    auto text = [&](const ptx::Operand &o) {
      std::string r;
      if (std::optional<uint64_t> a = value(o))
        for (uint64_t p = *a; r.size() < 200; ++p) {
          const uint8_t *c = mem_.find(p, 1);
          if (!c || !*c)
            break;
          r += static_cast<char>(*c);
        }
      return r.empty() ? std::string("?") : r;
    };
    const std::optional<uint64_t> line = value(s.extra().srcs[2]);
    return "assertion failed (" + who + "): " + text(s.extra().srcs[1]) + ":" + (line ? std::to_string(uint32_t(*line)) : "?") +
           ": " + text(s.extra().srcs[3]) + ": Assertion `" + text(s.extra().srcs[0]) + "' failed; the kernel aborts, and the launch fails";
  }

  // ---- warp-synchronous statements (shfl.sync, vote.sync, bar.warp.sync) ----
  //
  // A thread reaching one waits there (atWarpSync). When no thread can run,
  // each warp's waiting threads are grouped by statement; a group executes
  // once every thread its members' membermasks name is in it or has exited
  // (PTX ISA 9.7.9.6, 9.7.13.9: the non-exited threads of membermask all
  // execute the same .sync instruction), reading every source before any
  // thread writes. A membermask naming a lane past the block's last thread
  // names nobody. No group ready while threads wait is a deadlock on
  // NVIDIA hardware: a fault naming both sides.
  std::optional<Fault> resolveWarpSyncs(std::vector<Thread> &threads) {
    const unsigned n = static_cast<unsigned>(threads.size());
    bool progress = false;
    std::optional<Fault> blocked;
    for (unsigned w0 = 0; w0 < n; w0 += 32) {
      const unsigned lanes = std::min(32u, n - w0);
      std::vector<bool> handled(lanes, false);
      for (unsigned l = 0; l < lanes; ++l) {
        Thread &t = threads[w0 + l];
        if (!t.atWarpSync || handled[l])
          continue;
        uint32_t group = 0;
        for (unsigned j = 0; j < lanes; ++j)
          if (threads[w0 + j].atWarpSync && threads[w0 + j].pc == t.pc) {
            group |= 1u << j;
            handled[j] = true;
          }
        const Stmt &s = k_.body[t.pc];
        std::vector<uint32_t> masks(lanes, 0);
        std::optional<Fault> waiting;
        // activemask: the lanes here together, waiting for nobody.
        const bool active = s.kind == Stmt::Kind::WarpVote && s.voteMode == Stmt::VoteMode::Active;
        for (unsigned j = 0; j < lanes && !waiting; ++j) {
          if (!((group >> j) & 1))
            continue;
          if (active) {
            masks[j] = group;
            continue;
          }
          std::optional<Fault> f;
          std::optional<BV> m = read(threads[w0 + j], s.extra().srcs.back(), 32, s, f);
          if (!m)
            return f;
          masks[j] = static_cast<uint32_t>(m->value());
          if (!((masks[j] >> j) & 1))
            return fault(s, "thread " + std::to_string(threads[w0 + j].linear) +
                                " is not in its own membermask (undefined in PTX)");
          for (unsigned k = 0; k < lanes && !waiting; ++k) {
            const Thread &o = threads[w0 + k];
            if (!((masks[j] >> k) & 1) || ((group >> k) & 1) || o.done)
              continue;
            waiting = fault(s, "thread " + std::to_string(threads[w0 + j].linear) + " waits here for thread " +
                                   std::to_string(o.linear) + ", which " +
                                   (o.atWarpSync ? "waits at line " + std::to_string(k_.body[o.pc].loc.line)
                                                 : std::string("waits at a barrier")) +
                                   ": a deadlock on NVIDIA hardware");
          }
        }
        if (waiting) {
          if (!blocked)
            blocked = waiting;
          continue;
        }
        if (std::optional<Fault> f = executeWarpSync(s, threads, w0, lanes, group, masks))
          return f;
        progress = true;
      }
    }
    if (!progress && blocked)
      return blocked;
    return std::nullopt;
  }

  // Runs warp statement s for the threads in `group` (lanes of the warp at w0).
  std::optional<Fault> executeWarpSync(const Stmt &s, std::vector<Thread> &threads, unsigned w0, unsigned lanes,
                                       uint32_t group, const std::vector<uint32_t> &masks) {
    std::optional<Fault> f;
    std::vector<uint64_t> value(lanes, 0), pred(lanes, 0);
    if (s.kind == Stmt::Kind::WarpShuffle) {
      std::vector<uint32_t> a(lanes, 0);
      for (unsigned j = 0; j < lanes; ++j)
        if ((group >> j) & 1) {
          std::optional<BV> v = read(threads[w0 + j], s.extra().srcs[0], 32, s, f);
          if (!v)
            return f;
          a[j] = static_cast<uint32_t>(v->value());
        }
      for (unsigned j = 0; j < lanes; ++j) {
        if (!((group >> j) & 1))
          continue;
        std::optional<BV> b = read(threads[w0 + j], s.extra().srcs[1], 32, s, f);
        std::optional<BV> c = b ? read(threads[w0 + j], s.extra().srcs[2], 32, s, f) : std::nullopt;
        if (!c)
          return f;
        // PTX ISA 9.7.9.6 shfl.sync, "Semantics".
        const int32_t lane = int32_t(j), bval = int32_t(b->value() & 31), cval = int32_t(c->value() & 31);
        const int32_t segmask = int32_t((c->value() >> 8) & 31);
        const int32_t maxLane = (lane & segmask) | (cval & ~segmask), minLane = lane & segmask;
        int32_t src = lane;
        bool pval = false;
        switch (s.shuffleMode) {
        case Stmt::ShuffleMode::Up: src = lane - bval; pval = src >= maxLane; break;
        case Stmt::ShuffleMode::Down: src = lane + bval; pval = src <= maxLane; break;
        case Stmt::ShuffleMode::Bfly: src = lane ^ bval; pval = src <= maxLane; break;
        case Stmt::ShuffleMode::Idx: src = minLane | (bval & ~segmask); pval = src <= maxLane; break;
        }
        if (!pval)
          src = lane;
        if (!((group >> src) & 1))
          return fault(s, "thread " + std::to_string(threads[w0 + j].linear) + " reads lane " + std::to_string(src) +
                              ", which does not execute this shfl.sync (its value is undefined in PTX)");
        value[j] = a[unsigned(src)];
        pred[j] = pval;
      }
    } else if (s.kind == Stmt::Kind::WarpCombine) {
      // PTX ISA 9.7.13.11 redux.sync, 9.7.13.8 match.sync: over the lanes of
      // the lane's membermask that execute the statement.
      const unsigned bits = s.elemBits;
      std::vector<uint64_t> a(lanes, 0);
      for (unsigned j = 0; j < lanes; ++j)
        if ((group >> j) & 1) {
          std::optional<BV> v = read(threads[w0 + j], s.extra().srcs[0], bits, s, f);
          if (!v)
            return f;
          a[j] = v->value();
        }
      for (unsigned j = 0; j < lanes; ++j) {
        if (!((group >> j) & 1))
          continue;
        const uint32_t members = masks[j] & group;
        if (s.combineMode == Stmt::CombineMode::Redux) {
          const bool sgn = s.elemType == ptx::TypeClass::S;
          uint32_t acc = 0;
          bool first = true;
          for (unsigned k = 0; k < lanes; ++k) {
            if (!((members >> k) & 1))
              continue;
            const uint32_t x = static_cast<uint32_t>(a[k]);
            if (first) {
              acc = x;
              first = false;
              continue;
            }
            switch (s.atomicOp) {
            case Stmt::AtomicOp::Add: acc += x; break;
            case Stmt::AtomicOp::And: acc &= x; break;
            case Stmt::AtomicOp::Or: acc |= x; break;
            case Stmt::AtomicOp::Xor: acc ^= x; break;
            case Stmt::AtomicOp::Min:
              acc = sgn ? uint32_t(std::min(int32_t(acc), int32_t(x))) : std::min(acc, x);
              break;
            case Stmt::AtomicOp::Max:
              acc = sgn ? uint32_t(std::max(int32_t(acc), int32_t(x))) : std::max(acc, x);
              break;
            default: return fault(s, "internal error: a reduction the interpreter does not know");
            }
          }
          value[j] = acc;
        } else {
          uint32_t same = 0;
          for (unsigned k = 0; k < lanes; ++k)
            if (((members >> k) & 1) && a[k] == a[j])
              same |= 1u << k;
          if (s.combineMode == Stmt::CombineMode::MatchAny) {
            value[j] = same;
          } else {
            pred[j] = same == members;
            value[j] = same == members ? members : 0;
          }
        }
      }
    } else if (s.kind == Stmt::Kind::WarpVote) {
      uint32_t ballot = 0;
      for (unsigned j = 0; j < lanes; ++j)
        if (s.voteMode == Stmt::VoteMode::Active) {
          ballot = group;
          break;
        } else if ((group >> j) & 1) {
          std::optional<BV> v = read(threads[w0 + j], s.extra().srcs[0], 1, s, f);
          if (!v)
            return f;
          if ((v->value() != 0) != s.srcNegated)
            ballot |= 1u << j;
        }
      for (unsigned j = 0; j < lanes; ++j) {
        if (!((group >> j) & 1))
          continue;
        const uint32_t members = masks[j] & group, yes = ballot & members;
        switch (s.voteMode) {
        case Stmt::VoteMode::All: value[j] = yes == members; break;
        case Stmt::VoteMode::Any: value[j] = yes != 0; break;
        case Stmt::VoteMode::Uni: value[j] = yes == members || yes == 0; break;
        case Stmt::VoteMode::Ballot:
        case Stmt::VoteMode::Active: value[j] = yes; break;
        }
      }
    }
    for (unsigned j = 0; j < lanes; ++j) {
      if (!((group >> j) & 1))
        continue;
      Thread &t = threads[w0 + j];
      if (!s.extra().dst.empty())
        write(t, s.extra().dst, value[j]);
      if (!s.extra().predDst.empty())
        write(t, s.extra().predDst, pred[j]);
      t.atWarpSync = false;
      const unsigned index = t.pc++;
      traced_ = o_.trace && blockLinear_ * l_.block.count() + t.linear == o_.traceThread;
      traceWrite(t, index, s);
    }
    return std::nullopt;
  }

  // Reads a source operand as `w` bits.
  std::optional<BV> read(Thread &t, const ptx::Operand &o, unsigned w, const Stmt &s, std::optional<Fault> &f) {
    if (o.isImm())
      return BV::constant(w, o.imm & sem::maskOf(w));
    const unsigned i = slot(o.reg);
    if (i >= t.regs.size()) {
      t.regs.resize(slots_.size(), 0);
      t.defined.resize(slots_.size(), false);
    }
    if (!t.defined[i]) {
      f = fault(s, "reads " + o.reg + " before any instruction wrote it");
      return std::nullopt;
    }
    return BV::constant(w, t.regs[i] & sem::maskOf(w));
  }
  void write(Thread &t, const std::string &reg, uint64_t v) {
    const unsigned i = slot(reg);
    if (i >= t.regs.size()) {
      t.regs.resize(slots_.size(), 0);
      t.defined.resize(slots_.size(), false);
    }
    t.regs[i] = v & slotMask_[i];
    t.defined[i] = true;
  }

  // An access to a local array kept in registers (a rewritten kernel's;
  // decoded kernels have none): the dword the offset picks, and only it,
  // is read or written.
  bool runArrayAccess(Thread &t, const Stmt &s, std::optional<Fault> &f) {
    auto named = [](const std::string &r) {
      ptx::Operand o;
      o.reg = r;
      return o;
    };
    int64_t at = s.offset;
    if (!s.extra().base.empty()) {
      const unsigned w = width(s.extra().base);
      std::optional<BV> o = read(t, named(s.extra().base), w, s, f);
      if (!o)
        return false;
      // (An index register of either width, wrapping like an address: a
      // 32-bit one narrowed from nvcc's mul.wide.s32 may be negative.)
      at = int64_t(uint64_t(at) + (w < 64 ? uint64_t(o->sext(64).value()) : o->value()));
    }
    const size_t parts = s.elemBits == 64 ? 2 : 1;
    if (at < 0 || at % 4 || size_t(at / 4) + s.extra().values.size() * parts > s.extra().elements.size()) {
      f = fault(s, "'" + s.text + "' is outside its array's " + std::to_string(s.extra().elements.size()) + " dwords");
      return false;
    }
    size_t e = size_t(at / 4);
    for (const ptx::Operand &v : s.extra().values) {
      if (s.kind == Stmt::Kind::ArrayLoad) {
        uint64_t value = 0;
        for (size_t p = 0; p < parts; ++p) {
          std::optional<BV> x = read(t, named(s.extra().elements[e + p]), 32, s, f);
          if (!x)
            return false;
          value |= x->value() << (32 * p);
        }
        write(t, v.reg, value);
      } else {
        std::optional<BV> x = read(t, v, v.isReg() ? width(v.reg) : 64, s, f);
        if (!x)
          return false;
        for (size_t p = 0; p < parts; ++p)
          write(t, s.extra().elements[e + p], x->value() >> (32 * p));
      }
      e += parts;
    }
    return true;
  }

  // Resolves s's [base+offset] in `space` to bytes, or a fault message
  // (`offset`: s's, or one of its vector elements').
  uint8_t *address(Thread &t, const Stmt &s, int64_t offset, unsigned bytes, std::string &why) {
    Space space = s.space;
    uint64_t addr = 0;
    if (s.baseIsSymbol) {
      if (const kernel::Param *p = k_.param(s.extra().base)) {
        if (space != Space::Param) {
          why = "parameter '" + s.extra().base + "' used as an address outside ld.param";
          return nullptr;
        }
        const int64_t off = int64_t(p->offset) + offset;
        if (off < 0 || uint64_t(off) + bytes > l_.params.size()) {
          why = "ld.param outside the parameter block";
          return nullptr;
        }
        return const_cast<uint8_t *>(l_.params.data()) + off;
      }
      if (auto it = sharedOffset_.find(s.extra().base); it != sharedOffset_.end()) {
        addr = kSharedWindow + it->second + offset;
        if (space == Space::Shared)
          addr = it->second + offset;
      } else if (auto it2 = localOffset_.find(s.extra().base); it2 != localOffset_.end()) {
        addr = kLocalWindow + it2->second + offset;
        if (space == Space::Local)
          addr = it2->second + offset;
      } else {
        addr = globalAddr_.at(s.extra().base) + offset;
      }
    } else {
      std::optional<Fault> f;
      ptx::Operand o;
      o.reg = s.extra().base;
      std::optional<BV> b = read(t, o, 64, s, f);
      if (!b) {
        why = f->message;
        return nullptr;
      }
      addr = b->value() + offset;
      if (space == Space::Param) // through a parameter's address: the block in memory
        space = Space::Global;
    }
    if (space == Space::Generic) {
      if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize) {
        space = Space::Shared;
        addr -= kSharedWindow;
      } else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize) {
        space = Space::Local;
        addr -= kLocalWindow;
      } else {
        space = Space::Global;
      }
    }
    auto inside = [&](std::vector<uint8_t> &mem, const char *name) -> uint8_t * {
      if (addr + bytes <= mem.size() && addr + bytes >= addr)
        return mem.data() + addr;
      why = std::string(name) + " access of " + std::to_string(bytes) + " bytes at offset " + std::to_string(addr) +
            " outside the " + std::to_string(mem.size()) + "-byte " + name + " memory";
      return nullptr;
    };
    if (space == Space::Shared)
      return inside(shared_, "shared");
    if (space == Space::Local)
      return inside(t.local, "local");
    if (space == Space::Param) {
      why = "ld.param with a register address";
      return nullptr;
    }
    if (uint8_t *p = mem_.find(addr, bytes))
      return p;
    char buf[40];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
    why = std::string(kernel::spaceName(space)) + " access of " + std::to_string(bytes) + " bytes at " + buf +
          " is out of bounds (" + mem_.describe(addr) + ")";
    oob_ = true;
    oobAddress_ = addr;
    oobBytes_ = bytes;
    return nullptr;
  }

  uint32_t specialValue(const Thread &t, Special sp, unsigned dim) const {
    const unsigned blockDim[3] = {l_.block.x, l_.block.y, l_.block.z};
    const unsigned gridDim[3] = {l_.grid.x, l_.grid.y, l_.grid.z};
    switch (sp) {
    case Special::Tid: return t.tid[dim];
    case Special::Ntid: return blockDim[dim];
    case Special::Ctaid: return ctaid_[dim];
    case Special::Nctaid: return gridDim[dim];
    case Special::Laneid: return t.linear % 32;
    case Special::Warpid: return t.linear / 32;
    case Special::Nwarpid: return static_cast<uint32_t>((l_.block.count() + 31) / 32);
    case Special::WarpSize: return 32;
    // PTX ISA 10.x %lanemask_*: bits of the lanes before/at/after this one.
    case Special::LanemaskEq: return 1u << (t.linear % 32);
    case Special::LanemaskLt: return (1u << (t.linear % 32)) - 1;
    case Special::LanemaskLe: return ((1u << (t.linear % 32)) - 1) | (1u << (t.linear % 32));
    case Special::LanemaskGe: return ~((1u << (t.linear % 32)) - 1);
    case Special::LanemaskGt: return ~(((1u << (t.linear % 32)) - 1) | (1u << (t.linear % 32)));
    }
    return 0;
  }

  void traceWrite(const Thread &t, unsigned stmtIndex, const Stmt &s) {
    if (!traced_)
      return;
    TraceEvent e;
    e.stmt = stmtIndex;
    for (const std::string &r : kernel::writtenRegisters(s))
      e.values.push_back(t.regs[slots_.at(r)]);
    o_.trace->push_back(std::move(e));
  }

  // The bytes statement `s` accesses at `offset` (its own, or one of its
  // elements'), or null with the fault that stops the thread in `fl`. A
  // write there is recorded for Options::lastWriter (check names the thread
  // that last wrote a word).
  uint8_t *memoryAt(Thread &t, const Stmt &s, int64_t offset, unsigned bytes, bool writes, std::optional<Fault> &fl) {
    std::string why;
    oob_ = false;
    uint8_t *p = address(t, s, offset, bytes, why);
    if (!p) {
      fl = fault(s, why);
      fl->outOfBounds = oob_;
      fl->address = oobAddress_;
      fl->bytes = oobBytes_;
      return nullptr;
    }
    if (writes && o_.lastWriter)
      if (const uint8_t *wp = mem_.find(o_.watchAddress, 1); wp && wp >= p && wp < p + bytes)
        *o_.lastWriter = blockLinear_ * l_.block.count() + t.linear;
    if (o_.sharedRace && p >= shared_.data() && p < shared_.data() + shared_.size())
      watchShared(t, s, static_cast<size_t>(p - shared_.data()), bytes, writes);
    return p;
  }

  // Records an access to shared memory, and the first one that races with
  // an earlier access by another warp between the same barriers.
  void watchShared(const Thread &t, const Stmt &s, size_t offset, unsigned bytes, bool writes) {
    const auto stmt = static_cast<uint32_t>(&s - k_.body.data());
    const unsigned warp = t.linear / 32;
    const uint32_t bit = 1u << (warp % 32);
    const uint64_t firstThread = blockLinear_ * l_.block.count();
    for (size_t b = offset; b < offset + bytes; ++b) {
      SharedAccess &a = sharedAccess_[b];
      if (!o_.sharedRace->has_value()) {
        auto race = [&](uint32_t other, uint32_t otherStmt, bool otherStores) {
          *o_.sharedRace = SharedRace{firstThread + other, firstThread + t.linear, otherStmt, stmt, otherStores,
                                      writes, b};
        };
        if (a.writerPlus1 != 0 && a.writeEpoch == barrierEpoch_ && (a.writerPlus1 - 1) / 32 != warp)
          race(a.writerPlus1 - 1, a.writeStmt, true);
        else if (writes && a.readEpoch == barrierEpoch_ && (a.readerWarps & ~bit) != 0)
          race(a.reader, a.readStmt, false);
      }
      if (writes) {
        a.writerPlus1 = t.linear + 1;
        a.writeEpoch = barrierEpoch_;
        a.writeStmt = stmt;
        continue;
      }
      if (a.readEpoch != barrierEpoch_ || a.readerWarps == 0) {
        a.readEpoch = barrierEpoch_;
        a.readerWarps = 0;
      }
      if ((a.readerWarps & ~bit) == 0) { // (a reader of another warp is kept for the report)
        a.reader = t.linear;
        a.readStmt = stmt;
      }
      a.readerWarps |= bit;
    }
  }

  // The value an atom/red leaves in memory (PTX ISA 9.7.13.5 atom,
  // "Semantics"): inc wraps to 0 past b, dec to b below 1 or above b.
  static uint64_t atomicResult(const Stmt &s, uint64_t old, const std::vector<uint64_t> &v) {
    const uint64_t mask = s.elemBits == 64 ? ~0ull : (1ull << s.elemBits) - 1;
    const uint64_t b = v.at(0) & mask;
    auto sx = [&](uint64_t x) { return BV::constant(s.elemBits, x).sext(64).value(); };
    const bool sgn = s.elemType == ptx::TypeClass::S;
    auto less = [&](uint64_t x, uint64_t y) { return sgn ? int64_t(sx(x)) < int64_t(sx(y)) : x < y; };
    switch (s.atomicOp) {
    case Stmt::AtomicOp::Add: return (old + b) & mask;
    case Stmt::AtomicOp::Inc: return old >= b ? 0 : (old + 1) & mask;
    case Stmt::AtomicOp::Dec: return old == 0 || old > b ? b : old - 1;
    case Stmt::AtomicOp::Min: return less(b, old) ? b : old;
    case Stmt::AtomicOp::Max: return less(old, b) ? b : old;
    case Stmt::AtomicOp::And: return old & b;
    case Stmt::AtomicOp::Or: return old | b;
    case Stmt::AtomicOp::Xor: return old ^ b;
    case Stmt::AtomicOp::Exch: return b;
    case Stmt::AtomicOp::Cas: return old == b ? v.at(1) & mask : old;
    }
    return old;
  }

  // Runs `t` up to and including its next store, atomic or shared-memory
  // load (memory another thread can see), or until it finishes or waits.
  // Every thread of a converged warp then makes its nth such access before
  // any makes its (n+1)th, as in lockstep, while a thread's own arithmetic
  // and its global loads run without a switch (a switch per statement
  // touches each thread's registers in turn: 20x slower on kernels of 12k
  // registers). A global load can then see a neighbour's later store,
  // which only a racy kernel notices.
  std::optional<Fault> stepThread(Thread &t) {
    std::optional<Fault> f;
    while (!t.done && !t.atBarrier && !t.atWarpSync) {
      if (t.pc >= k_.body.size()) {
        t.done = true; // falling off the end returns (PTX ISA 9.7.12.5)
        break;
      }
      if (++t.steps > o_.stepLimit)
        return fault(k_.body[t.pc], "thread " + std::to_string(t.linear) + " ran " + std::to_string(o_.stepLimit) +
                                        " statements without finishing (an endless loop?)");
      const unsigned index = t.pc;
      const Stmt &s = k_.body[t.pc++];
      if (!s.guard.empty()) {
        ptx::Operand g;
        g.reg = s.guard;
        std::optional<BV> p = read(t, g, 1, s, f);
        if (!p)
          return f;
        if ((p->value() != 0) == s.guardNegated)
          continue;
      }
      switch (s.kind) {
      case Stmt::Kind::Compute: {
        std::vector<BV> srcs;
        srcs.reserve(s.inst.srcs.size()); // (one allocation per statement run, not one per growth)
        for (unsigned i = 0; i < s.inst.srcs.size(); ++i) {
          std::optional<BV> v = read(t, s.inst.srcs[i], s.inst.form.srcWidth(i), s, f);
          if (!v)
            return f;
          srcs.push_back(std::move(*v));
        }
        for (const BV &pre : sem::ptxPreconditions(s.inst.form, srcs))
          if (pre.value() == 0)
            return fault(s, "'" + s.text + "' has undefined behaviour for these operands (PTX ISA precondition)");
        std::vector<BV> out = sem::evalPtx(s.inst.form, srcs);
        for (size_t i = 0; i < out.size(); ++i)
          if (s.inst.dsts[i].isReg())
            write(t, s.inst.dsts[i].reg, out[i].value());
        break;
      }
      case Stmt::Kind::ReadSpecial: write(t, s.extra().dst, specialValue(t, s.special, s.dim)); break;
      case Stmt::Kind::AddressOf: {
        if (auto it = globalAddr_.find(s.extra().symbol); it != globalAddr_.end())
          write(t, s.extra().dst, it->second);
        else if (auto sh = sharedOffset_.find(s.extra().symbol); sh != sharedOffset_.end())
          write(t, s.extra().dst, sh->second); // a shared-window offset, as ld.shared takes it
        else if (auto lo = localOffset_.find(s.extra().symbol); lo != localOffset_.end())
          write(t, s.extra().dst, lo->second);
        else if (const kernel::Param *p = k_.param(s.extra().symbol); p && paramBase_)
          write(t, s.extra().dst, *paramBase_ + p->offset);
        else
          return fault(s, "taking the address of '" + s.extra().symbol + "' is not supported");
        break;
      }
      case Stmt::Kind::Cvta: {
        uint64_t v;
        if (!s.extra().symbol.empty()) {
          auto sh = sharedOffset_.find(s.extra().symbol);
          auto lo = localOffset_.find(s.extra().symbol);
          v = sh != sharedOffset_.end() ? sh->second : lo != localOffset_.end() ? lo->second : globalAddr_.at(s.extra().symbol);
        } else {
          std::optional<BV> a = read(t, s.extra().srcs[0], 64, s, f);
          if (!a)
            return f;
          v = a->value();
        }
        const uint64_t window = s.space == Space::Shared ? kSharedWindow : s.space == Space::Local ? kLocalWindow : 0;
        write(t, s.extra().dst, s.toGeneric ? v + window : v - window);
        break;
      }
      case Stmt::Kind::Load:
      case Stmt::Kind::Store: {
        const unsigned bytes = s.elemBits / 8;
        for (size_t e = 0; e < s.extra().values.size(); ++e) {
          uint8_t *p = memoryAt(t, s, s.offset + int64_t(e * bytes), bytes, s.kind == Stmt::Kind::Store, f);
          if (!p)
            return f;
          if (s.kind == Stmt::Kind::Load) {
            uint64_t v = loadLE(p, bytes);
            if (s.elemType == ptx::TypeClass::S && s.elemBits < 64)
              v = BV::constant(s.elemBits, v).sext(64).value();
            write(t, s.extra().values[e].reg, v);
          } else {
            // The register's own width (or 64 bits for an immediate); the
            // store keeps the low elemBits.
            const unsigned w = s.extra().values[e].isReg() ? width(s.extra().values[e].reg) : 64;
            std::optional<BV> v = read(t, s.extra().values[e], w, s, f);
            if (!v)
              return f;
            storeLE(p, bytes, v->value());
            if (o_.watchedStores)
              if (const uint8_t *wp = mem_.find(o_.watchAddress, 1); wp && wp >= p && wp < p + bytes)
                o_.watchedStores->push_back(
                    {blockLinear_ * l_.block.count() + t.linear, blockLinear_, barrierEpoch_, index, *wp});
          }
        }
        break;
      }
      case Stmt::Kind::Atomic: {
        // Threads run one at a time over one memory, so every atomic is
        // indivisible here.
        const unsigned bytes = s.elemBits / 8;
        uint8_t *p = memoryAt(t, s, s.offset, bytes, true, f);
        if (!p)
          return f;
        std::vector<uint64_t> operands;
        for (const ptx::Operand &o : s.extra().values) {
          std::optional<BV> v = read(t, o, s.elemBits, s, f);
          if (!v)
            return f;
          operands.push_back(v->value());
        }
        const uint64_t old = loadLE(p, bytes);
        storeLE(p, bytes, atomicResult(s, old, operands));
        if (!s.extra().dst.empty())
          write(t, s.extra().dst, old);
        break;
      }
      case Stmt::Kind::WarpShuffle:
      case Stmt::Kind::WarpCombine:
      case Stmt::Kind::WarpVote: // the warp executes it together (resolveWarpSyncs)
      case Stmt::Kind::WarpSync:
        t.atWarpSync = true;
        t.pc = index;
        continue;
      case Stmt::Kind::Branch: t.pc = s.target; break;
      case Stmt::Kind::Barrier: t.atBarrier = true; break;
      case Stmt::Kind::Fence: break; // threads run one at a time over one memory: always ordered
      case Stmt::Kind::Nop: break;
      case Stmt::Kind::ArrayLoad:
      case Stmt::Kind::ArrayStore:
        if (!runArrayAccess(t, s, f))
          return f;
        break;
      case Stmt::Kind::Return: t.done = true; break;
      case Stmt::Kind::Trap: return fault(s, trapMessage(t, s));
      }
      traceWrite(t, index, s);
      if (((s.kind == Stmt::Kind::Store || s.kind == Stmt::Kind::Atomic) && s.space != Space::Local) ||
          (s.kind == Stmt::Kind::Load && (s.space == Space::Shared || s.space == Space::Generic)))
        break;
    }
    return std::nullopt;
  }

  const kernel::Kernel &k_;
  const Launch &l_;
  GlobalMemory &mem_;
  const Options &o_;
  std::unordered_map<std::string, unsigned> slots_;
  std::vector<uint64_t> slotMask_; // per slot: its register's width as a mask
  std::vector<const std::string *> slotName_; // per slot: its name (a key of slots_)
  llvm::DenseMap<const std::string *, unsigned> slotAt_; // a name's address, as last looked up: its slot
  std::map<std::string, unsigned> sharedOffset_, localOffset_;
  std::unordered_map<std::string, uint64_t> globalAddr_;
  std::optional<uint64_t> paramBase_; // the parameter block's address, when a kernel takes one
  unsigned sharedBytes_ = 0, localBytes_ = 0;
  std::vector<uint8_t> shared_;
  std::vector<SharedAccess> sharedAccess_; // per byte of shared_, with Options::sharedRace
  unsigned ctaid_[3] = {0, 0, 0};
  bool traced_ = false;
  uint64_t blockLinear_ = 0;
  unsigned barrierEpoch_ = 0; // barriers the running block has passed
  bool oob_ = false;
  uint64_t oobAddress_ = 0, oobBytes_ = 0;
};

} // namespace

std::optional<Fault> run(const kernel::Kernel &k, const Launch &launch, GlobalMemory &memory, const Options &options) {
  if (launch.params.size() < k.paramBytes)
    return Fault{"the parameter block has " + std::to_string(launch.params.size()) + " bytes; '" + k.name +
                     "' needs " + std::to_string(k.paramBytes),
                 k.loc};
  return Interpreter(k, launch, memory, options).run();
}

} // namespace p2a::interp
