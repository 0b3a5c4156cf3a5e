// Control flow (docs/architecture.md, "Control flow"): per-block lane masks,
// guards, divergent and uniform branches, back edges.
#include "lowering/lowering.hpp"
#include "kernel/analysis/work_counter.hpp"

#include <algorithm>
#include <bit>

namespace p2a::klower {

void Lowering::buildBlocks() {
  const size_t n = k_.body.size();
  cfg_ = kernel::controlFlowGraph(k_);
  blockOf_ = cfg_.blockOf;
  blockStart_ = cfg_.blockStart;
  numBlocks_ = cfg_.numBlocks;
  prepareForwardJumps();
  for (size_t i = 0; i < n; ++i) // blocks a back edge enters (see controlFlow)
    if (k_.body[i].kind == Stmt::Kind::Branch && blockOf_[k_.body[i].target] <= blockOf_[i] &&
        blockOf_[k_.body[i].target] >= 1 && !blockHasBarrier(blockOf_[i]))
      loopHeads_.insert(blockOf_[k_.body[i].target]);
  if (numBlocks_ > 1) {
    shareLaneMasks();
    tmpA_ = persistentMask("%__cf_a");
  }
}

// Block z's mask M_z holds lanes only from the end of a predecessor that
// sends it lanes to z's head, which takes them and clears it: so only while
// a block in region(z) runs -- the blocks that may run while lanes wait in z
// (kernel::WaitingLanes, every branch taken as divergent, which covers the
// uniform ones), its predecessors (their ends write M_z; a back edge's source
// also tests it) and z. Outside its region M_z is 0. Masks whose regions
// are disjoint share one SGPR (pair): it is the OR of them, and at most one
// of them can be non-zero while any block runs, so each block's reads,
// writes and clears see exactly its own. Regions are intervals of layout
// order; the greedy colouring by start uses as many registers as the most
// regions that overlap, instead of one per block for the whole kernel.
void Lowering::shareLaneMasks() {
  const kernel::WaitingLanes waiting(cfg_, std::vector<bool>(numBlocks_, false));
  std::vector<std::pair<unsigned, unsigned>> region(numBlocks_);
  for (unsigned z = 1; z < numBlocks_; ++z) {
    const auto [first, last] = waiting.runningWhileWaiting(z);
    region[z] = first > last ? std::pair{z, z} : std::pair{std::min(first, z), std::max(last, z)};
  }
  for (unsigned p = 0; p < numBlocks_; ++p)
    for (unsigned s : cfg_.succ[p])
      if (s >= 1) {
        region[s].first = std::min(region[s].first, p);
        region[s].second = std::max(region[s].second, p);
      }
  std::vector<unsigned> byStart;
  for (unsigned z = 1; z < numBlocks_; ++z)
    byStart.push_back(z);
  std::stable_sort(byStart.begin(), byStart.end(),
                   [&](unsigned a, unsigned b) { return region[a].first < region[b].first; });
  std::vector<unsigned> colourVreg;                       // colour -> its vreg
  std::vector<unsigned> colourEnd;                        // colour -> last block of its current region
  maskVreg_.assign(numBlocks_ - 1, 0);
  for (unsigned z : byStart) {
    unsigned c = 0;
    while (c < colourEnd.size() && colourEnd[c] >= region[z].first)
      ++c;
    if (c == colourEnd.size()) { // named for the first block it serves
      colourVreg.push_back(persistentMask("%__lanes_bb" + std::to_string(z)));
      colourEnd.push_back(0);
    }
    colourEnd[c] = region[z].second;
    maskVreg_[z - 1] = colourVreg[c];
  }
}

bool Lowering::forwardJumpSafe(unsigned b, unsigned target) const {
  kernel::countWork(1);
  if (blockHasBarrier(b))
    return false;
  // The blocks x in b+1 .. target-1: none holds a barrier, none leads back
  // to b or before, and none is entered from before b or from itself or a
  // later block.
  const unsigned lo = b + 1, hi = target; // [lo, hi)
  if (lo >= hi)
    return true;
  auto rangeMin = [&](int which) {
    const unsigned k = static_cast<unsigned>(std::bit_width(hi - lo) - 1);
    return std::min(minEdge_[which][k][lo], minEdge_[which][k][hi - (1u << k)]);
  };
  return barriersBefore_[hi] == barriersBefore_[lo] && backEnteredBefore_[hi] == backEnteredBefore_[lo] &&
         rangeMin(0) > b && rangeMin(1) >= b;
}

void Lowering::prepareForwardJumps() {
  const unsigned nb = numBlocks_;
  constexpr unsigned kNoEdge = ~0u;
  std::vector<unsigned> minSucc(nb, kNoEdge), minPred(nb, kNoEdge);
  barriersBefore_.assign(nb + 1, 0);
  backEnteredBefore_.assign(nb + 1, 0);
  std::vector<bool> backEntered(nb, false);
  for (unsigned p = 0; p < nb; ++p)
    for (unsigned s : cfg_.succ[p]) {
      minSucc[p] = std::min(minSucc[p], s);
      minPred[s] = std::min(minPred[s], p);
      if (p >= s)
        backEntered[s] = true;
    }
  for (unsigned x = 0; x < nb; ++x) {
    barriersBefore_[x + 1] = barriersBefore_[x] + blockHasBarrier(x);
    backEnteredBefore_[x + 1] = backEnteredBefore_[x] + backEntered[x];
  }
  for (int which = 0; which < 2; ++which) {
    std::vector<std::vector<unsigned>> &table = minEdge_[which];
    table.assign(1, which ? minPred : minSucc);
    for (unsigned k = 1; (1u << k) <= nb; ++k) {
      const std::vector<unsigned> &prev = table[k - 1];
      std::vector<unsigned> next(nb - (1u << k) + 1);
      for (unsigned x = 0; x < next.size(); ++x)
        next[x] = std::min(prev[x], prev[x + (1u << (k - 1))]);
      table.push_back(std::move(next));
    }
  }
}

std::string Lowering::label(unsigned block, bool end) const {
  return ".L" + k_.name + "_bb" + std::to_string(block) + (end ? "_end" : "");
}

MOperand Lowering::execOperand() {
  MOperand o;
  o.kind = MOperand::Kind::Exec;
  return o;
}

void Lowering::addLanes(std::vector<MInst> &out, unsigned dstMask, const std::string &pred, bool negated) {
  const MOperand d = vregOperand(dstMask);
  if (pred.empty()) {
    out.push_back(MInst{amd::Op::S_OR_MASK, d, {d, execOperand()}});
    return;
  }
  const MOperand p = vregOperand(reg(pred, 1)), a = vregOperand(tmpA_);
  out.push_back(MInst{amd::Op::S_AND_MASK, a, {execOperand(), p}});
  if (negated) // EXEC & ~p = EXEC ^ (EXEC & p)
    out.push_back(MInst{amd::Op::S_XOR_MASK, a, {execOperand(), a}});
  out.push_back(MInst{amd::Op::S_OR_MASK, d, {d, a}});
}

void Lowering::controlFlow(size_t i) {
  const Stmt &st = k_.body[i];
  const unsigned b = blockOf_[i];
  const bool control = st.kind == Stmt::Kind::Branch || st.kind == Stmt::Kind::Return;
  // A guard on anything else narrows EXEC around the statement.
  if (!st.guard.empty() && !control) {
    const MOperand p = vregOperand(reg(st.guard, 1)), save = vregOperand(persistentMask("%__exec_save"));
    std::vector<MInst> &head = before_.toWrite(i), &tail = after_.toWrite(i);
    head.push_back(MInst{amd::Op::S_MOV_MASK, save, {execOperand()}});
    head.push_back(MInst{amd::Op::S_AND_MASK, execOperand(), {execOperand(), p}});
    if (st.guardNegated) // EXEC = saved & ~p = saved ^ (saved & p)
      head.push_back(MInst{amd::Op::S_XOR_MASK, execOperand(), {save, execOperand()}});
    tail.insert(tail.begin(), MInst{amd::Op::S_MOV_MASK, execOperand(), {save}});
  }
  if (numBlocks_ == 1)
    return;
  const amd::Op anyLanes = t_.wave_size == 64 ? amd::Op::S_CMP_LG_U64 : amd::Op::S_CMP_LG_U32; // SCC: mask != 0
  if (blockStart_[b] == i && b > 0) {
    std::vector<MInst> head;
    head.push_back(waitForLoads());
    head.push_back(labelInst(label(b)));
    head.push_back(MInst{amd::Op::S_MOV_MASK, execOperand(), {vregOperand(mask(b))}});
    head.push_back(MInst{amd::Op::S_MOV_MASK, vregOperand(mask(b)), {mir::immOperand(0)}});
    // A block with a barrier is never skipped: every wave must reach it.
    const bool hasBarrier = blockHasBarrier(b);
    if (!hasBarrier)
      head.push_back(branch(amd::Op::S_CBRANCH_EXECZ, label(b, true)));
    if (loopHeads_.count(b)) // where a uniformly taken back edge enters (see below)
      head.push_back(labelInst(bodyLabel(b)));
    std::vector<MInst> &code = before_.toWrite(i);
    code.insert(code.begin(), head.begin(), head.end());
  }
  const bool last = i + 1 == k_.body.size() || blockOf_[i + 1] != b;
  if (!last)
    return;
  std::vector<MInst> &tail = after_.toWrite(i);
  tail.push_back(waitForLoads());
  const unsigned next = b + 1;
  const bool hasNext = next < numBlocks_;
  std::vector<unsigned> backTargets;
  if (st.kind == Stmt::Kind::Branch && uniform_.uniformBranches.count(i) && blockOf_[st.target] >= 1) {
    uniformBranch(tail, st, i);
  } else if (st.kind == Stmt::Kind::Branch) {
    const unsigned target = blockOf_[st.target];
    // A back edge every active lane takes (checked at run time) jumps
    // into the loop head's body with EXEC as it is. That is what the
    // general path below would do: at a block's end no block at or before
    // it has waiting lanes (the code would have jumped back to it), so the
    // head would set EXEC to exactly these lanes and clear its mask. A
    // uniform loop then costs two SALU instructions per iteration instead
    // of the mask bookkeeping. (Not in a block with a barrier: that block
    // runs even with no lanes, and an empty EXEC must not loop.)
    if (target >= 1 && target <= b && target < numBlocks_ && !blockHasBarrier(b)) {
      if (st.guard.empty()) {
        tail.push_back(branch(amd::Op::S_BRANCH, bodyLabel(target)));
      } else {
        lanesNotTaking(tail, st);
        tail.push_back(branch(amd::Op::S_CBRANCH_SCC0, bodyLabel(target))); // (SCC: the result is not 0)
      }
    }
    // A forward branch every active lane takes (checked at run time, as
    // above) over blocks that cannot hold waiting lanes now jumps to its
    // target, its lanes joining the target's mask, instead of leaving an
    // empty mask for each block in between to test.
    if (!st.guard.empty() && target > next && target < numBlocks_ && forwardJumpSafe(b, target)) {
      const std::string general = label(b) + "_divergent";
      lanesNotTaking(tail, st);
      tail.push_back(branch(amd::Op::S_CBRANCH_SCC1, general)); // some lane does not take it
      tail.push_back(MInst{amd::Op::S_OR_MASK, vregOperand(mask(target)), {vregOperand(mask(target)), execOperand()}});
      tail.push_back(branch(amd::Op::S_BRANCH, label(target)));
      tail.push_back(labelInst(general));
    }
    if (target < numBlocks_) {
      addLanes(tail, mask(std::max(target, 1u)), st.guard, st.guardNegated);
      if (target <= b)
        backTargets.push_back(target);
    }
    if (!st.guard.empty() && hasNext) // the lanes not taking the branch fall through
      addLanes(tail, mask(next), st.guard, !st.guardNegated);
  } else if (st.kind == Stmt::Kind::Return) {
    if (!st.guard.empty() && hasNext) // lanes that do not return fall through
      addLanes(tail, mask(next), st.guard, !st.guardNegated);
  } else if (hasNext) {
    addLanes(tail, mask(next), "", false);
  }
  tail.push_back(labelInst(label(b, true)));
  std::sort(backTargets.begin(), backTargets.end());
  for (unsigned target : backTargets) {
    MOperand scc;
    scc.kind = MOperand::Kind::Scc;
    tail.push_back(MInst{anyLanes, scc, {vregOperand(mask(std::max(target, 1u))), mir::immOperand(0)}});
    tail.push_back(branch(amd::Op::S_CBRANCH_SCC1, label(std::max(target, 1u))));
  }
  if (std::find(backTargets.begin(), backTargets.end(), 0u) != backTargets.end())
    error(diags_, st.loc, "a branch back to the kernel's first statement is not supported; add a label after the entry code");
}

void Lowering::uniformBranch(std::vector<MInst> &tail, const Stmt &st, size_t i) {
  const unsigned b = blockOf_[i], target = blockOf_[st.target], next = b + 1;
  // SCC: the active lanes' predicate bits are not all 0 (EXEC & p is EXEC
  // or 0), unless the compare just before left its SCC (sccFromCompare).
  if (!sccFromCompare(i))
    tail.push_back(MInst{amd::Op::S_AND_MASK, vregOperand(tmpA_), {execOperand(), vregOperand(reg(st.guard, 1))}});
  const amd::Op ifTaken = st.guardNegated ? amd::Op::S_CBRANCH_SCC0 : amd::Op::S_CBRANCH_SCC1;
  const amd::Op ifNotTaken = st.guardNegated ? amd::Op::S_CBRANCH_SCC1 : amd::Op::S_CBRANCH_SCC0;
  if (target < numBlocks_ && target <= b) {
    tail.push_back(branch(ifTaken, bodyLabel(target)));
  } else if (target >= numBlocks_) { // to the end of the body: the lanes are done
    tail.push_back(branch(ifTaken, label(b, true)));
  } else if (target != next) {
    const std::string notTaken = label(b) + "_not_taken";
    const bool jump = forwardJumpSafe(b, target);
    tail.push_back(branch(ifNotTaken, notTaken));
    tail.push_back(MInst{amd::Op::S_OR_MASK, vregOperand(mask(target)), {vregOperand(mask(target)), execOperand()}});
    tail.push_back(branch(amd::Op::S_BRANCH, jump ? label(target) : label(b, true)));
    tail.push_back(labelInst(notTaken));
  }
  if (next < numBlocks_) // not taken (or taken to the next block): every lane falls through
    addLanes(tail, mask(next), "", false);
}

bool Lowering::sccFromCompare(size_t i) const {
  if (i == 0 || !uniform_.uniformBranches.count(i) || blockOf_[i - 1] != blockOf_[i] ||
      !uniform_.scalarStatements.count(i - 1))
    return false;
  const Stmt &cmp = k_.body[i - 1];
  return cmp.kind == Stmt::Kind::Compute && cmp.inst.form.opcode == ptx::Opcode::Setp &&
         cmp.inst.dsts[0].reg == k_.body[i].guard.str();
}

void Lowering::lanesNotTaking(std::vector<MInst> &out, const Stmt &st) {
  const MOperand p = vregOperand(reg(st.guard, 1)), a = vregOperand(tmpA_);
  out.push_back(MInst{amd::Op::S_AND_MASK, a, {execOperand(), p}});
  if (!st.guardNegated)
    out.push_back(MInst{amd::Op::S_XOR_MASK, a, {execOperand(), a}});
}

void Lowering::mergePredicates(const Stmt &s) {
  if (numBlocks_ == 1 && s.guard.empty())
    return;
  if (numBlocks_ > 1 && blockOf_[current_] == 0 && s.guard.empty())
    return; // block 0 runs with every live lane
  mir::LoweredInst &li = fn_.body.back();
  std::vector<std::string> predicates; // the predicates s writes
  if (s.kind == Stmt::Kind::Compute) {
    for (size_t d = 0; d < s.inst.dsts.size(); ++d)
      if (s.inst.dsts[d].isReg() && s.inst.form.dstWidth(static_cast<unsigned>(d)) == 1)
        predicates.push_back(s.inst.dsts[d].reg);
  } else {
    for (const std::string &r : kernel::writtenRegisters(s))
      if (const ptx::RegisterType *declared = k_.registers.find(r); declared && declared->width == 1)
        predicates.push_back(r);
  }
  for (const std::string &name : predicates) {
    const unsigned vp = reg(name, 1);
    const unsigned fresh = persistentMask("%__pred_new");
    bool written = false;
    for (MInst &mi : li.insts) {
      if (written)
        for (MOperand &o : mi.srcs)
          if (o.kind == MOperand::Kind::VReg && o.vreg == vp)
            o.vreg = fresh;
      if (mi.dst.kind == MOperand::Kind::VReg && mi.dst.vreg == vp) {
        mi.dst.vreg = fresh;
        written = true;
      }
    }
    const MOperand p = vregOperand(vp), f = vregOperand(fresh), a = vregOperand(persistentMask("%__cf_a"));
    li.insts.push_back({amd::Op::S_XOR_MASK, a, {p, f}});
    li.insts.push_back({amd::Op::S_AND_MASK, a, {a, execOperand()}});
    li.insts.push_back({amd::Op::S_XOR_MASK, p, {p, a}});
  }
}

} // namespace p2a::klower
