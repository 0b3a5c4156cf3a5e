// Memory waits (s_waitcnt; gfx12 s_wait_*): every outstanding load is waited
// for before its register is read or overwritten, and all of them at block
// boundaries (WAIT_LOADS); every access, stores included, before a barrier
// or fence and cache maintenance (WAIT_ALL).
#include "lowering/code_edits.hpp"
#include "lowering/instruction_facts.hpp"
#include "lowering/passes.hpp"

#include <algorithm>

namespace p2a::klower::wait_insertion {

namespace {

using mir::CodeInst;
using mir::MInst;
using targets::Counter;
using targets::RegUnit;

struct Pending {
  Counter counter;
  targets::RegUnits regs; // registers a load will write
};

class WaitInsertion {
public:
  WaitInsertion(const targets::TargetInfo &t) : t_(t) {}

  // (The waits go into the code in place: code_edits.hpp.)
  void run(std::vector<CodeInst> &code) {
    for (at_ = 0; at_ < code.size(); ++at_) {
      const CodeInst &ci = code[at_];
      stmt_ = ci.stmt;
      switch (ci.mi.op) {
      case amd::Op::WAIT_LOADS:
        waitForLoads();
        edits_.remove(at_);
        break;
      case amd::Op::WAIT_ALL:
        waitForAll();
        edits_.remove(at_);
        break;
      default: emit(ci.mi); break;
      }
    }
    edits_.apply(code);
  }

private:
  void wait(Counter c, unsigned n) {
    edits_.insertBefore(at_, {MInst{amd::Op::S_WAITCNT, mir::noOperand(), {mir::waitOperand(c, n)}}, stmt_});
  }

  // gfx9-11 count SMEM and LDS in one lgkmcnt (SMEM out of order): a wait
  // for zero there covers both. gfx12 has kmcnt and dscnt apart.
  bool lgkmShared() const { return t_.counters != targets::TargetInfo::Counters::Gfx12; }

  void waitForLoads() {
    bool loads = false;
    for (const Pending &p : vmem_)
      loads |= p.counter == Counter::VmLoad;
    if (loads)
      wait(Counter::VmLoad, 0);
    const bool lgkmWait = !smem_.empty() || (lgkmShared() && !lds_.empty());
    const bool dsWait = !lgkmShared() && !lds_.empty();
    if (lgkmWait)
      wait(Counter::Scalar, 0);
    if (dsWait)
      wait(Counter::Lds, 0);
    // (lgkmcnt(0) or gfx12's dscnt(0) covers LDS stores too; gfx12's kmcnt does not.)
    if ((lgkmWait && lgkmShared()) || dsWait)
      ldsStores_ = 0;
    // The loads are done; stores (and atomics without return) are not,
    // unless they share vmcnt with the loads (gfx9) and that was waited for:
    // a barrier or fence later (WAIT_ALL) must still wait for them.
    if (loads && targets::storesShareLoadCounter(t_))
      vmem_.clear();
    else
      std::erase_if(vmem_, [](const Pending &p) { return p.counter == Counter::VmLoad; });
    smem_.clear();
    lds_.clear();
  }

  // Every memory access of the wave completes: loads and stores, global
  // and LDS. An LDS store must land before the barrier that orders it for
  // the other waves (AMDGPUUsage, memory model: a workgroup release waits
  // lgkmcnt(0) "after any preceding local ... store").
  void waitForAll() {
    bool stores = false;
    for (const Pending &p : vmem_)
      stores |= p.counter == Counter::VmStore;
    waitForLoads();
    if (ldsStores_ != 0)
      wait(lgkmShared() ? Counter::Scalar : Counter::Lds, 0);
    ldsStores_ = 0;
    if (stores && !vmem_.empty())
      wait(t_.counters != targets::TargetInfo::Counters::Gfx9 ? Counter::VmStore : Counter::VmLoad, 0);
    vmem_.clear();
  }

