// shfl.sync (PTX ISA 9.7.9.6) and vote.sync (PTX ISA 9.7.13.9) -> cross-lane
// AMD code. A PTX warp is 32 consecutive threads; a wave holds one (wave32)
// or two (wave64), and lane L of a wave is its thread (wave * size + L) of
// the block, so a thread's PTX lane is its wave lane's low five bits and its
// warp's base lane in the wave is bit 5 (docs/notes or isa-notes: "Warps on
// wave64").
//   shfl: the source lane by PTX's formula, computed per lane (constant
//   b and c fold away), then ds_bpermute_b32, which reads a VGPR of any lane
//   of the wave through the LDS crossbar without touching LDS memory.
//   vote: the predicate's active lanes as a wave mask, the warp's 32 bits of
//   it for each lane (shifted down by the warp's base lane on wave64), ANDed
//   with the lane's membermask, then compared.
//   redux / match: a loop over the wave's active lanes (s_ff1 of what is
//   left of EXEC): each lane's value is read once with v_readlane, and every
//   lane whose membermask names it, in its own warp, folds it in.
// Every lane named in membermask executes the statement together (PTX's
// rule), so the source lanes are active and the mask's lanes are the warp's
// participants.
#include "lowering/lowering.hpp"

#include <functional>

namespace p2a::klower {

namespace {

using amd::Op;

// A 32-bit value known at translation time, or in a VGPR vreg.
struct Val {
  std::optional<uint32_t> k;
  MOperand op;
};

// Lane arithmetic that folds what is known, so that a shfl with constant b
// and c (nvcc's usual) costs only what its lanes really compute.
struct LaneMath {
  mir::LoweredInst &li;
  std::function<unsigned()> temp; // a fresh V32 vreg

