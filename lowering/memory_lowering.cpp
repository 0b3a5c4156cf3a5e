// ld / st in every state space: global (with saddr where the base is
// uniform), FLAT for generic pointers of unknown space, LDS for .shared,
// scratch for .local.
#include "lowering/cache_maintenance.hpp"
#include "lowering/lowering.hpp"

namespace p2a::klower {

void Lowering::lowerMemory(const Stmt &s) {
  mir::LoweredInst &li = begin();
  const unsigned bytes = s.elemBits / 8;
  if (s.space == Space::Param && s.baseIsSymbol) {
    if (s.kind == Stmt::Kind::Store)
      return unsupported(s, "st.param");
    const kernel::Param *p = k_.param(s.extra().base);
    // The dword(s) at `off`: preloaded SGPRs, or past them one s_load from
    // the kernarg segment into a temporary.
    auto dwords = [&](int64_t off, unsigned count) {
      if (uint64_t(off) + 4 * count <= 4ull * paramDwords_)
        return mir::sgprs(kParamSgprs + static_cast<unsigned>(off / 4), count);
      const unsigned t = newTemp(count == 2 ? mir::RegClass::S64 : mir::RegClass::S32);
      li.insts.push_back({count == 2 ? amd::Op::S_LOAD_B64 : amd::Op::S_LOAD_B32, vregOperand(t),
                          {mir::sgprs(kKernargPtr, 2), mir::immOperand(static_cast<uint64_t>(off))}});
      return vregOperand(t);
    };
    for (size_t e = 0; e < s.extra().values.size(); ++e) {
      const int64_t off = int64_t(p->offset) + s.offset + int64_t(e * bytes);
      if (off < 0 || off % std::min(bytes, 4u) || uint64_t(off) + bytes > alignUp(k_.paramBytes, 4)) {
        unsupported(s, "an unaligned kernel parameter read");
        return;
      }
      const MOperand word = dwords(off - off % 4, bytes == 8 ? 2 : 1);
      const MOperand lo = bytes == 8 ? homeHalf(word, Part::Lo) : word, hi = bytes == 8 ? homeHalf(word, Part::Hi) : word;
      if (bytes < 4) {
        // A .u8/.u16 (bool, char, short) parameter: its bits from the dword's
        // SGPR, extended by the load's type (PTX ISA 9.7.9.8 ld: a narrower
        // value is zero- or sign-extended into the register).
        const bool wide = k_.registers.count(s.extra().values[e].reg) && k_.registers.at(s.extra().values[e].reg).width == 64;
        const unsigned d = reg(s.extra().values[e].reg, wide ? 64 : 32);
        const bool sgn = s.elemType == ptx::TypeClass::S;
        li.insts.push_back({sgn ? amd::Op::V_BFE_I32 : amd::Op::V_BFE_U32, vregOperand(d, wide ? Part::Lo : Part::Whole),
                            {lo, mir::immOperand(8 * static_cast<unsigned>(off % 4)),
                             mir::immOperand(8 * bytes)}});
        if (wide) // a 64-bit register: the extension continues into the high half
          li.insts.push_back(sgn ? MInst{amd::Op::V_ASHRREV_I32, vregOperand(d, Part::Hi),
                                         {mir::immOperand(31), vregOperand(d, Part::Lo)}}
                                 : MInst{amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::immOperand(0)}});
        continue;
      }
      const bool wide = k_.registers.count(s.extra().values[e].reg) && k_.registers.at(s.extra().values[e].reg).width == 64;
      if (bytes == 4 && wide) { // ld.param.u32 into a 64-bit register: extended by the load's type (as above)
        const unsigned d = reg(s.extra().values[e].reg, 64);
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {lo}});
        li.insts.push_back(s.elemType == ptx::TypeClass::S
                               ? MInst{amd::Op::V_ASHRREV_I32, vregOperand(d, Part::Hi),
                                       {mir::immOperand(31), vregOperand(d, Part::Lo)}}
                               : MInst{amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::immOperand(0)}});
        continue;
      }
      const unsigned w = bytes == 8 ? 64 : 32;
      const unsigned d = reg(s.extra().values[e].reg, w);
      if (w == 64) {
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {lo}});
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {hi}});
      } else {
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d), {lo}});
      }
    }
    return;
  }
  // A generic access through a pointer known to point into one space is an
  // access to that space (address_spaces.hpp): a shared or local generic
  // address holds the segment offset in its low half.
  Space space = s.space;
  if (space == Space::Generic && !s.baseIsSymbol)
    if (auto it = pointerSpaces_.find(s.extra().base); it != pointerSpaces_.end())
      space = it->second;
  if (space == Space::Shared)
    return lowerShared(s, li);
  if (space == Space::Local)
    return lowerLocal(s, li);
  // (ld.param through a parameter's address reads the kernarg segment, global memory)
  if (s.space != Space::Global && s.space != Space::Generic && s.space != Space::Const &&
      !(s.space == Space::Param && !s.baseIsSymbol))
    return unsupported(s, std::string(s.kind == Stmt::Kind::Load ? "ld." : "st.") + kernel::spaceName(s.space));
  const int64_t limit = int64_t(1) << (t_.global_offset_bits - 1);
  const kernel::Variable *var = s.baseIsSymbol ? variableNamed(s.extra().base) : nullptr;
  if (s.baseIsSymbol && (!var || (var->space != Space::Const && var->space != Space::Global)))
    return unsupported(s, "addressing the variable '" + s.extra().base + "'");
  if (s.baseIsSymbol && s.offset >= 0) {
    // A module variable: its address is in an SGPR pair (set up in the
    // prologue), so the access takes it as the SGPR base (the saddr form)
    // with the kernel's VGPR holding 0 -- or the element's offset
    // (unsigned, added to the base) when it does not fit the immediate field.
    const MOperand sbase = mir::sgprs(variableAddress(s.extra().base), 2);
    for (size_t e = 0; e < s.extra().values.size(); ++e) {
      const int64_t off = s.offset + int64_t(e * bytes);
      const bool fits = off < limit; // (off >= 0: the statement's offset is)
      unsigned vOff;
      if (fits) {
        vOff = zeroVgpr();
      } else {
        vOff = newTemp(mir::RegClass::V32);
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(vOff), {mir::immOperand(uint64_t(off) & 0xffffffffu)}});
      }
      if (!emitElement(s, e, li, kGlobalSaddrOps, vregOperand(vOff), mir::immOperand(fits ? uint64_t(off) : 0), &sbase))
        return;
    }
    return;
  }
  const bool flat = space == Space::Generic && genericReachesSegments_;
  const unsigned base = addressPair(s, li);
  for (size_t e = 0; e < s.extra().values.size(); ++e) {
    const auto [addr, field] = vectorAddress(li, base, s.offset + int64_t(e * bytes), flat);
    if (!emitElement(s, e, li, flat ? kFlatOps : kGlobalOps, addr, mir::immOperand(static_cast<uint64_t>(field) & 0xffffffffu)))
      return;
  }
}

