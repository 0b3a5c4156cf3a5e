// Emission in program order with memory waits (s_waitcnt / gfx12 s_wait_*):
// each statement's instructions, control-flow pieces, barriers and fences,
// with every outstanding load waited for before its register is touched.
#include "lowering/lowering.hpp"

namespace p2a::klower {

void Lowering::emitBody() {
  out_.statements.resize(k_.body.size());
  for (size_t i = 0; i < k_.body.size(); ++i) {
    const Stmt &s = k_.body[i];
    const mir::LoweredInst &li = fn_.body[i];
    mir::TranslatedInstruction &ti = out_.statements[i];
    ti.ptxText = s.text;
    ti.loc = s.loc;
    ti.rule = li.rule;
    ti.note = s.note; // folded or fused statements (see constant_operands, instruction_fusion)
    if (ti.note.empty() && loweringNote_.count(i))
      ti.note = loweringNote_.at(i);
    ti.cycles = li.rule ? costs_.cost(*li.rule, t_).cycles : 0;
    emitPieces(before_[i], ti.gcn, static_cast<int>(i));
    for (const MInst &mi : li.insts)
      emitWithWaits(mi, ti.gcn, static_cast<int>(i));
    if (s.kind == Stmt::Kind::Barrier)
      barrier(ti.gcn, static_cast<int>(i));
    if (s.kind == Stmt::Kind::Fence)
      fence(s.scope, ti.gcn, static_cast<int>(i));
    emitPieces(after_[i], ti.gcn, static_cast<int>(i));
    // The kernel's last statement, an unguarded ret, ends the program itself.
    if (s.kind == Stmt::Kind::Return && s.guard.empty() && i + 1 == k_.body.size())
      push("s_endpgm", ti.gcn, static_cast<int>(i));
  }
  if (k_.body.empty() || k_.body.back().kind != Stmt::Kind::Return || !k_.body.back().guard.empty()) {
    push("s_endpgm", out_.epilogue, -1); // falling off the end of a kernel returns
  }
}

void Lowering::emitPieces(const std::vector<Piece> &pieces, std::vector<std::string> &lines, int stmt) {
  for (const Piece &p : pieces) {
    switch (p.kind) {
    case Piece::Kind::Inst: emitWithWaits(p.mi, lines, stmt); break;
    case Piece::Kind::Raw: {
      std::string text = p.raw;
      std::vector<unsigned> reads;
      if (!p.args.empty()) {
        const size_t at = text.find("%0");
        text.replace(at, 2, printer::physName(p.args[0], fn_, out_.allocation, t_));
        reads = keys(vregOperand(p.args[0]));
      }
      push(text, lines, stmt, reads);
      break;
    }
    case Piece::Kind::Label:
      labels_[out_.code.size()].push_back(p.raw);
      delays_.blockBoundary(); // (a branch may arrive here from elsewhere)
      openDelay_.reset();
      break;
    case Piece::Kind::Drain: drainWaits(lines, stmt); break;
    }
  }
}

void Lowering::drainWaits(std::vector<std::string> &lines, int stmt) {
  bool loads = false;
  for (const Pending &p : vmem_)
    loads |= p.counter == targets::Counter::VmLoad;
  if (loads)
    push(targets::waitInstruction(targets::Counter::VmLoad, 0, t_), lines, stmt);
  const bool lgkm = t_.counters != targets::TargetInfo::Counters::Gfx12; // SMEM and LDS share lgkmcnt
  if (!smem_.empty() || (lgkm && !lds_.empty()))
    push(targets::waitInstruction(targets::Counter::Scalar, 0, t_), lines, stmt);
  if (!lgkm && !lds_.empty())
    push(targets::waitInstruction(targets::Counter::Lds, 0, t_), lines, stmt);
  vmem_.clear();
  smem_.clear();
  lds_.clear();
}

void Lowering::drainAll(std::vector<std::string> &lines, int stmt) {
  bool stores = false;
  for (const Pending &p : vmem_)
    stores |= p.counter == targets::Counter::VmStore;
  drainWaits(lines, stmt);
  if (stores && t_.counters != targets::TargetInfo::Counters::Gfx9)
    push(targets::waitInstruction(targets::Counter::VmStore, 0, t_), lines, stmt);
  else if (stores)
    push(targets::waitInstruction(targets::Counter::VmLoad, 0, t_), lines, stmt);
}

void Lowering::pushAll(const std::vector<std::string> &seq, std::vector<std::string> &lines, int stmt) {
  for (const std::string &l : seq)
    push(l, lines, stmt);
}

void Lowering::barrier(std::vector<std::string> &lines, int stmt) {
  drainAll(lines, stmt);
  pushAll(targets::releaseSequence(targets::FenceScope::Cta, t_), lines, stmt);
  if (t_.generation >= targets::Generation::GFX12) {
    push("s_barrier_signal -1", lines, stmt);
    push("s_barrier_wait -1", lines, stmt);
  } else {
    push("s_barrier", lines, stmt);
  }
  pushAll(targets::acquireSequence(targets::FenceScope::Cta, t_), lines, stmt);
}

void Lowering::fence(targets::FenceScope scope, std::vector<std::string> &lines, int stmt) {
  drainAll(lines, stmt);
  pushAll(targets::releaseSequence(scope, t_), lines, stmt);
  pushAll(targets::acquireSequence(scope, t_), lines, stmt);
}

std::vector<unsigned> Lowering::keys(const MOperand &o) const {
  std::vector<unsigned> k;
  const mir::Allocation &a = out_.allocation;
  switch (o.kind) {
  case MOperand::Kind::Vcc: k.push_back(2000); break;
  case MOperand::Kind::Phys:
    for (unsigned i = 0; i < o.physCount; ++i)
      k.push_back((o.physSgpr ? 1000 : 0) + o.physIndex + i);
    break;
  case MOperand::Kind::Pair:
    k.push_back(a.phys[o.vreg]);
    k.push_back(a.phys[o.vregHi]);
    break;
  case MOperand::Kind::VReg: {
    const mir::VReg &v = fn_.vregs[o.vreg];
    // (S32/S64 homes are SGPRs: keyed apart from the VGPR of the same number)
    const unsigned p = a.phys[o.vreg] + (mir::isSgprClass(v.cls) ? 1000 : 0);
    if (v.cls == mir::RegClass::Mask) {
      for (unsigned i = 0; i < (t_.wave_size == 64 ? 2u : 1u); ++i)
        k.push_back(p + i);
    } else if ((v.cls == mir::RegClass::V64 || v.cls == mir::RegClass::S64) && o.part == Part::Whole) {
      k.push_back(p);
      k.push_back(p + 1);
    } else {
      k.push_back(o.part == Part::Hi ? p + 1 : p);
    }
    break;
  }
  default: break;
  }
  return k;
}

void Lowering::emitWithWaits(const MInst &mi, std::vector<std::string> &lines, int stmt) {
  std::vector<unsigned> touched = keys(mi.dst);
  for (const MOperand &s : mi.srcs)
    for (unsigned k : keys(s))
      touched.push_back(k);
  const bool shared = targets::storesShareLoadCounter(t_);
  auto conflicts = [&](const Pending &p) {
    for (unsigned r : p.regs)
      if (std::find(touched.begin(), touched.end(), r) != touched.end())
        return true;
    return false;
  };
  // Vector memory: the queue of loads (and, on gfx9, stores) in issue order.
  long newest = -1;
  for (size_t i = 0; i < vmem_.size(); ++i)
    if (vmem_[i].counter == targets::Counter::VmLoad && conflicts(vmem_[i]))
      newest = static_cast<long>(i);
  if (newest >= 0) {
    unsigned after = 0;
    for (size_t i = static_cast<size_t>(newest) + 1; i < vmem_.size(); ++i)
      after += shared || vmem_[i].counter == targets::Counter::VmLoad;
    push(targets::waitInstruction(targets::Counter::VmLoad, after, t_), lines, stmt);
    // Everything up to the waited-for load (in its counter) has completed.
    std::vector<Pending> rest;
    for (size_t i = 0; i < vmem_.size(); ++i)
      if (i > static_cast<size_t>(newest) || (!shared && vmem_[i].counter != targets::Counter::VmLoad))
        rest.push_back(vmem_[i]);
    vmem_ = std::move(rest);
  }
  bool scalarConflict = false, ldsConflict = false;
  for (const Pending &p : smem_)
    scalarConflict |= conflicts(p);
  for (const Pending &p : lds_)
    ldsConflict |= conflicts(p);
  // gfx9-11 count SMEM and LDS in one lgkmcnt (SMEM out of order): a wait
  // for zero there covers both. gfx12 has kmcnt and dscnt apart.
  const bool lgkm = t_.counters != targets::TargetInfo::Counters::Gfx12;
  if (scalarConflict || (ldsConflict && lgkm)) {
    push(targets::waitInstruction(targets::Counter::Scalar, 0, t_), lines, stmt);
    smem_.clear();
    if (lgkm)
      lds_.clear();
  }
  if (ldsConflict && !lds_.empty()) {
    push(targets::waitInstruction(targets::Counter::Lds, 0, t_), lines, stmt);
    lds_.clear();
  }
  targets::InstFacts facts;
  targets::AluInstr alu;
  describe(mi, facts, alu);
  issue(printer::printInst(mi, fn_, out_.allocation, t_), facts, alu, lines, stmt);
  const amd::OpDef &def = amd::opDef(mi.op);
  if (def.encoding == amd::Encoding::VMEM) {
    if (def.dst == amd::Slot::None)
      vmem_.push_back({targets::Counter::VmStore, {}});
    else
      vmem_.push_back({targets::Counter::VmLoad, keys(mi.dst)});
    // A FLAT load may read LDS: its result also waits for lgkmcnt (dscnt).
    if (amd::isFlat(mi.op) && def.dst != amd::Slot::None)
      lds_.push_back({targets::Counter::Lds, keys(mi.dst)});
  } else if (def.encoding == amd::Encoding::SMEM) {
    smem_.push_back({targets::Counter::Scalar, keys(mi.dst)});
  } else if (def.encoding == amd::Encoding::DS && def.dst != amd::Slot::None) {
    lds_.push_back({targets::Counter::Lds, keys(mi.dst)});
  }
}

} // namespace p2a::klower
