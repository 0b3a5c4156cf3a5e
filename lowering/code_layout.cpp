// Layout: the kernel as one instruction list (mir::Function::code) over
// physical registers -- the prologue, then each statement's control flow,
// its instructions, its barrier or fence sequence, and the end of the
// program -- for the passes that follow (passes.hpp) and the printer.
#include "lowering/cache_maintenance.hpp"
#include "lowering/lowering.hpp"

namespace p2a::klower {

void Lowering::placePhysical(const MInst &mi, int stmt) {
  MInst physical = printer::physical(mi, fn_, out_.allocation, t_);
  // A copy register assignment made free (regalloc.hpp, CopyHint) moves a
  // register onto itself: nothing to do in any lane.
  if (physical.op == amd::Op::V_MOV_B32 && physical.srcs.size() == 1 && physical.dst.kind == MOperand::Kind::Phys &&
      physical.srcs[0].kind == MOperand::Kind::Phys && physical.dst.file == physical.srcs[0].file &&
      physical.dst.physIndex == physical.srcs[0].physIndex && physical.dst.physCount == physical.srcs[0].physCount)
    return;
  place(std::move(physical), stmt);
}

void Lowering::barrier(int stmt) {
  place(MInst{amd::Op::WAIT_ALL, noOperand(), {}}, stmt);
  for (const MInst &mi : releaseSequence(targets::FenceScope::Cta, t_))
    place(mi, stmt);
  if (t_.generation >= targets::Generation::GFX12) {
    place(MInst{amd::Op::S_BARRIER_SIGNAL, noOperand(), {mir::immOperand(0xffffffffu)}}, stmt);
    place(MInst{amd::Op::S_BARRIER_WAIT, noOperand(), {mir::immOperand(0xffffffffu)}}, stmt);
  } else {
    place(MInst{amd::Op::S_BARRIER, noOperand(), {}}, stmt);
  }
  for (const MInst &mi : acquireSequence(targets::FenceScope::Cta, t_))
    place(mi, stmt);
}

void Lowering::fence(targets::FenceScope scope, int stmt) {
  place(MInst{amd::Op::WAIT_ALL, noOperand(), {}}, stmt);
  for (const MInst &mi : releaseSequence(scope, t_))
    place(mi, stmt);
  for (const MInst &mi : acquireSequence(scope, t_))
    place(mi, stmt);
}

void Lowering::clearLaneMasks() {
  // No lanes wait anywhere yet. (Here, after register assignment, rather
  // than in the first statement: a mask the spiller moved to VGPR lanes is
  // cleared there with v_writelane of 0 and needs no SGPR at that point.)
  std::set<unsigned> cleared;
  for (unsigned m : maskVreg_) {
    if (!cleared.insert(m).second)
      continue;
    if (!fn_.vregs[m].spilled) {
      placePhysical(MInst{amd::Op::S_MOV_MASK, vregOperand(m), {mir::immOperand(0)}}, mir::kPrologue);
      continue;
    }
    for (const MInst &mi : laneCopies(m, mir::immOperand(0), true))
      place(mi, mir::kPrologue);
  }
}

void Lowering::layOutCode() {
  fn_.code.clear();
  // (Sized up front: grown by doubling, a big kernel's list was moved whole
  // into fresh pages at each growth: ccminer wildkeccak 204k -> 185k page
  // faults. Barriers, fences and the prologue add a few more.)
  size_t placed = 64 + literalSgprs_.size();
  for (size_t i = 0; i < k_.body.size(); ++i)
    placed += before_[i].size() + fn_.body[i].insts.size() + after_[i].size() + 1 +
              (k_.body[i].kind == Stmt::Kind::Barrier || k_.body[i].kind == Stmt::Kind::Fence ? 8 : 0);
  fn_.code.reserve(placed);
  emitPrologue(); // abi.cpp
  clearLaneMasks();
  for (const auto &[v, value] : literalSgprs_) // (uniform_operands.cpp: readLiteralsFromSgprs)
    placePhysical(MInst{amd::Op::S_MOV_B32, vregOperand(v), {mir::immOperand(value)}}, mir::kPrologue);
  for (size_t i = 0; i < k_.body.size(); ++i) {
    const Stmt &s = k_.body[i];
    const int stmt = static_cast<int>(i);
    for (const MInst &mi : before_[i])
      placePhysical(mi, stmt);
    for (const MInst &mi : fn_.body[i].insts)
      if (mi.op == amd::Op::CTA_BARRIER) // (bar.red's barriers, among its instructions)
        barrier(stmt);
      else
        placePhysical(mi, stmt);
    if (s.kind == Stmt::Kind::Barrier && s.barrierReduce == Stmt::BarrierReduce::None)
      barrier(stmt);
    if (s.kind == Stmt::Kind::Fence)
      fence(s.scope, stmt);
    for (const MInst &mi : after_[i])
      placePhysical(mi, stmt);
    // The kernel's last statement, an unguarded ret, ends the program itself.
    if (s.kind == Stmt::Kind::Return && s.guard.empty() && i + 1 == k_.body.size())
      place(MInst{amd::Op::S_ENDPGM, noOperand(), {}}, stmt);
    // The statement's instructions live on in fn_.code, all that the passes
    // after layout read (the rows keep only fn_.body's rules): held twice,
    // the machine IR was most of a big kernel's peak memory.
    std::vector<MInst>().swap(fn_.body[i].insts);
    before_.release(i);
    after_.release(i);
  }
  if (k_.body.empty() || k_.body.back().kind != Stmt::Kind::Return || !k_.body.back().guard.empty())
    place(MInst{amd::Op::S_ENDPGM, noOperand(), {}}, mir::kEpilogue); // falling off the end of a kernel returns
  // Of the statements' machine IR the rows read each one's rule, and
  // nothing after layout reads the rest: it goes (80 bytes a statement,
  // 6.4 MB of KeyHunt's 80k-statement kernels, held through the passes and
  // the assembly below, the peak of a lowering).
  statementRules_.resize(fn_.body.size());
  for (size_t i = 0; i < fn_.body.size(); ++i)
    statementRules_[i] = fn_.body[i].rule;
  std::vector<mir::LoweredInst>().swap(fn_.body);
}

} // namespace p2a::klower