  static Val konst(uint32_t v) { return {v, mir::immOperand(v)}; }
  // A source operand: an inline constant in place, another in a VGPR.
  MOperand reg(const Val &v) {
    if (!v.k)
      return v.op;
    if (amd::isInlineConstant(int32_t(*v.k)))
      return mir::immOperand(*v.k);
    const unsigned t = temp();
    li.insts.push_back({Op::V_MOV_B32, vregOperand(t), {mir::immOperand(*v.k)}});
    return vregOperand(t);
  }
  Val emit(Op op, std::vector<MOperand> srcs) {
    const unsigned t = temp();
    li.insts.push_back({op, vregOperand(t), std::move(srcs)});
    return {std::nullopt, vregOperand(t)};
  }
  // A commutative VOP2 op: a constant goes to src0, which takes a literal.
  Val commutative(Op op, Val a, Val b, const std::function<uint32_t(uint32_t, uint32_t)> &fold) {
    if (a.k && b.k)
      return konst(fold(*a.k, *b.k));
    if (b.k)
      std::swap(a, b);
    return emit(op, {a.k ? mir::immOperand(*a.k) : a.op, b.op});
  }
  Val andOf(const Val &a, const Val &b) {
    if ((a.k && *a.k == 0) || (b.k && *b.k == 0))
      return konst(0);
    return commutative(Op::V_AND_B32, a, b, [](uint32_t x, uint32_t y) { return x & y; });
  }
  Val orOf(const Val &a, const Val &b) {
    if (a.k && *a.k == 0)
      return b;
    if (b.k && *b.k == 0)
      return a;
    return commutative(Op::V_OR_B32, a, b, [](uint32_t x, uint32_t y) { return x | y; });
  }
  Val xorOf(const Val &a, const Val &b) {
    if (a.k && *a.k == 0)
      return b;
    if (b.k && *b.k == 0)
      return a;
    return commutative(Op::V_XOR_B32, a, b, [](uint32_t x, uint32_t y) { return x ^ y; });
  }
  Val addOf(const Val &a, const Val &b) {
    if (a.k && *a.k == 0)
      return b;
    if (b.k && *b.k == 0)
      return a;
    return commutative(Op::V_ADD_U32, a, b, [](uint32_t x, uint32_t y) { return x + y; });
  }
  Val subOf(const Val &a, const Val &b) {
    if (b.k)
      return addOf(a, konst(0u - *b.k));
    return emit(Op::V_SUB_U32, {reg(a), b.op});
  }
};

} // namespace

MOperand Lowering::laneInWave(mir::LoweredInst &li) {
  const unsigned lo = newTemp(mir::RegClass::V32);
  li.insts.push_back({Op::V_MBCNT_LO_U32_B32, vregOperand(lo), {mir::immOperand(0xffffffffu), mir::immOperand(0)}});
  if (t_.wave32())
    return vregOperand(lo);
  const unsigned hi = newTemp(mir::RegClass::V32);
  li.insts.push_back({Op::V_MBCNT_HI_U32_B32, vregOperand(hi), {mir::immOperand(0xffffffffu), vregOperand(lo)}});
  return vregOperand(hi);
}

void Lowering::lowerWarpShuffle(const Stmt &s) {
  mir::LoweredInst &li = begin();
  LaneMath m{li, [this] { return newTemp(mir::RegClass::V32); }};
  auto value = [&](const ptx::Operand &o) {
    return o.isImm() ? LaneMath::konst(static_cast<uint32_t>(o.imm)) : Val{std::nullopt, vregOperand(reg(o.reg, 32))};
  };
  // The wave lane, and the PTX lane, made at their first use (constant b
  // and c often leave no use of the PTX lane).
  std::optional<Val> hwLane, ptxLane;
  auto hw = [&] {
    if (!hwLane)
      hwLane = Val{std::nullopt, laneInWave(li)};
    return *hwLane;
  };
  auto lane = [&] {
    if (!ptxLane)
      ptxLane = t_.wave32() ? hw() : m.andOf(LaneMath::konst(31), hw());
    return *ptxLane;
  };
  const Val bval = m.andOf(LaneMath::konst(31), value(s.extra().srcs[1]));
  const Val c = value(s.extra().srcs[2]);
  const Val cval = m.andOf(LaneMath::konst(31), c);
  const Val segmask = c.k ? LaneMath::konst((*c.k >> 8) & 31)
                          : m.emit(Op::V_BFE_U32, {c.op, mir::immOperand(8), mir::immOperand(5)});
  const Val minLane = segmask.k && *segmask.k == 0 ? LaneMath::konst(0) : m.andOf(lane(), segmask);
  const Val maxLane = m.orOf(minLane, m.andOf(cval, m.xorOf(segmask, LaneMath::konst(31))));
  Val j;
  bool upward = false;
  switch (s.shuffleMode) {
  case Stmt::ShuffleMode::Up: j = m.subOf(lane(), bval); upward = true; break;
  case Stmt::ShuffleMode::Down: j = m.addOf(lane(), bval); break;
  case Stmt::ShuffleMode::Bfly: j = m.xorOf(lane(), bval); break;
  case Stmt::ShuffleMode::Idx: j = m.orOf(minLane, m.andOf(bval, m.xorOf(segmask, LaneMath::konst(31)))); break;
  }
  // pval: up j >= maxLane (signed: j may be negative), else j <= maxLane.
  // idx and bfly give j <= 31, so a maxLane of 31 always holds.
  std::optional<bool> pval;
  if (j.k && maxLane.k)
    pval = upward ? int32_t(*j.k) >= int32_t(*maxLane.k) : *j.k <= *maxLane.k;
  else if (!upward && s.shuffleMode != Stmt::ShuffleMode::Down && maxLane.k && *maxLane.k == 31)
    pval = true;
  std::optional<MOperand> pmask;
  if (!pval) {
    pmask = vregOperand(s.extra().predDst.empty() ? newTemp(mir::RegClass::Mask) : reg(s.extra().predDst, 1));
    if (maxLane.k) // the constant in src0 (VOPC src1 is a VGPR): maxLane <= j / maxLane >= j
      li.insts.push_back({upward ? Op::V_CMP_LE_I32 : Op::V_CMP_GE_U32, *pmask, {m.reg(maxLane), m.reg(j)}});
    else
      li.insts.push_back({upward ? Op::V_CMP_GE_I32 : Op::V_CMP_LE_U32, *pmask, {m.reg(j), maxLane.op}});
  } else if (!s.extra().predDst.empty()) {
    li.insts.push_back({Op::S_MOV_MASK, vregOperand(reg(s.extra().predDst, 1)), {*pval ? execOperand() : mir::immOperand(0)}});
  }
  Val src = pval ? (*pval ? j : lane()) : m.emit(Op::V_CNDMASK_B32, {m.reg(lane()), m.reg(j), *pmask});
  if (!t_.wave32())
    src = m.orOf(m.andOf(LaneMath::konst(32), hw()), src);
  const Val address = src.k ? LaneMath::konst(*src.k * 4) : m.emit(Op::V_LSHLREV_B32, {mir::immOperand(2), src.op});
  const MOperand data = s.extra().srcs[0].isImm() ? materialise(li, s.extra().srcs[0].imm, false) : vregOperand(reg(s.extra().srcs[0].reg, 32));
  const MOperand addressReg = address.k ? materialise(li, *address.k, false) : address.op;
  li.insts.push_back({Op::DS_BPERMUTE_B32, vregOperand(reg(s.extra().dst, 32)), {addressReg, data, mir::immOperand(0)}});
  mergePredicates(s);
}

void Lowering::lowerWarpVote(const Stmt &s) {
  mir::LoweredInst &li = begin();
  LaneMath m{li, [this] { return newTemp(mir::RegClass::V32); }};
  // The lanes whose predicate counts (true, or false for .all), as a wave mask.
  const bool countFalse = s.voteMode == Stmt::VoteMode::All;
  auto laneMask = [&](bool falseLanes) {
    const MOperand t = vregOperand(newTemp(mir::RegClass::Mask));
    li.insts.push_back({Op::S_AND_MASK, t, {vregOperand(reg(s.extra().srcs[0].reg, 1)), execOperand()}});
    if (falseLanes != s.srcNegated)
      li.insts.push_back({Op::S_XOR_MASK, t, {t, execOperand()}});
    return t;
  };
  std::optional<MOperand> half;
  if (!t_.wave32())
    half = m.andOf(LaneMath::konst(32), Val{std::nullopt, laneInWave(li)}).op;
  // The lane's warp's 32 bits of a wave mask, ANDed with its membermask.
  const ptx::Operand &memberOperand = s.extra().srcs.back();
  const Val member = memberOperand.isImm() ? LaneMath::konst(static_cast<uint32_t>(memberOperand.imm))
                                       : Val{std::nullopt, vregOperand(reg(memberOperand.reg, 32))};
  auto warpBits = [&](const MOperand &wave) {
    Val bits;
    if (half) {
      const unsigned wide = newTemp(mir::RegClass::V64);
      li.insts.push_back({Op::V_LSHRREV_B64, vregOperand(wide), {*half, wave}});
      bits = Val{std::nullopt, vregOperand(wide, Part::Lo)};
    } else {
      bits = m.emit(Op::V_MOV_B32, {wave});
    }
    return member.k && *member.k == 0xffffffffu ? bits : m.andOf(member, bits);
  };
  const Val counted = s.voteMode == Stmt::VoteMode::Active ? warpBits(execOperand()) : warpBits(laneMask(countFalse));
  switch (s.voteMode) {
  case Stmt::VoteMode::Ballot:
  case Stmt::VoteMode::Active:
    li.insts.push_back({Op::V_MOV_B32, vregOperand(reg(s.extra().dst, 32)), {counted.op}});
    break;
  case Stmt::VoteMode::Any: // some member true
    li.insts.push_back({Op::V_CMP_NE_U32, vregOperand(reg(s.extra().dst, 1)), {mir::immOperand(0), counted.op}});
    break;
  case Stmt::VoteMode::All: // no member false
    li.insts.push_back({Op::V_CMP_EQ_U32, vregOperand(reg(s.extra().dst, 1)), {mir::immOperand(0), counted.op}});
    break;
  case Stmt::VoteMode::Uni: { // no member true, or no member false
    const Val falses = warpBits(laneMask(true));
    const MOperand noneTrue = vregOperand(newTemp(mir::RegClass::Mask));
    const MOperand noneFalse = vregOperand(newTemp(mir::RegClass::Mask));
    li.insts.push_back({Op::V_CMP_EQ_U32, noneTrue, {mir::immOperand(0), counted.op}});
    li.insts.push_back({Op::V_CMP_EQ_U32, noneFalse, {mir::immOperand(0), falses.op}});
    li.insts.push_back({Op::S_OR_MASK, vregOperand(reg(s.extra().dst, 1)), {noneTrue, noneFalse}});
    break;
  }
  }
  mergePredicates(s);
}

// redux.sync (PTX ISA 9.7.13.11) and match.{any,all}.sync (9.7.13.8). Only
// active lanes are read (a shuffle tree would read lanes that do not take
// part), once each, in a loop over EXEC's set bits, as LLVM's "iterative"
// atomic optimizer walks a wave: per lane j, v_readlane of its value, and
// each lane l for which j is in l's warp and l's membermask folds it in
// (a lane's participating lanes, as wave bits: its membermask shifted to
// its warp's half). That costs about ten instructions per active lane; the
// code is the same for every membermask.
void Lowering::lowerWarpCombine(const Stmt &s) {
  mir::LoweredInst &li = begin();
  using Mode = Stmt::CombineMode;
  const bool w64 = !t_.wave32(), wide = s.elemBits == 64;
  const MOperand x = s.extra().srcs[0].isImm() ? materialise(li, s.extra().srcs[0].imm, wide) : vregOperand(reg(s.extra().srcs[0].reg, wide ? 64 : 32));
  auto xPart = [&](Part p) {
    MOperand o = x;
    o.part = p;
    return o;
  };
  const MOperand member =
      s.extra().srcs[1].isImm() ? materialise(li, s.extra().srcs[1].imm & 0xffffffffu, false) : vregOperand(reg(s.extra().srcs[1].reg, 32));
  // The lanes this lane combines, as wave bits.
  MOperand lanes = member;
  if (w64) {
    const unsigned half = newTemp(mir::RegClass::V32), p = newTemp(mir::RegClass::V64);
    li.insts.push_back({Op::V_AND_B32, vregOperand(half), {mir::immOperand(32), laneInWave(li)}});
    li.insts.push_back({Op::V_MOV_B32, vregOperand(p, Part::Lo), {member}});
    li.insts.push_back({Op::V_MOV_B32, vregOperand(p, Part::Hi), {mir::immOperand(0)}});
    li.insts.push_back({Op::V_LSHLREV_B64, vregOperand(p), {vregOperand(half), vregOperand(p)}});
    lanes = vregOperand(p);
  }
  // The accumulator: the reduction's identity, or no matching lane yet.
  uint32_t identity = 0;
  Op fold = Op::V_OR_B32;
  if (s.combineMode == Mode::Redux) {
    const bool sgn = s.elemType == ptx::TypeClass::S;
    switch (s.atomicOp) {
    case Stmt::AtomicOp::Add: fold = Op::V_ADD_U32; break;
    case Stmt::AtomicOp::And: fold = Op::V_AND_B32; identity = ~0u; break;
    case Stmt::AtomicOp::Or: fold = Op::V_OR_B32; break;
    case Stmt::AtomicOp::Xor: fold = Op::V_XOR_B32; break;
    case Stmt::AtomicOp::Min: fold = sgn ? Op::V_MIN_I32 : Op::V_MIN_U32; identity = sgn ? 0x7fffffffu : ~0u; break;
    case Stmt::AtomicOp::Max: fold = sgn ? Op::V_MAX_I32 : Op::V_MAX_U32; identity = sgn ? 0x80000000u : 0u; break;
    default: return unsupported(s, "this reduction");
    }
  }
  const unsigned acc = newTemp(mir::RegClass::V32);
  li.insts.push_back({Op::V_MOV_B32, vregOperand(acc), {mir::immOperand(identity)}});
  std::optional<unsigned> seen; // match.all: the participating lanes, as warp bits
  if (s.combineMode == Mode::MatchAll) {
    seen = newTemp(mir::RegClass::V32);
    li.insts.push_back({Op::V_MOV_B32, vregOperand(*seen), {mir::immOperand(0)}});
  }
  const MOperand left = vregOperand(newTemp(mir::RegClass::Mask));
  li.insts.push_back({Op::S_MOV_MASK, left, {execOperand()}});
  const std::string loop = ".L" + k_.name + "_s" + std::to_string(current_) + "_lanes";
  li.insts.push_back(labelInst(loop));
  MOperand scc;
  scc.kind = MOperand::Kind::Scc;
  li.insts.push_back({w64 ? Op::S_CMP_LG_U64 : Op::S_CMP_LG_U32, scc, {left, mir::immOperand(0)}});
  li.insts.push_back(branch(Op::S_CBRANCH_SCC0, loop + "_done"));
  const MOperand j = vregOperand(newTemp(mir::RegClass::S32));
  li.insts.push_back({w64 ? Op::S_FF1_I32_B64 : Op::S_FF1_I32_B32, j, {left}});
  const MOperand xj = vregOperand(newTemp(mir::RegClass::S32));
  li.insts.push_back({Op::V_READLANE_B32, xj, {wide ? xPart(Part::Lo) : x, j}});
  // Whether this lane folds lane j in: bit j of its lanes.
  const unsigned shifted = newTemp(w64 ? mir::RegClass::V64 : mir::RegClass::V32), bit = newTemp(mir::RegClass::V32);
  li.insts.push_back({w64 ? Op::V_LSHRREV_B64 : Op::V_LSHRREV_B32, vregOperand(shifted), {j, lanes}});
  li.insts.push_back({Op::V_AND_B32, vregOperand(bit), {mir::immOperand(1), vregOperand(shifted, w64 ? Part::Lo : Part::Whole)}});
  const MOperand takes = vregOperand(newTemp(mir::RegClass::Mask));
  li.insts.push_back({Op::V_CMP_NE_U32, takes, {mir::immOperand(0), vregOperand(bit)}});
  const unsigned folded = newTemp(mir::RegClass::V32);
  if (s.combineMode == Mode::Redux) {
    li.insts.push_back({fold, vregOperand(folded), {xj, vregOperand(acc)}});
    li.insts.push_back({Op::V_CNDMASK_B32, vregOperand(acc), {vregOperand(acc), vregOperand(folded), takes}});
  } else {
    // Lane j's bit in its warp where its value equals this lane's.
    const MOperand equal = vregOperand(newTemp(mir::RegClass::Mask));
    li.insts.push_back({Op::V_CMP_EQ_U32, equal, {xj, wide ? xPart(Part::Lo) : x}});
    if (wide) {
      const MOperand xjHi = vregOperand(newTemp(mir::RegClass::S32));
      const MOperand equalHi = vregOperand(newTemp(mir::RegClass::Mask));
      li.insts.push_back({Op::V_READLANE_B32, xjHi, {xPart(Part::Hi), j}});
      li.insts.push_back({Op::V_CMP_EQ_U32, equalHi, {xjHi, xPart(Part::Hi)}});
      li.insts.push_back({Op::S_AND_MASK, equal, {equal, equalHi}});
    }
    li.insts.push_back({Op::S_AND_MASK, equal, {equal, takes}});
    const MOperand warpLane = vregOperand(newTemp(mir::RegClass::S32)), laneBit = vregOperand(newTemp(mir::RegClass::S32));
    li.insts.push_back({Op::S_AND_B32, warpLane, {j, mir::immOperand(31)}});
    li.insts.push_back({Op::S_LSHL_B32, laneBit, {mir::immOperand(1), warpLane}});
    li.insts.push_back({Op::V_OR_B32, vregOperand(folded), {laneBit, vregOperand(acc)}});
    li.insts.push_back({Op::V_CNDMASK_B32, vregOperand(acc), {vregOperand(acc), vregOperand(folded), equal}});
    if (seen) {
      const unsigned withJ = newTemp(mir::RegClass::V32);
      li.insts.push_back({Op::V_OR_B32, vregOperand(withJ), {laneBit, vregOperand(*seen)}});
      li.insts.push_back({Op::V_CNDMASK_B32, vregOperand(*seen), {vregOperand(*seen), vregOperand(withJ), takes}});
    }
  }
  // Lane j is done.
  const MOperand jBit = vregOperand(newTemp(w64 ? mir::RegClass::S64 : mir::RegClass::S32));
  li.insts.push_back({w64 ? Op::S_LSHL_B64 : Op::S_LSHL_B32, jBit, {mir::immOperand(1), j}});
  li.insts.push_back({Op::S_XOR_MASK, left, {left, jBit}});
  li.insts.push_back(branch(Op::S_BRANCH, loop));
  li.insts.push_back(labelInst(loop + "_done"));
  if (s.combineMode != Mode::MatchAll) {
    li.insts.push_back({Op::V_MOV_B32, vregOperand(reg(s.extra().dst, 32)), {vregOperand(acc)}});
  } else { // every participating lane's value equals this lane's: d = the lanes, p = true
    const MOperand all = s.extra().predDst.empty() ? vregOperand(newTemp(mir::RegClass::Mask)) : vregOperand(reg(s.extra().predDst, 1));
    li.insts.push_back({Op::V_CMP_EQ_U32, all, {vregOperand(acc), vregOperand(*seen)}});
    li.insts.push_back({Op::V_CNDMASK_B32, vregOperand(reg(s.extra().dst, 32)), {mir::immOperand(0), vregOperand(*seen), all}});
  }
  mergePredicates(s);
}

} // namespace p2a::klower