  // The waits `mi` needs, before it. VMEM loads return in order, so waiting
  // for the newest conflicting load leaves the later ones in flight (counter
  // value = how many came after it); SMEM loads may return out of order, so
  // those wait for zero.
  void emit(const MInst &mi) {
    llvm::SmallVector<RegUnit, 12> touched = registerUnits(mi.dst);
    for (const mir::MOperand &s : mi.srcs)
      for (const RegUnit &u : registerUnits(s))
        touched.push_back(u);
    const bool shared = targets::storesShareLoadCounter(t_);
    auto conflicts = [&](const Pending &p) {
      for (const RegUnit &r : p.regs)
        if (std::find(touched.begin(), touched.end(), r) != touched.end())
          return true;
      return false;
    };
    // Vector memory: the queue of loads (and, on gfx9, stores) in issue order.
    long newest = -1;
    for (size_t i = 0; i < vmem_.size(); ++i)
      if (vmem_[i].counter == Counter::VmLoad && conflicts(vmem_[i]))
        newest = static_cast<long>(i);
    if (newest >= 0) {
      unsigned after = 0;
      for (size_t i = static_cast<size_t>(newest) + 1; i < vmem_.size(); ++i)
        after += shared || vmem_[i].counter == Counter::VmLoad;
      wait(Counter::VmLoad, after);
      // Everything up to the waited-for load (in its counter) has completed.
      std::vector<Pending> rest;
      for (size_t i = 0; i < vmem_.size(); ++i)
        if (i > static_cast<size_t>(newest) || (!shared && vmem_[i].counter != Counter::VmLoad))
          rest.push_back(vmem_[i]);
      vmem_ = std::move(rest);
    }
    bool scalarConflict = false, ldsConflict = false;
    for (const Pending &p : smem_)
      scalarConflict |= conflicts(p);
    for (const Pending &p : lds_)
      ldsConflict |= conflicts(p);
    if (scalarConflict || (ldsConflict && lgkmShared())) {
      wait(Counter::Scalar, 0);
      smem_.clear();
      if (lgkmShared()) {
        lds_.clear();
        ldsStores_ = 0;
      }
    }
    if (ldsConflict && !lds_.empty()) {
      wait(Counter::Lds, 0);
      lds_.clear();
      ldsStores_ = 0;
    }
    const amd::Op op = mi.op;
    const mir::MOperand dst = mi.dst;
    // (A store, or an atomic without return, writes no register: an
    // atomic that returns its old value counts as a load.)
    const amd::OpDef &def = amd::opDef(op);
    const bool writes = dst.kind != mir::MOperand::Kind::None;
    if (def.encoding == amd::Encoding::VMEM) {
      if (!writes)
        vmem_.push_back({Counter::VmStore, {}});
      else
        vmem_.push_back({Counter::VmLoad, registerUnits(dst)});
      // A FLAT access may reach LDS: it also counts in lgkmcnt (dscnt).
      if (amd::isFlat(op) && writes)
        lds_.push_back({Counter::Lds, registerUnits(dst)});
      else if (amd::isFlat(op))
        ++ldsStores_;
    } else if (def.encoding == amd::Encoding::SMEM) {
      smem_.push_back({Counter::Scalar, registerUnits(dst)});
    } else if (def.encoding == amd::Encoding::DS && writes) {
      lds_.push_back({Counter::Lds, registerUnits(dst)});
    } else if (def.encoding == amd::Encoding::DS) {
      ++ldsStores_;
    }
  }

  const targets::TargetInfo &t_;
  std::vector<Pending> vmem_, smem_, lds_;
  unsigned ldsStores_ = 0; // LDS stores (and atomics without return) not yet waited for
  CodeEdits edits_;
  size_t at_ = 0; // the instruction being read
  int stmt_ = mir::kPrologue;
};

} // namespace

void run(mir::Function &fn, const targets::TargetInfo &t) { WaitInsertion(t).run(fn.code); }

} // namespace p2a::klower::wait_insertion