unsigned Lowering::addressPair(const Stmt &s, mir::LoweredInst &li) {
  if (!s.baseIsSymbol)
    return reg(s.extra().base, 64);
  const unsigned sg = variableAddress(s.extra().base);
  const unsigned base = newTemp(mir::RegClass::V64);
  li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(base, Part::Lo), {mir::sgprs(sg)}});
  li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(base, Part::Hi), {mir::sgprs(sg + 1)}});
  return base;
}

std::pair<MOperand, int64_t> Lowering::vectorAddress(mir::LoweredInst &li, unsigned base, int64_t off, bool flat) {
  const int64_t limit = int64_t(1) << (t_.global_offset_bits - 1);
  const int64_t flatLimit = 2048; // FLAT's offset is unsigned, 12 bits (11 on gfx10): 0..2047 everywhere
  if (flat ? (off >= 0 && off < flatLimit) : (off >= -limit && off < limit))
    return {vregOperand(base), off};
  // Out of the instruction's offset range: add it to the address first.
  const unsigned tmp = newTemp(mir::RegClass::V64);
  const uint64_t u = static_cast<uint64_t>(off);
  li.insts.push_back({amd::Op::V_ADD_CO_U32, vregOperand(tmp, Part::Lo),
                      {mir::immOperand(u & 0xffffffffu), vregOperand(base, Part::Lo)}});
  const unsigned hiTmp = newTemp(mir::RegClass::V32);
  li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(hiTmp), {mir::immOperand(u >> 32)}});
  MOperand vcc;
  vcc.kind = MOperand::Kind::Vcc;
  li.insts.push_back({amd::Op::V_ADDC_CO_U32, vregOperand(tmp, Part::Hi),
                      {vregOperand(hiTmp), vregOperand(base, Part::Hi), vcc}});
  return {vregOperand(tmp), 0};
}

