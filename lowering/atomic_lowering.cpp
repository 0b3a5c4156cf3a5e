// atom / red (PTX ISA 9.7.13.5-6) -> global_atomic_* or ds_* (Vega ISA 9 and
// 11; docs/notes/atomics.md for the spellings, return bits and scopes per
// target). The AMD operations compute what PTX's do, inc and dec included
// (both wrap the same way). A .relaxed atomic is the instruction alone, with
// the scope bits gfx942 (sc1 at .sys) and gfx12 (the scope field) need; an
// ordered one (.acquire, .release, .acq_rel) is a release fence, the atomic,
// then everything it did completes and the acquire half follows, as LLVM's
// memory model emits an acq_rel atomicrmw.
#include "lowering/cache_maintenance.hpp"
#include "lowering/lowering.hpp"

namespace p2a::klower {

namespace {

using AtomicOp = Stmt::AtomicOp;
using amd::Op;

std::optional<Op> globalAtomicOp(const Stmt &s) {
  const bool wide = s.elemBits == 64, sgn = s.elemType == ptx::TypeClass::S;
  switch (s.atomicOp) {
  case AtomicOp::Add: return wide ? Op::GLOBAL_ATOMIC_ADD_X2 : Op::GLOBAL_ATOMIC_ADD;
  case AtomicOp::Inc: return Op::GLOBAL_ATOMIC_INC;
  case AtomicOp::Dec: return Op::GLOBAL_ATOMIC_DEC;
  case AtomicOp::Min:
    return wide ? (sgn ? Op::GLOBAL_ATOMIC_SMIN_X2 : Op::GLOBAL_ATOMIC_UMIN_X2)
                : (sgn ? Op::GLOBAL_ATOMIC_SMIN : Op::GLOBAL_ATOMIC_UMIN);
  case AtomicOp::Max:
    return wide ? (sgn ? Op::GLOBAL_ATOMIC_SMAX_X2 : Op::GLOBAL_ATOMIC_UMAX_X2)
                : (sgn ? Op::GLOBAL_ATOMIC_SMAX : Op::GLOBAL_ATOMIC_UMAX);
  case AtomicOp::And: return wide ? Op::GLOBAL_ATOMIC_AND_X2 : Op::GLOBAL_ATOMIC_AND;
  case AtomicOp::Or: return wide ? Op::GLOBAL_ATOMIC_OR_X2 : Op::GLOBAL_ATOMIC_OR;
  case AtomicOp::Xor: return wide ? Op::GLOBAL_ATOMIC_XOR_X2 : Op::GLOBAL_ATOMIC_XOR;
  case AtomicOp::Exch: return wide ? Op::GLOBAL_ATOMIC_SWAP_X2 : Op::GLOBAL_ATOMIC_SWAP;
  case AtomicOp::Cas: return wide ? Op::GLOBAL_ATOMIC_CMPSWAP_X2 : Op::GLOBAL_ATOMIC_CMPSWAP;
  }
  return std::nullopt;
}

std::optional<Op> ldsAtomicOp(const Stmt &s) {
  const bool sgn = s.elemType == ptx::TypeClass::S;
  if (s.elemBits == 64) {
    switch (s.atomicOp) {
    case AtomicOp::Add: return Op::DS_ADD_RTN_U64;
    case AtomicOp::Min: return sgn ? Op::DS_MIN_RTN_I64 : Op::DS_MIN_RTN_U64;
    case AtomicOp::Max: return sgn ? Op::DS_MAX_RTN_I64 : Op::DS_MAX_RTN_U64;
    case AtomicOp::And: return Op::DS_AND_RTN_B64;
    case AtomicOp::Or: return Op::DS_OR_RTN_B64;
    case AtomicOp::Xor: return Op::DS_XOR_RTN_B64;
    case AtomicOp::Exch: return Op::DS_WRXCHG_RTN_B64;
    case AtomicOp::Cas: return Op::DS_CMPST_RTN_B64;
    case AtomicOp::Inc:
    case AtomicOp::Dec: return std::nullopt; // (PTX has them for .u32 only)
    }
    return std::nullopt;
  }
  if (s.elemBits != 32)
    return std::nullopt;
  switch (s.atomicOp) {
  case AtomicOp::Add: return Op::DS_ADD_RTN_U32;
  case AtomicOp::Inc: return Op::DS_INC_RTN_U32;
  case AtomicOp::Dec: return Op::DS_DEC_RTN_U32;
  case AtomicOp::Min: return sgn ? Op::DS_MIN_RTN_I32 : Op::DS_MIN_RTN_U32;
  case AtomicOp::Max: return sgn ? Op::DS_MAX_RTN_I32 : Op::DS_MAX_RTN_U32;
  case AtomicOp::And: return Op::DS_AND_RTN_B32;
  case AtomicOp::Or: return Op::DS_OR_RTN_B32;
  case AtomicOp::Xor: return Op::DS_XOR_RTN_B32;
  case AtomicOp::Exch: return Op::DS_WRXCHG_RTN_B32;
  case AtomicOp::Cas: return Op::DS_CMPST_RTN_B32;
  }
  return std::nullopt;
}

// The scope bits a global atomic carries (AMDGPUUsage memory model, relaxed
// atomics): gfx942 sc1 at system scope; gfx12's scope field always.
mir::CachePolicy atomicScope(targets::FenceScope s, const targets::TargetInfo &t) {
  if (t.generation >= targets::Generation::GFX12)
    return gfx12ScopePolicy(s);
  if (t.name == "gfx942" && s == targets::FenceScope::Sys)
    return mir::CachePolicy::Sc1;
  return mir::CachePolicy::None;
}

} // namespace

void Lowering::lowerAtomic(const Stmt &s) {
  mir::LoweredInst &li = begin();
  Space space = s.space;
  if (space == Space::Generic && !s.baseIsSymbol)
    if (auto it = pointerSpaces_.find(s.extra().base); it != pointerSpaces_.end())
      space = it->second;
  // A generic pointer that may point into shared memory: a FLAT atomic,
  // which the apertures route to LDS or global memory.
  const bool flat = space == Space::Generic && genericReachesSegments_;
  if (space == Space::Local)
    return unsupported(s, "an atomic on local memory");
  const bool lds = space == Space::Shared;
  std::optional<Op> op = lds ? ldsAtomicOp(s) : globalAtomicOp(s);
  if (op && flat)
    op = amd::flatAtomicOf(*op);
  if (!op)
    return unsupported(s, std::string("a ") + std::to_string(s.elemBits) + "-bit " + (lds ? "shared-memory " : "") +
                              (s.atomicOp == AtomicOp::Cas ? "compare-and-swap" : "atomic of this kind"));
  const bool wide = s.elemBits == 64;
  auto value = [&](const ptx::Operand &o) {
    return o.isImm() ? materialise(li, o.imm, wide) : vregOperand(reg(o.reg, wide ? 64 : 32));
  };
  if (s.ordered)
    for (const MInst &mi : releaseHalf(s.scope, t_))
      li.insts.push_back(mi);
  const MOperand dst = s.extra().dst.empty() ? noOperand() : vregOperand(reg(s.extra().dst, wide ? 64 : 32));
  if (lds) {
    std::optional<std::pair<MOperand, int64_t>> a = segmentAddress(s, 0, li, sharedOffset_, 0xffff, "shared");
    if (!a)
      return;
    std::vector<MOperand> srcs{a->first, value(s.extra().values[0])};
    if (s.atomicOp == AtomicOp::Cas)
      srcs.push_back(value(s.extra().values[1]));
    srcs.push_back(mir::immOperand(static_cast<uint64_t>(a->second)));
    li.insts.push_back({*op, dst, srcs});
  } else {
    MOperand data;
    if (s.atomicOp == AtomicOp::Cas && wide) { // the quad {new, compare}: two pairs, one after the other
      const unsigned fresh = newTemp(mir::RegClass::V64), compare = newTemp(mir::RegClass::V64);
      for (const auto &[to, from] : {std::pair{fresh, &s.extra().values[1]}, std::pair{compare, &s.extra().values[0]}})
        for (const Part half : {Part::Lo, Part::Hi})
          li.insts.push_back({Op::V_MOV_B32, vregOperand(to, half),
                              {from->isImm() ? mir::immOperand(half == Part::Lo ? from->imm & 0xffffffffu : from->imm >> 32)
                                             : vregOperand(reg(from->reg, 64), half)}});
      fn_.pairs.push_back({fresh, compare});
      MOperand quad;
      quad.kind = MOperand::Kind::Pair;
      quad.vreg = fresh;
      quad.vregHi = compare;
      data = quad;
    } else if (s.atomicOp == AtomicOp::Cas) { // the pair {new, compare}
      const unsigned pair = newTemp(mir::RegClass::V64);
      li.insts.push_back({Op::V_MOV_B32, vregOperand(pair, Part::Lo), {value(s.extra().values[1])}});
      li.insts.push_back({Op::V_MOV_B32, vregOperand(pair, Part::Hi), {value(s.extra().values[0])}});
      data = vregOperand(pair);
    } else {
      data = value(s.extra().values[0]);
    }
    const auto [addr, field] = vectorAddress(li, addressPair(s, li), s.offset, flat);
    li.insts.push_back({*op, dst,
                        {addr, data, mir::immOperand(static_cast<uint64_t>(field) & 0xffffffffu),
                         mir::cachePolicy(atomicScope(s.scope, t_))}});
  }
  if (s.ordered)
    for (const MInst &mi : acquireHalf(s.scope, t_))
      li.insts.push_back(mi);
}

} // namespace p2a::klower