namespace {

// The coherence bits of a strong (relaxed or volatile) global or flat access
// at a scope: what llc-19 emits for `load/store atomic ... syncscope(S)
// monotonic` on each target (workgroup, agent, system). Loads bypass the
// caches that are not coherent at the scope; on gfx9-gfx11 stores write
// through anyway, gfx942 and gfx12 tag them too.
mir::CachePolicy strongAccessPolicy(targets::FenceScope scope, bool store, const targets::TargetInfo &t) {
  using mir::CachePolicy;
  using targets::FenceScope;
  if (t.generation >= targets::Generation::GFX12)
    return gfx12ScopePolicy(scope);
  if (t.name == "gfx942")
    return scope == FenceScope::Cta ? CachePolicy::Sc0 : scope == FenceScope::Gpu ? CachePolicy::Sc1 : CachePolicy::Sc0Sc1;
  if (store)
    return CachePolicy::None;
  if (t.generation == targets::Generation::GFX11)
    return CachePolicy::Glc;
  if (t.generation == targets::Generation::GFX10)
    return scope == FenceScope::Cta ? CachePolicy::Glc : CachePolicy::GlcDlc;
  return scope == FenceScope::Cta ? CachePolicy::None : CachePolicy::Glc;
}

} // namespace

bool Lowering::emitElement(const Stmt &s, size_t e, mir::LoweredInst &li, const MemoryOps &ops, const MOperand &addr,
                 const MOperand &offset, const MOperand *sbase) {
  // The address operands: a VGPR (pair), or with an SGPR base a VGPR offset and the base.
  std::vector<MOperand> loadSrcs{addr};
  if (sbase)
    loadSrcs.push_back(*sbase);
  loadSrcs.push_back(offset);
  const unsigned bytes = s.elemBits / 8;
  const ptx::Operand &v = s.extra().values[e];
  const unsigned width = v.isReg() && k_.registers.count(v.reg) ? k_.registers.at(v.reg).width : 32;
  // Only global and flat accesses have cache bits; LDS and scratch are
  // coherent for the lanes that can reach them.
  const bool vmem = &ops == &kGlobalOps || &ops == &kGlobalSaddrOps || &ops == &kFlatOps;
  const mir::CachePolicy policy =
      s.strong && vmem ? strongAccessPolicy(s.scope, s.kind == Stmt::Kind::Store, t_) : mir::CachePolicy::None;
  if (s.kind == Stmt::Kind::Load) {
    const bool sgn = s.elemType == ptx::TypeClass::S;
    const amd::Op op = bytes == 1 ? (sgn ? ops.loadI8 : ops.loadU8)
                       : bytes == 2 ? (sgn ? ops.loadI16 : ops.loadU16)
                       : bytes == 4 ? ops.load32
                                    : ops.load64;
    if (bytes < 8 && width == 64) {
      const unsigned d = reg(v.reg, 64);
      li.insts.push_back({op, vregOperand(d, Part::Lo), loadSrcs, policy});
      if (sgn)
        li.insts.push_back({amd::Op::V_ASHRREV_I32, vregOperand(d, Part::Hi), {mir::immOperand(31), vregOperand(d, Part::Lo)}});
      else
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::immOperand(0)}});
      return true;
    }
    li.insts.push_back({op, vregOperand(reg(v.reg, bytes == 8 ? 64 : 32)), loadSrcs, policy});
    return true;
  }
  const amd::Op op = bytes == 1 ? ops.store8 : bytes == 2 ? ops.store16 : bytes == 4 ? ops.store32 : ops.store64;
  MOperand data;
  if (v.isImm()) {
    data = materialise(li, v.imm, bytes == 8);
  } else {
    if (bytes == 8 && width != 64) {
      unsupported(s, "a 64-bit store from a narrower register");
      return false;
    }
    data = width == 64 && bytes < 8 ? vregOperand(reg(v.reg, 64), Part::Lo)
                                    : vregOperand(reg(v.reg, width == 64 ? 64 : 32));
  }
  std::vector<MOperand> storeSrcs{addr, data};
  if (sbase)
    storeSrcs.push_back(*sbase);
  storeSrcs.push_back(offset);
  li.insts.push_back({op, noOperand(), storeSrcs, policy});
  return true;
}

std::optional<std::pair<MOperand, int64_t>> Lowering::segmentAddress(const Stmt &s, size_t e, mir::LoweredInst &li,
                                                           const std::map<std::string, unsigned> &offsets,
                                                           int64_t maxField, const char *space) {
  int64_t off = s.offset + int64_t(e * (s.elemBits / 8));
  if (s.baseIsSymbol) {
    auto it = offsets.find(s.extra().base);
    if (it == offsets.end()) {
      unsupported(s, "addressing '" + s.extra().base + "' as " + space + " memory");
      return std::nullopt;
    }
    const unsigned tmp = newTemp(mir::RegClass::V32);
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp), {mir::immOperand(uint64_t(it->second + off) & 0xffffffffu)}});
    return std::make_pair(vregOperand(tmp), int64_t(0));
  }
  const unsigned width = k_.registers.count(s.extra().base) ? k_.registers.at(s.extra().base).width : 64;
  const unsigned b = reg(s.extra().base, width == 32 ? 32 : 64);
  MOperand addr = vregOperand(b, width == 32 ? Part::Whole : Part::Lo);
  if (off < 0 || off > maxField) {
    const unsigned tmp = newTemp(mir::RegClass::V32);
    li.insts.push_back({amd::Op::V_ADD_U32, vregOperand(tmp), {mir::immOperand(uint64_t(off) & 0xffffffffu), addr}});
    return std::make_pair(vregOperand(tmp), int64_t(0));
  }
  return std::make_pair(addr, off);
}

void Lowering::lowerShared(const Stmt &s, mir::LoweredInst &li) {
  for (size_t e = 0; e < s.extra().values.size(); ++e) {
    std::optional<std::pair<MOperand, int64_t>> a = segmentAddress(s, e, li, sharedOffset_, 0xffff, "shared");
    if (!a || !emitElement(s, e, li, kLdsOps, a->first, mir::immOperand(static_cast<uint64_t>(a->second))))
      return;
  }
}

void Lowering::lowerLocal(const Stmt &s, mir::LoweredInst &li) {
  for (size_t e = 0; e < s.extra().values.size(); ++e) {
    std::optional<std::pair<MOperand, int64_t>> a = segmentAddress(s, e, li, localOffset_, 2047, "local");
    if (!a || !emitElement(s, e, li, kScratchOps, a->first, mir::immOperand(static_cast<uint64_t>(a->second))))
      return;
  }
}

} // namespace p2a::klower
