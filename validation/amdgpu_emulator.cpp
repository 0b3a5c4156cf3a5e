// The AMDGPU emulator (amdgpu_emulator.hpp): workgroups, waves, ALU and
// scalar instructions; memory instructions are in emulated_memory.cpp.
#include "validation/emulator_parts.hpp"

#include "targets/fence_scope.hpp"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace p2a::emu {

namespace detail {

Emulator::Emulator(const LoadedKernel &k, const targets::TargetInfo &t, const Launch &l, GlobalMemory &mem, const Options &o)
    : k_(k), t_(t), hazardRules_(targets::hazardRulesFor(t)), l_(l), mem_(mem), o_(o),
      W_(k.descriptor.wavefrontSize32() ? 32 : 64),
      nv_(k.descriptor.vgprCount(t)) {
  for (const amd::OpDef &d : amd::allOps()) {
    if (d.semantics && amd::available(d.op, t))
      byMnemonic_.insert({stripEncoding(amd::mnemonic(d.op, t)), d.op});
    if (d.encoding == amd::Encoding::CacheMaintenance)
      cacheMaintenance_.insert(amd::mnemonic(d.op, t));
  }
  if (o.stats && o.timing) {
    // One question to the scheduling model per distinct instruction text.
    std::map<std::string, std::pair<unsigned, unsigned>> byText;
    for (const mc::Assembler::DecodedInst &d : k.code) {
      auto [it, fresh] = byText.emplace(d.text, std::pair<unsigned, unsigned>{1, 1});
      if (!fresh)
        continue;
      std::vector<mc::McDiagnostic> diags;
      if (std::optional<std::vector<mc::InstCost>> c = o.timing->costs(d.text, diags); c && c->size() == 1)
        it->second = {std::max(1u, c->front().latency),
                      std::max(1u, static_cast<unsigned>(std::ceil(c->front().rthroughput)))};
    }
    for (const mc::Assembler::DecodedInst &d : k.code)
      timing_.push_back(byText.at(d.text));
  }
  // Each instruction's memory-table entry, found once: the table's
  // mnemonics are spelled per target, and a search per executed instruction
  // was a fifth of a warp-operation check's time.
  std::map<std::string, const MemOp *, std::less<>> memOpByMnemonic;
  for (const MemOp &mo : memOps())
    memOpByMnemonic.emplace(t.mnemonic(mo.gfx9Name), &mo); // (the first entry of a mnemonic, as a search finds)
  for (size_t i = 0; i < k.code.size(); ++i) {
    parsed_.push_back(parseText(k.code[i].text, W_));
    auto it = memOpByMnemonic.find(parsed_.back().mnemonic);
    memOpAt_.push_back(it == memOpByMnemonic.end() ? nullptr : it->second);
    offsetIndex_[k.code[i].offset] = i;
  }
}

std::optional<Fault> Emulator::run() {
  if (W_ != t_.wave_size)
    return Fault{"the descriptor asks for wave" + std::to_string(W_) + " but " + t_.name + " code is wave" +
                     std::to_string(t_.wave_size) + " here",
                 -1};
  if (k_.descriptor.userFlatScratchInit() && t_.architected_flat_scratch)
    return Fault{t_.name + " sets up flat scratch itself; the descriptor must not ask for flat_scratch_init", -1};
  if (k_.descriptor.privateSegmentEnabled() && !t_.architected_flat_scratch && !k_.descriptor.userFlatScratchInit() &&
      !k_.descriptor.userPrivateSegmentBuffer())
    return Fault{"scratch is enabled but the descriptor asks for neither flat_scratch_init nor the private segment "
                     "buffer: on " + t_.name + " the kernel has no way to reach its scratch",
                 -1};
  for (unsigned bz = 0; bz < l_.grid.z; ++bz)
    for (unsigned by = 0; by < l_.grid.y; ++by)
      for (unsigned bx = 0; bx < l_.grid.x; ++bx) {
        if (std::optional<Fault> f = runWorkgroup(bx, by, bz))
          return f;
        if (o_.afterBlock)
          o_.afterBlock(blockLinear_ + 1);
      }
  return std::nullopt;
}

std::optional<Fault> Emulator::runWorkgroup(unsigned bx, unsigned by, unsigned bz) {
  const KernelDescriptor &kd = k_.descriptor;
  const uint64_t threads = l_.block.count();
  const unsigned waves = static_cast<unsigned>((threads + W_ - 1) / W_);
  lds_.assign(size_t(kd.groupSegmentFixedSize) + l_.dynamicLdsBytes, 0);
  blockLinear_ = (uint64_t(bz) * l_.grid.y + by) * l_.grid.x + bx;
  std::vector<Wave> ws(waves);
  for (unsigned w = 0; w < waves; ++w) {
    Wave &wave = ws[w];
    wave.firstThread = w * W_;
    wave.v.assign(size_t(nv_) * W_, 0xdeadbeefu); // VGPRs start as junk, as on hardware
    for (uint32_t &x : wave.s)
      x = 0xdeadbeefu;
    uint64_t exec = 0;
    for (unsigned lane = 0; lane < W_; ++lane)
      if (wave.firstThread + lane < threads)
        exec |= uint64_t(1) << lane;
    setMask(wave, kExec, exec);
    // User SGPRs, in the fixed order the descriptor's enables define.
    unsigned u = 0;
    auto put64 = [&](uint64_t v) {
      wave.s[u++] = static_cast<uint32_t>(v);
      wave.s[u++] = static_cast<uint32_t>(v >> 32);
    };
    // (AMDGPUUsage "Initial Kernel Execution State": the private segment
    // buffer is a V# whose base the kernel offsets by its wave's offset;
    // buffer_* instructions through it reach the lanes' scratch. The queue
    // pointer holds nothing: no kernel reads the queue but an assert's host call.)
    if (kd.userPrivateSegmentBuffer()) {
      put64(kPrivateBufferBase);
      wave.s[u++] = 0xffffffffu; // NUM_RECORDS
      wave.s[u++] = 0;           // the format and swizzle bits, not modelled
    }
    if (kd.userDispatchPtr())
      put64(l_.dispatchAddress);
    if (kd.userQueuePtr())
      put64(0);
    if (kd.userKernargSegmentPtr())
      put64(l_.kernargAddress);
    if (kd.userDispatchId())
      put64(0);
    if (kd.userFlatScratchInit())
      put64(kScratchInitBase);
    if (kd.userPrivateSegmentSize())
      wave.s[u++] = 0;
    // USER_SGPR_COUNT may pad beyond the enabled ones (the padding holds
    // nothing useful); gfx1100 in wave32 needs at least 16 user + system
    // SGPRs enabled (LLVM FeatureUserSGPRInit16Bug).
    if (u > kd.userSgprCount())
      return Fault{"the descriptor enables " + std::to_string(u) + " user SGPRs but USER_SGPR_COUNT says " +
                       std::to_string(kd.userSgprCount()),
                   -1};
    unsigned system = kd.workgroupInfo() ? 1 : 0;
    for (unsigned d = 0; d < 3; ++d)
      system += kd.workgroupId(d) ? 1 : 0;
    if (t_.min_user_sgpr_count && W_ == 32 && kd.userSgprCount() + system < 16)
      return Fault{"on " + t_.name + " in wave32 at least 16 user and system SGPRs must be enabled (a hardware "
                   "bug); the descriptor enables " + std::to_string(kd.userSgprCount()) + " + " +
                       std::to_string(system) + ": pad USER_SGPR_COUNT",
                   -1};
    u = kd.userSgprCount();
    const unsigned ids[3] = {bx, by, bz};
    if (t_.architected_workgroup_ids) {
      // gfx12: TTMP9 = x, TTMP7 = y | z << 16; the system SGPRs are not
      // written (this model assumes the least the hardware promises).
      wave.s[kTtmp0 + 9] = bx;
      wave.s[kTtmp0 + 7] = (by & 0xffff) | (bz << 16);
    } else {
      for (unsigned d = 0; d < 3; ++d)
        if (kd.workgroupId(d))
          wave.s[u++] = ids[d];
    }
    if (kd.workgroupInfo())
      wave.s[u++] = 0;
    wave.s[kSrcSharedBase + 1] = static_cast<uint32_t>(kSharedAperture >> 32);
    wave.s[kSrcPrivateBase + 1] = static_cast<uint32_t>(kPrivateAperture >> 32);
    // Scratch: each lane's private segment; on kernel-initialised targets
    // the wave's offset arrives last and FLAT_SCRATCH must be computed.
    if (kd.privateSegmentEnabled()) {
      wave.scratch.assign(W_, std::vector<uint8_t>(kd.privateSegmentFixedSize, 0));
      const uint64_t waveOffset = (blockLinear_ * waves + w) * kScratchWaveStride;
      wave.flatScratchExpected = kScratchInitBase + waveOffset;
      wave.scratchWaveOffset = waveOffset;
      if (!t_.architected_flat_scratch)
        wave.s[u++] = static_cast<uint32_t>(waveOffset);
    }
    // Work-item IDs.
    for (unsigned lane = 0; lane < W_; ++lane) {
      const uint64_t lin = wave.firstThread + lane;
      const unsigned x = static_cast<unsigned>(lin % l_.block.x);
      const unsigned y = static_cast<unsigned>((lin / l_.block.x) % l_.block.y);
      const unsigned z = static_cast<unsigned>(lin / (uint64_t(l_.block.x) * l_.block.y));
      const unsigned dims = kd.workItemIdDims();
      if (t_.packed_work_item_ids) {
        wave.v[lane] = x | (dims >= 1 ? y << 10 : 0) | (dims >= 2 ? z << 20 : 0);
      } else {
        wave.v[lane] = x;
        if (dims >= 1 && nv_ > 1)
          wave.v[size_t(1) * W_ + lane] = y;
        if (dims >= 2 && nv_ > 2)
          wave.v[size_t(2) * W_ + lane] = z;
      }
    }
  }
  for (;;) {
    for (Wave &w : ws)
      if (!w.done && !w.atBarrier)
        if (std::optional<Fault> f = runWave(w))
          return f;
    bool live = false;
    uint64_t release = 0; // (the barrier opens when the last wave arrives)
    for (Wave &w : ws) {
      live |= !w.done;
      release = std::max(release, w.atBarrier ? w.cycle : 0);
    }
    if (!live) {
      if (o_.stats)
        for (const Wave &w : ws)
          o_.stats->cycles = std::max(o_.stats->cycles, w.cycle);
      return std::nullopt;
    }
    for (Wave &w : ws) {
      if (w.atBarrier)
        w.cycle = release;
      w.atBarrier = false;
    }
  }
}

uint64_t Emulator::mask(const Wave &w, unsigned sgpr) const {
  return W_ == 64 ? (uint64_t(w.s[sgpr + 1]) << 32) | w.s[sgpr] : w.s[sgpr];
}

void Emulator::setMask(Wave &w, unsigned sgpr, uint64_t m) {
  w.s[sgpr] = static_cast<uint32_t>(m);
  if (W_ == 64)
    w.s[sgpr + 1] = static_cast<uint32_t>(m >> 32);
}

std::optional<Fault> Emulator::checkRange(const Operand &o, long inst) const {
  if (o.kind == Operand::Kind::V && o.index + o.count > nv_)
    return fault(inst, "'" + o.text + "' is beyond the " + std::to_string(nv_) +
                           " VGPRs the kernel descriptor allocates");
  if (o.kind == Operand::Kind::S && o.index + o.count > kNumSgprs)
    return fault(inst, "'" + o.text + "' is not an SGPR the emulator models");
  return std::nullopt;
}

std::vector<unsigned> Emulator::keys(const Operand &o) const {
  std::vector<unsigned> k;
  if (o.kind == Operand::Kind::V)
    for (unsigned i = 0; i < o.count; ++i)
      k.push_back(o.index + i);
  if (o.kind == Operand::Kind::S)
    for (unsigned i = 0; i < o.count; ++i)
      k.push_back(1000 + o.index + i);
  return k;
}

BV Emulator::laneValue(const Wave &w, const Operand &o, amd::Slot slot, unsigned lane) const {
  switch (slot) {
  case amd::Slot::Mask: {
    const uint64_t m = o.kind == Operand::Kind::S ? mask(w, o.index) : o.imm;
    return BV::constant(1, (m >> lane) & 1);
  }
  case amd::Slot::V64:
    if (o.kind == Operand::Kind::V)
      return BV::constant(64, (uint64_t(w.v[size_t(o.index + 1) * W_ + lane]) << 32) | w.v[size_t(o.index) * W_ + lane]);
    if (o.kind == Operand::Kind::S)
      return BV::constant(64, (uint64_t(w.s[o.index + 1]) << 32) | w.s[o.index]);
    return BV::constant(64, o.inlineConst ? o.imm : (o.imm & 0xffffffffu));
  default:
    if (o.kind == Operand::Kind::V)
      return BV::constant(32, w.v[size_t(o.index) * W_ + lane]);
    if (o.kind == Operand::Kind::S)
      return BV::constant(32, w.s[o.index]);
    return BV::constant(32, o.imm & 0xffffffffu);
  }
}

targets::InstFacts Emulator::facts(const Parsed &p, const MemOp *mem) const {
  targets::InstFacts f;
  const std::string &m = p.mnemonic;
  if (mem)
    f.cls = mem->kind == MemOp::ScalarLoad ? InstClass::Smem
            : (mem->kind == MemOp::LdsLoad || mem->kind == MemOp::LdsStore || mem->kind == MemOp::LdsAtomic ||
               mem->kind == MemOp::LdsPermute)
                ? InstClass::Lds
                : InstClass::Vmem;
  else if (m.rfind("v_", 0) == 0)
    f.cls = InstClass::Valu;
  else if (m.rfind("s_cbranch", 0) == 0 || m == "s_branch")
    f.cls = InstClass::Branch;
  else if (m.rfind("s_wait", 0) == 0 || m == "s_nop" || m == "s_endpgm" || m == "s_trap" || m.rfind("s_barrier", 0) == 0 ||
           m == "s_delay_alu" || m == "s_sendmsg" || m == "s_clause")
    f.cls = InstClass::Other;
  else if (m.rfind("s_", 0) == 0)
    f.cls = InstClass::Salu;
  const bool store = mem && (mem->kind == MemOp::GlobalStore || mem->kind == MemOp::LdsStore ||
                             (mem->atomic != AmdAtomic::None && !atomicReturns(p, *mem)));
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const Operand &o = p.ops[i];
    const bool written = !store && f.cls != InstClass::Other && f.cls != InstClass::Branch &&
                         (i == 0 || (i == 1 && carryOut(p)));
    targets::RegisterNumbers &sg = written ? f.sgprWrites : f.sgprReads;
    targets::RegisterNumbers &vg = written ? f.vgprWrites : f.vgprReads;
    for (unsigned k = 0; k < o.count; ++k) {
      if (o.kind == Operand::Kind::S)
        sg.push_back(o.index + k);
      if (o.kind == Operand::Kind::V)
        vg.push_back(o.index + k);
    }
  }
  if (store && mem)
    f.storeDataBytes = mem->bytes;
  f.readsVgprLane = m.rfind("v_readlane", 0) == 0;
  if (m.rfind("v_readlane", 0) == 0 || m.rfind("v_writelane", 0) == 0)
    if (p.ops.size() >= 3 && p.ops[2].kind == Operand::Kind::S)
      f.laneSelectSgprs.push_back(p.ops[2].index);
  return f;
}

bool Emulator::carryOut(const Parsed &p) const {
  auto it = byMnemonic_.find(stripEncoding(p.mnemonic));
  return it != byMnemonic_.end() && amd::opDef(it->second).writesVcc();
}

std::optional<Fault> Emulator::checkHazards(Wave &w, const targets::InstFacts &f, long inst) {
  std::optional<targets::HazardHit> h = targets::findHazard(w.history, f, hazardRules_);
  if (!h)
    return std::nullopt;
  return fault(inst, "hazard '" + h->rule->name + "': '" + k_.code[size_t(inst)].text + "' follows '" +
                         k_.code[size_t(h->producer->instruction)].text + "' with " +
                         (h->needsValu ? std::string("no VALU instruction")
                                       : std::to_string(h->statesBetween) + " wait state(s)") +
                         " between; " + h->rule->cite);
}

namespace {

// `value` (source operand `src`) with each 32-bit word that destination
// `dst` (a VGPR pair) overlaps replaced by an unspecified one.
BV withOverwrittenWords(const BV &value, const Operand &src, const Operand &dst, amd::EvalContext &ec) {
  if (src.kind != Operand::Kind::V)
    return value;
  uint64_t v = value.value();
  for (unsigned k = 0; k < value.width() / 32 && k < src.count; ++k)
    if (src.index + k >= dst.index && src.index + k < dst.index + 2) {
      const uint64_t junk = ec.unspecified(32).value();
      v = (v & ~(0xffffffffull << (32 * k))) | (junk << (32 * k));
    }
  return BV::constant(value.width(), v);
}

} // namespace

std::optional<Fault> Emulator::execAlu(Wave &w, const Parsed &written, long inst) {
  std::string key = stripEncoding(written.mnemonic);
  // v_cmpx_*: the compare, its result written to EXEC too (Vega ISA 12.8
  // "VOPC": also to VCC or the SGPR destination; gfx10+ (RDNA ISA "VOPC"):
  // to EXEC only, with no destination operand). clang guards a kernel's
  // bounds test so.
  const bool writesExec = key.rfind("v_cmpx_", 0) == 0;
  Parsed withDst;
  if (writesExec) {
    key = "v_cmp_" + key.substr(7);
    auto it = byMnemonic_.find(key);
    if (it != byMnemonic_.end() && written.ops.size() == amd::opDef(it->second).srcs.size()) {
      withDst = written;
      Operand none;
      none.kind = Operand::Kind::Null;
      none.text = "(EXEC only)";
      withDst.ops.insert(withDst.ops.begin(), none);
    }
  }
  // SDWA (gfx9/gfx10, Vega ISA 6.3.2 "SDWA"): the 32-bit operation on a
  // byte or word of each source (zero- or, with sext(), sign-extended), its
  // result written to a byte or word of the destination, the other bits
  // zeroed, sign-extended or kept (dst_unused).
  struct Sel {
    unsigned shift = 0, bits = 32;
    bool sext = false;
  };
  Sel srcSel[2], dstSel;
  enum class Unused { Pad, Sext, Preserve } unused = Unused::Pad;
  const bool sdwa = key.size() > 5 && key.compare(key.size() - 5, 5, "_sdwa") == 0;
  Parsed adjusted;
  std::vector<bool> sextAt; // per operand of `adjusted`
  if (sdwa) {
    key = key.substr(0, key.size() - 5);
    adjusted = withDst.ops.empty() ? written : withDst;
    auto sel = [](const std::string &v, Sel &out) {
      if (v == "DWORD") out = {0, 32};
      else if (v == "WORD_0" || v == "WORD_1") out = {16u * unsigned(v[5] - '0'), 16};
      else if (v.size() == 6 && v.rfind("BYTE_", 0) == 0 && v[5] >= '0' && v[5] <= '3') out = {8u * unsigned(v[5] - '0'), 8};
      else return false;
      return true;
    };
    for (const std::string &m : adjusted.modifiers) {
      const size_t colon = m.find(':');
      const std::string name = m.substr(0, colon), value = colon == std::string::npos ? "" : m.substr(colon + 1);
      bool ok = true;
      if (name == "dst_sel") ok = sel(value, dstSel);
      else if (name == "src0_sel") ok = sel(value, srcSel[0]);
      else if (name == "src1_sel") ok = sel(value, srcSel[1]);
      else if (name == "dst_unused")
        ok = value == "UNUSED_PAD" ? (unused = Unused::Pad, true)
             : value == "UNUSED_SEXT" ? (unused = Unused::Sext, true)
             : value == "UNUSED_PRESERVE" ? (unused = Unused::Preserve, true)
                                          : false;
      else ok = false;
      if (!ok)
        return fault(inst, "modifier '" + m + "' in '" + k_.code[size_t(inst)].text + "' is not modelled");
    }
    adjusted.modifiers.clear();
    // sext(v1): the selected bits sign-extended (which source it is is
    // known once the operation's destinations are).
    sextAt.assign(adjusted.ops.size(), false);
    for (size_t i = 0; i < adjusted.ops.size(); ++i) {
      Operand &o = adjusted.ops[i];
      if (o.kind == Operand::Kind::Other && o.text.rfind("sext(", 0) == 0 && o.text.back() == ')') {
        o = parseOperand(o.text.substr(5, o.text.size() - 6), W_);
        sextAt[i] = true;
      }
    }
  }
  const Parsed &p = sdwa ? adjusted : withDst.ops.empty() ? written : withDst;
  auto has = [&](const char *m) { return std::find(p.modifiers.begin(), p.modifiers.end(), m) != p.modifiers.end(); };
  std::optional<amd::Op> op;
  if (has("clamp")) {
    if (key == t_.mnemonic("v_sub_u32"))
      op = amd::Op::V_SUB_U32_CLAMP;
  } else if (auto it = byMnemonic_.find(key); it != byMnemonic_.end()) {
    op = it->second;
    if (*op == amd::Op::V_SUB_U32_CLAMP) // shares the VOP3 name; without clamp it is the plain subtract
      op = amd::Op::V_SUB_U32;
  }
  for (const std::string &m : p.modifiers)
    if (!has("clamp") && op)
      return fault(inst, "modifier '" + m + "' in '" + k_.code[size_t(inst)].text + "' is not modelled");
  if (sdwa && op) {
    const amd::OpDef &d = amd::opDef(*op);
    if (d.dst == amd::Slot::V64 || std::any_of(d.srcs.begin(), d.srcs.end(), [](amd::Slot s) { return s != amd::Slot::V32; }) ||
        (d.dst == amd::Slot::Mask && dstSel.bits != 32))
      return fault(inst, "SDWA form '" + k_.code[size_t(inst)].text + "' is not modelled");
  }
  if (!op)
    return fault(inst, "unknown instruction '" + k_.code[size_t(inst)].text +
                           "': the emulator does not model it (refusing to guess its effect)");
  const amd::OpDef &def = amd::opDef(*op);
  const size_t ndst = def.writesVcc() ? 2 : 1;
  if (p.ops.size() != ndst + def.srcs.size())
    return fault(inst, "'" + k_.code[size_t(inst)].text + "' has " + std::to_string(p.ops.size()) +
                           " operands; the model of " + def.name + " takes " +
                           std::to_string(ndst + def.srcs.size()));
  for (size_t i = 0; i < sextAt.size(); ++i)
    if (sextAt[i]) {
      if (i < ndst || i - ndst >= 2)
        return fault(inst, "sext() on operand '" + p.ops[i].text + "' of '" + k_.code[size_t(inst)].text +
                               "' is not modelled");
      srcSel[i - ndst].sext = true;
    }
  for (const Operand &o : p.ops) {
    if (o.kind == Operand::Kind::Other || o.kind == Operand::Kind::Off)
      return fault(inst, "operand '" + o.text + "' of '" + k_.code[size_t(inst)].text + "' is not modelled");
    if (std::optional<Fault> f = checkRange(o, inst))
      return f;
  }
  amd::EvalContext ec;
  ec.high16_zeroed = t_.generation <= targets::Generation::GFX9;
  uint32_t junk = 0x2545f491u;
  ec.unspecified = [&junk](unsigned width) {
    junk = junk * 1664525u + 1013904223u;
    return BV::constant(width, junk);
  };
  const Operand &dst = p.ops[0];
  const bool scalar = def.encoding == amd::Encoding::SOP1 || def.encoding == amd::Encoding::SOP2;
  if (scalar && def.dst != amd::Slot::Mask)
    return execScalarValue(w, p, def, ec, inst);
  const uint64_t ex = exec(w);
  // Evaluate every lane from the old state first, then write: a VALU
  // instruction reads all its sources before writing (in-place is fine).
  std::vector<std::optional<BV>> results(W_);
  uint64_t carry = 0;
  // gfx11's MAD forwarding bug (TargetInfo::mad64_overlap_hazard): a
  // v_mad_u64_u32 / v_mad_i64_i32 source word that its own destination
  // overlaps may be read after the instruction wrote it. LLVM forbids the
  // overlap (an early-clobber destination) except with a word whose value
  // does not matter, as clang's v_mad_u64_u32 v[1:2], s15, s2, v[0:1] for
  // a 32-bit result; here such a word reads an unspecified value, so a
  // result that depends on it shows as a wrong result.
  const bool madOverlapHazard =
      t_.mad64_overlap_hazard && (*op == amd::Op::V_MAD_U64_U32 || *op == amd::Op::V_MAD_I64_I32) &&
      dst.kind == Operand::Kind::V;
  std::vector<BV> srcs; // (one allocation for the instruction, reused by each lane)
  srcs.reserve(def.srcs.size());
  for (unsigned lane = 0; lane < W_; ++lane) {
    const bool active = scalar || ((ex >> lane) & 1);
    if (!active && def.dst != amd::Slot::Mask && !def.carryOut)
      continue;
    ec.exec = BV::constant(1, scalar ? 1 : (ex >> lane) & 1);
    ec.lane = lane;
    srcs.clear();
    for (size_t i = 0; i < def.srcs.size(); ++i) {
      srcs.push_back(laneValue(w, p.ops[ndst + i], def.srcs[i], lane));
      if (madOverlapHazard)
        srcs.back() = withOverwrittenWords(srcs.back(), p.ops[ndst + i], dst, ec);
      if (sdwa && i < 2 && (srcSel[i].bits < 32 || srcSel[i].sext)) {
        const BV part = BV::constant(srcSel[i].bits, srcs.back().value() >> srcSel[i].shift);
        srcs.back() = srcSel[i].bits == 32 ? part : srcSel[i].sext ? part.sext(32) : part.zext(32);
      }
    }
    BV r = def.semantics(srcs, ec);
    if (sdwa && dstSel.bits < 32 && def.dst == amd::Slot::V32) {
      const uint64_t field = ((uint64_t(1) << dstSel.bits) - 1) << dstSel.shift;
      const uint64_t placed = (r.value() << dstSel.shift) & field;
      const uint64_t old = dst.kind == Operand::Kind::V ? w.v[size_t(dst.index) * W_ + lane] : 0;
      const bool negative = (placed >> (dstSel.shift + dstSel.bits - 1)) & 1;
      const uint64_t above = ~((uint64_t(1) << (dstSel.shift + dstSel.bits)) - 1) & 0xffffffffull;
      r = BV::constant(32, unused == Unused::Preserve ? (old & ~field) | placed
                           : unused == Unused::Sext    ? placed | (negative ? above : 0)
                                                       : placed);
    }
    if (def.carryOut) {
      auto [value, c] = amd::splitCarry(r);
      carry |= c.value() << lane;
      r = value;
    }
    if (active || def.dst == amd::Slot::Mask)
      results[lane] = r;
  }
  if (def.dst == amd::Slot::Mask) {
    uint64_t m = 0;
    for (unsigned lane = 0; lane < W_; ++lane)
      if (results[lane])
        m |= results[lane]->value() << lane;
    if (dst.kind != Operand::Kind::S && dst.kind != Operand::Kind::Null)
      return fault(inst, "mask destination '" + dst.text + "' is not an SGPR");
    if (writesExec)
      m &= ex; // inactive lanes compare as 0
    if (dst.kind == Operand::Kind::S)
      setMask(w, dst.index, m);
    if (writesExec)
      setMask(w, kExec, m);
    if (scalar && *op != amd::Op::S_MOV_MASK) // (SOP2 logic sets SCC = result != 0; s_mov leaves it)
      w.scc = m != 0;
  } else {
    if (dst.kind != Operand::Kind::V)
      return fault(inst, "destination '" + dst.text + "' is not a VGPR");
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!results[lane])
        continue;
      const uint64_t v = results[lane]->value();
      w.v[size_t(dst.index) * W_ + lane] = static_cast<uint32_t>(v);
      if (def.dst == amd::Slot::V64)
        w.v[size_t(dst.index + 1) * W_ + lane] = static_cast<uint32_t>(v >> 32);
    }
  }
  if (def.carryOut && p.ops[1].kind == Operand::Kind::S)
    setMask(w, p.ops[1].index, carry);
  if (def.clobbersVcc && p.ops[1].kind == Operand::Kind::S) // a value nothing may rely on
    setMask(w, p.ops[1].index, (uint64_t(junk) << 32 | junk) & (W_ == 64 ? ~0ull : 0xffffffffull));
  return std::nullopt;
}

std::optional<Fault> Emulator::execScalarValue(Wave &w, const Parsed &p, const amd::OpDef &def, amd::EvalContext &ec,
                                               long inst) {
  const Operand &dst = p.ops[0];
  if (dst.kind != Operand::Kind::S || dst.count != (def.dst == amd::Slot::V64 ? 2u : 1u))
    return fault(inst, "destination '" + dst.text + "' of a scalar instruction is not an SGPR of its width");
  std::vector<BV> srcs;
  srcs.reserve(def.srcs.size());
  for (size_t i = 0; i < def.srcs.size(); ++i) {
    const Operand &o = p.ops[1 + i];
    if (o.kind == Operand::Kind::V)
      return fault(inst, "scalar instruction '" + k_.code[size_t(inst)].text + "' reads a VGPR");
    srcs.push_back(laneValue(w, o, def.srcs[i], 0));
  }
  ec.exec = BV::constant(1, 1);
  const uint64_t r = def.semantics(srcs, ec).value();
  w.s[dst.index] = static_cast<uint32_t>(r);
  if (def.dst == amd::Slot::V64)
    w.s[dst.index + 1] = static_cast<uint32_t>(r >> 32);
  const std::string m = stripEncoding(p.mnemonic);
  const uint64_t a = srcs[0].value(), b = srcs.size() > 1 ? srcs[1].value() : 0;
  auto starts = [&](const char *prefix) { return m.rfind(prefix, 0) == 0; };
  auto sgn = [](uint64_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x)); };
  if (starts("s_and_") || starts("s_or_") || starts("s_xor_") || starts("s_not_") || starts("s_lshl_") ||
      starts("s_lshr_") || starts("s_ashr_"))
    w.scc = r != 0;
  else if (starts("s_add_"))
    w.scc = (((a ^ r) & (b ^ r)) >> 31) & 1;
  else if (starts("s_sub_"))
    w.scc = (((a ^ b) & (a ^ r)) >> 31) & 1;
  else if (m == "s_min_u32")
    w.scc = uint32_t(a) < uint32_t(b);
  else if (m == "s_max_u32")
    w.scc = uint32_t(a) > uint32_t(b);
  else if (m == "s_min_i32")
    w.scc = sgn(a) < sgn(b);
  else if (m == "s_max_i32")
    w.scc = sgn(a) > sgn(b);
  return std::nullopt; // s_mov, s_mul*: SCC unchanged
}

std::optional<Fault> Emulator::execScalarCompare(Wave &w, const Parsed &p, long inst) {
  static const char *ops[] = {"eq", "lg", "gt", "ge", "lt", "le"};
  // s_cmp_<op>_<u32|i32|u64> S0, S1, or SOPK s_cmpk_<op>_<u32|i32> S0, simm16
  // (the constant zero- or sign-extended by the type; Vega ISA 12.5 SOPK).
  const std::string &m = p.mnemonic;
  const bool sopk = m.rfind("s_cmpk_", 0) == 0;
  const size_t us = m.rfind('_'), at = sopk ? 7 : 6;
  const std::string op = m.substr(at, us - at), ty = m.substr(us + 1);
  if (p.ops.size() != 2 || (ty != "u32" && ty != "i32" && ty != "u64") ||
      std::find(std::begin(ops), std::end(ops), op) == std::end(ops) || (ty == "u64" && op != "eq" && op != "lg"))
    return fault(inst, "unknown instruction '" + k_.code[size_t(inst)].text + "': the emulator does not model it");
  if (sopk && (ty == "u64" || p.ops[0].kind != Operand::Kind::S || p.ops[1].kind != Operand::Kind::Imm))
    return fault(inst, "unknown instruction '" + k_.code[size_t(inst)].text + "': the emulator does not model it");
  auto value = [&](const Operand &o) -> uint64_t {
    if (o.kind == Operand::Kind::S)
      return ty == "u64" ? (uint64_t(w.s[o.index + 1]) << 32) | w.s[o.index] : w.s[o.index];
    if (sopk)
      return ty == "i32" ? uint64_t(int64_t(int16_t(o.imm))) & 0xffffffffu : o.imm & 0xffffu;
    return ty == "u64" ? o.imm : (o.imm & 0xffffffffu);
  };
  uint64_t a = value(p.ops[0]), b = value(p.ops[1]);
  if (ty == "i32") { // order signed values by flipping the sign bit
    a ^= 0x80000000u;
    b ^= 0x80000000u;
  }
  w.scc = op == "eq" ? a == b : op == "lg" ? a != b : op == "gt" ? a > b : op == "ge" ? a >= b : op == "lt" ? a < b : a <= b;
  return std::nullopt;
}

std::optional<Fault> Emulator::execGprIndexing(Wave &w, const Parsed &p, long inst) {
  const std::string m = stripEncoding(p.mnemonic);
  auto unexpected = [&] { return fault(inst, "unexpected operands in '" + k_.code[size_t(inst)].text + "'"); };
  if (m == "s_set_gpr_idx_on") {
    // SOPC (Vega ISA 12.4): M0[7:0] = S0[7:0], M0[15:12] = the mode (the
    // operands the index offsets); until s_set_gpr_idx_off, VALU
    // instructions read and write VGPR (operand + index) there.
    if (p.ops.size() != 2 || (p.ops[0].kind != Operand::Kind::S && p.ops[0].kind != Operand::Kind::Imm))
      return unexpected();
    const std::string &modes = p.ops[1].text;
    if (modes.rfind("gpr_idx(", 0) != 0)
      return unexpected();
    unsigned mode = 0;
    for (auto [name, bit] : {std::pair{"SRC0", 1u}, {"SRC1", 2u}, {"SRC2", 4u}, {"DST", 8u}})
      if (modes.find(name) != std::string::npos)
        mode |= bit;
    const uint32_t index = (p.ops[0].kind == Operand::Kind::S ? w.s[p.ops[0].index] : uint32_t(p.ops[0].imm)) & 0xff;
    w.s[kM0] = (w.s[kM0] & ~0xf0ffu) | index | mode << 12;
    w.gprIdxOn = true;
    w.gprIdx = index;
    w.gprIdxMode = mode;
    return std::nullopt;
  }
  if (m == "s_set_gpr_idx_off") {
    w.gprIdxOn = false;
    return std::nullopt;
  }
  auto vgpr = [&](const Operand &o, unsigned add, unsigned lane) -> uint32_t * {
    if (o.kind != Operand::Kind::V || o.index + add >= nv_)
      return nullptr;
    return &w.v[size_t(o.index + add) * W_ + lane];
  };
  // The moves: under s_set_gpr_idx_on only v_mov_b32 is modelled (what
  // clang emits there: an element extracted or inserted by a variable index).
  unsigned srcAdd = 0, dstAdd = 0;
  if (m == "v_mov_b32" && w.gprIdxOn) {
    srcAdd = w.gprIdxMode & 1 ? w.gprIdx : 0;
    dstAdd = w.gprIdxMode & 8 ? w.gprIdx : 0;
  } else if (m == "v_movrels_b32" || m == "v_movreld_b32" || m == "v_movrelsd_b32") {
    // RDNA ISA "VOP1": D = V[S0 + M0], V[D + M0] = S0, V[D + M0] = V[S0 + M0].
    srcAdd = m == "v_movrels_b32" || m == "v_movrelsd_b32" ? w.s[kM0] : 0;
    dstAdd = m == "v_movreld_b32" || m == "v_movrelsd_b32" ? w.s[kM0] : 0;
  } else {
    return fault(inst, "'" + k_.code[size_t(inst)].text + "' is not modelled" +
                           (w.gprIdxOn ? " under s_set_gpr_idx_on" : ""));
  }
  if (p.ops.size() != 2 || !p.modifiers.empty() || p.ops[0].kind != Operand::Kind::V)
    return unexpected();
  const uint64_t ex = exec(w);
  std::vector<std::pair<uint32_t *, uint32_t>> writes;
  for (unsigned lane = 0; lane < W_; ++lane) {
    if (!((ex >> lane) & 1))
      continue;
    uint32_t value;
    if (p.ops[1].kind == Operand::Kind::V) {
      const uint32_t *src = vgpr(p.ops[1], srcAdd, lane);
      if (!src)
        return fault(inst, "'" + k_.code[size_t(inst)].text + "' reads VGPR " + std::to_string(p.ops[1].index + srcAdd) +
                               ", beyond the " + std::to_string(nv_) + " allocated");
      value = *src;
    } else {
      value = static_cast<uint32_t>(laneValue(w, p.ops[1], amd::Slot::V32, lane).value());
    }
    uint32_t *dst = vgpr(p.ops[0], dstAdd, lane);
    if (!dst)
      return fault(inst, "'" + k_.code[size_t(inst)].text + "' writes VGPR " + std::to_string(p.ops[0].index + dstAdd) +
                             ", beyond the " + std::to_string(nv_) + " allocated");
    writes.push_back({dst, value});
  }
  for (auto &[dst, value] : writes)
    *dst = value;
  return std::nullopt;
}

std::optional<Fault> Emulator::execSaveExec(Wave &w, const Parsed &p, long inst) {
  // s_<op>_saveexec_b32/_b64 sdst, ssrc (Vega ISA 12.3 "SOP1"; RDNA3 ISA
  // spells andn2 and_not1, andn1 and_not0): D = EXEC; EXEC = op(S0, EXEC);
  // SCC = EXEC != 0. clang opens a divergent if so.
  const std::string &m = p.mnemonic;
  const std::string op = m.substr(2, m.find("_saveexec_b") - 2);
  const unsigned bits = m.compare(m.size() - 3, 3, "b64") == 0 ? 64 : 32;
  if (bits != W_ || p.ops.size() != 2 || p.ops[0].kind != Operand::Kind::S ||
      (p.ops[1].kind != Operand::Kind::S && p.ops[1].kind != Operand::Kind::Imm))
    return fault(inst, "unexpected operands in '" + k_.code[size_t(inst)].text + "'");
  const uint64_t all = W_ == 64 ? ~uint64_t(0) : 0xffffffffull;
  const uint64_t e = exec(w), s0 = p.ops[1].kind == Operand::Kind::S ? mask(w, p.ops[1].index) : p.ops[1].imm & all;
  uint64_t r;
  if (op == "and") r = s0 & e;
  else if (op == "or") r = s0 | e;
  else if (op == "xor") r = s0 ^ e;
  else if (op == "andn2" || op == "and_not1") r = s0 & ~e;
  else if (op == "orn2" || op == "or_not1") r = s0 | ~e;
  else if (op == "andn1" || op == "and_not0") r = ~s0 & e;
  else if (op == "orn1" || op == "or_not0") r = ~s0 | e;
  else if (op == "nand") r = ~(s0 & e);
  else if (op == "nor") r = ~(s0 | e);
  else if (op == "xnor") r = ~(s0 ^ e);
  else
    return fault(inst, "unknown instruction '" + k_.code[size_t(inst)].text + "': the emulator does not model it");
  setMask(w, p.ops[0].index, e);
  setMask(w, kExec, r & all);
  w.scc = (r & all) != 0;
  return std::nullopt;
}

std::optional<Fault> Emulator::execDual(Wave &w, long inst) {
  // X :: Y (gfx11+ VOPD, RDNA3 ISA 7.6): two VALU operations issued
  // together; both read their sources before either writes. Each half runs
  // as the VALU instruction it pairs (v_dual_mov_b32 is v_mov_b32;
  // v_dual_cndmask_b32 reads VCC implicitly): Y on a copy of the wave's
  // state as it was, X on the wave, then Y's destination is copied over.
  const std::string &text = k_.code[size_t(inst)].text;
  const size_t sep = text.find(" :: ");
  if (sep == std::string::npos)
    return fault(inst, "cannot read the dual instruction '" + text + "'");
  Parsed halves[2] = {parseText(text.substr(0, sep), W_), parseText(text.substr(sep + 4), W_)};
  for (Parsed &h : halves) {
    if (h.mnemonic.rfind("v_dual_", 0) != 0 || h.ops.empty() || h.ops[0].kind != Operand::Kind::V)
      return fault(inst, "unknown dual instruction '" + text + "'");
    h.mnemonic = "v_" + h.mnemonic.substr(7);
    if (h.mnemonic == "v_cndmask_b32") {
      Operand vcc;
      vcc.kind = Operand::Kind::S;
      vcc.index = kVcc;
      vcc.count = W_ == 64 ? 2 : 1;
      vcc.text = W_ == 64 ? "vcc" : "vcc_lo";
      h.ops.push_back(vcc);
    }
  }
  Wave before = w;
  if (std::optional<Fault> f = execAlu(before, halves[1], inst))
    return f;
  if (std::optional<Fault> f = execAlu(w, halves[0], inst))
    return f;
  const unsigned y = halves[1].ops[0].index;
  std::copy_n(before.v.begin() + size_t(y) * W_, W_, w.v.begin() + size_t(y) * W_);
  return std::nullopt;
}

std::optional<Fault> Emulator::execLaneAccess(Wave &w, const Parsed &p, long inst) {
  // Vega ISA V_READLANE_B32: D (an SGPR) = S0 (a VGPR) of lane S1;
  // V_WRITELANE_B32: lane S1 of D (a VGPR) = S0 (an SGPR or constant). The
  // lane select is an SGPR or constant, taken modulo the wave size; EXEC
  // plays no part.
  const bool read = p.mnemonic == "v_readlane_b32";
  if (p.ops.size() != 3 || p.ops[0].kind != (read ? Operand::Kind::S : Operand::Kind::V) ||
      p.ops[1].kind != (read ? Operand::Kind::V : p.ops[1].kind) || p.ops[0].count != 1 ||
      (p.ops[2].kind != Operand::Kind::S && p.ops[2].kind != Operand::Kind::Imm) ||
      (!read && p.ops[1].kind != Operand::Kind::S && p.ops[1].kind != Operand::Kind::Imm))
    return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
  const unsigned lane =
      static_cast<unsigned>((p.ops[2].kind == Operand::Kind::S ? w.s[p.ops[2].index] : p.ops[2].imm) % W_);
  if (read) {
    w.s[p.ops[0].index] = w.v[size_t(p.ops[1].index) * W_ + lane];
  } else {
    const uint32_t v = p.ops[1].kind == Operand::Kind::S ? w.s[p.ops[1].index] : static_cast<uint32_t>(p.ops[1].imm);
    w.v[size_t(p.ops[0].index) * W_ + lane] = v;
  }
  return std::nullopt;
}

void Emulator::trace(const Wave &w, long inst) {
  if (!o_.trace)
    return;
  const uint64_t first = blockLinear_ * l_.block.count() + w.firstThread;
  if (o_.traceThread < first || o_.traceThread >= first + W_)
    return;
  TraceRecord r;
  r.instruction = static_cast<unsigned>(inst);
  r.lane = static_cast<unsigned>(o_.traceThread - first);
  for (unsigned i = 0; i < nv_; ++i)
    r.vgprs.push_back(w.v[size_t(i) * W_ + r.lane]);
  r.sgprs.assign(std::begin(w.s), std::end(w.s));
  o_.trace->push_back(std::move(r));
}

void Emulator::account(Wave &w, const targets::InstFacts &f, const MemOp *mo, long inst) {
  ++o_.stats->instructions;
  if (timing_.empty())
    return;
  const auto [latency, issue] = timing_[size_t(inst)];
  uint64_t at = w.cycle;
  auto readyOf = [&](unsigned key) {
    auto it = w.ready.find(key);
    return it == w.ready.end() ? 0 : it->second;
  };
  for (unsigned r : f.vgprReads)
    at = std::max(at, readyOf(r));
  for (unsigned r : f.sgprReads)
    at = std::max(at, readyOf(1000 + r));
  w.cycle = at + issue;
  w.lastIssue = at;
  // A load's registers are ready when a wait retires it (retire), at its
  // memory latency (runWave sets it); everything else after its own latency.
  if (mo)
    return;
  for (unsigned r : f.vgprWrites)
    w.ready[r] = at + latency;
  for (unsigned r : f.sgprWrites)
    w.ready[1000 + r] = at + latency;
}

std::optional<Fault> Emulator::runWave(Wave &w) {
  while (!w.done && !w.atBarrier) {
    if (w.pc >= k_.code.size())
      return fault(-1, "execution ran past the end of the code without s_endpgm");
    if (++w.steps > o_.stepLimit)
      return fault(long(w.pc), "a wave executed " + std::to_string(o_.stepLimit) +
                                   " instructions without finishing (an endless loop?)");
    const long inst = static_cast<long>(w.pc);
    const Parsed &p = parsed_[w.pc];
    const MemOp *mo = memOpAt_[w.pc];
    const targets::InstFacts f = facts(p, mo);
    if (std::optional<Fault> fl = checkHazards(w, f, inst))
      return fl;
    if (o_.stats)
      account(w, f, mo, inst);
    if (std::optional<Fault> fl = checkPending(w, p, mo, inst))
      return fl;
    for (const Operand &o : p.ops)
      if (std::optional<Fault> fl = checkRange(o, inst))
        return fl;
    size_t next = w.pc + 1;
    unsigned waitStates = 1;
    const std::string &m = p.mnemonic;
    std::optional<Fault> fl;
    if (mo) {
      const size_t pendingBefore = w.pending.size();
      fl = execMemory(w, p, *mo, inst);
      const unsigned latency = mo->kind == MemOp::ScalarLoad ? kSmemLatency
                               : mo->kind == MemOp::LdsLoad || mo->kind == MemOp::LdsStore ||
                                       mo->kind == MemOp::LdsAtomic || mo->kind == MemOp::LdsPermute
                                   ? kLdsLatency
                                   : kVmemLatency;
      for (size_t i = pendingBefore; o_.stats && i < w.pending.size(); ++i)
        w.pending[i].readyAt = w.lastIssue + latency;
    } else if (m == "s_endpgm") {
      w.done = true;
    } else if (m == "s_nop") {
      waitStates = static_cast<unsigned>(p.ops.empty() ? 1 : (p.ops[0].imm & 0xf) + 1);
    } else if (m == "v_nop") {
      // a VALU instruction with no effect (it counts for VALU-mitigated hazards)
    } else if (m == "s_delay_alu") {
      // a scheduling hint (RDNA3 ISA "s_delay_alu"): no architectural effect
    } else if (m == "s_clause") {
      // gfx10+: the next memory instructions issue as a group (RDNA2 ISA
      // "S_CLAUSE"), a performance hint with no effect on results
    } else if (m == "s_sendmsg" && k_.code[size_t(inst)].text.find("MSG_DEALLOC_VGPRS") != std::string::npos) {
      // gfx11+: the wave gives its VGPRs back before s_endpgm (a hint LLVM
      // emits; RDNA3 ISA "S_SENDMSG"): nothing a later instruction sees
    } else if (cacheMaintenance_.count(m)) {
      // write-backs and invalidations: the model's memory is one coherent
      // level, so they change nothing here (tests check they are emitted)
    } else if (m.rfind("s_wait", 0) == 0) {
      fl = execWait(w, p, inst);
    } else if (m == "s_trap") {
      // The trap handler aborts the queue (a PTX trap or a failed assertion).
      return fault(inst, "s_trap " + std::to_string(p.ops.empty() ? 0 : p.ops[0].imm) +
                             ": the wave traps and the queue aborts (a PTX trap or a failed assertion)");
    } else if (m == "s_barrier" || m == "s_barrier_signal") {
      // An LDS access still in flight may land after another wave has
      // passed the barrier: a store it should see, or a load that reads its
      // store. AMDGPUUsage's memory model waits lgkmcnt(0) (gfx12 dscnt(0))
      // for every preceding LDS access before a workgroup barrier.
      for (const PendingLoad &pl : w.pending)
        if ((pl.lds || pl.flat) && !pl.lgkmDone)
          return fault(inst, "'" + k_.code[size_t(inst)].text + "' while '" + pl.text +
                                 "' is in flight: wait for it first (lgkmcnt/dscnt), or another wave may pass the "
                                 "barrier before it lands");
      // (gfx12 splits the barrier; s_barrier_wait is where waves meet)
      w.atBarrier = m == "s_barrier";
    } else if (m == "s_barrier_wait") {
      w.atBarrier = true;
    } else if (m == "s_branch" || m.rfind("s_cbranch_", 0) == 0) {
      // SOPP branch: target = next PC + 4 * simm16 (Vega ISA 4.2).
      const int16_t rel = static_cast<int16_t>(p.ops.empty() ? 0 : p.ops[0].imm);
      bool taken = m == "s_branch";
      const std::string cond = m.size() > 10 ? m.substr(10) : "";
      if (cond == "scc0") taken = !w.scc;
      else if (cond == "scc1") taken = w.scc;
      else if (cond == "vccz") taken = mask(w, kVcc) == 0;
      else if (cond == "vccnz") taken = mask(w, kVcc) != 0;
      else if (cond == "execz") taken = exec(w) == 0;
      else if (cond == "execnz") taken = exec(w) != 0;
      else if (m != "s_branch")
        return fault(inst, "unknown branch '" + m + "'");
      if (taken) {
        const int64_t target = int64_t(k_.code[w.pc].offset + k_.code[w.pc].size) + 4 * int64_t(rel);
        auto it = offsetIndex_.find(static_cast<uint64_t>(target));
        if (it == offsetIndex_.end())
          return fault(inst, "branch target " + std::to_string(target) + " is not an instruction boundary");
        next = it->second;
      }
    } else if (m == "s_mov_b64" && W_ == 32) {
      // (wave64 runs it as the mask move) a 64-bit SGPR pair copy, as the
      // prologue reads the aperture registers.
      // Or a 64-bit constant (clang's loop counters and pointers).
      if (p.ops.size() != 2 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 2 ||
          !((p.ops[1].kind == Operand::Kind::S && p.ops[1].count == 2) || p.ops[1].kind == Operand::Kind::Imm))
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      const bool imm = p.ops[1].kind == Operand::Kind::Imm;
      w.s[p.ops[0].index] = imm ? static_cast<uint32_t>(p.ops[1].imm) : w.s[p.ops[1].index];
      w.s[p.ops[0].index + 1] = imm ? static_cast<uint32_t>(p.ops[1].imm >> 32) : w.s[p.ops[1].index + 1];
    } else if (m == "s_getpc_b64") {
      // The address of the next instruction (Vega ISA 12.3 SOP1).
      if (p.ops.size() != 1 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 2)
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      // (In an unlinked object only differences of such addresses mean
      // anything: a long branch's; a variable's relocation is unresolved
      // there, and check runs the linked code object when a kernel has
      // variables.)
      const uint64_t pc = l_.imageAddress + k_.codeAddress + k_.code[w.pc].offset + k_.code[w.pc].size;
      w.s[p.ops[0].index] = static_cast<uint32_t>(pc);
      // gfx12 zero-extends the 48-bit PC (LLVM hasGetPCZeroExtension)
      w.s[p.ops[0].index + 1] = static_cast<uint32_t>(pc >> 32) & (t_.getpc_zero_extends ? 0xffffu : 0xffffffffu);
    } else if (m == "s_setpc_b64" || m == "s_swappc_b64") {
      // SOP1 (Vega ISA 12.3): PC = S0, a long branch within the kernel or a
      // return; s_swappc_b64 D, S0 also saves the next instruction's
      // address in D, a call (the callee is decoded after the kernel).
      const bool call = m == "s_swappc_b64";
      const Operand &target = p.ops[call ? 1 : 0];
      if (p.ops.size() != (call ? 2u : 1u) || target.kind != Operand::Kind::S || target.count != 2 ||
          (call && (p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 2)))
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      const uint64_t to = w.s[target.index] | (uint64_t(w.s[target.index + 1]) << 32);
      const uint64_t base = l_.imageAddress + k_.codeAddress;
      auto it = offsetIndex_.find(to - base); // (a callee may lie before the kernel: modulo 2^64)
      if (it == offsetIndex_.end())
        return fault(inst, m + " to 0x" + llvm::utohexstr(to) + ", which is no instruction of the kernel" +
                               (call ? std::string(" or a function of its section (a call in an unlinked object: link "
                                                   "it, as a .hsaco, to resolve it)")
                                     : std::string()));
      if (call) {
        const uint64_t ret = base + k_.code[w.pc].offset + k_.code[w.pc].size;
        w.s[p.ops[0].index] = static_cast<uint32_t>(ret);
        w.s[p.ops[0].index + 1] = static_cast<uint32_t>(ret >> 32);
      }
      next = it->second;
    } else if (m == "s_add_u32" || m == "s_addc_u32" || m == "s_add_co_u32" || m == "s_add_co_ci_u32") {
      // (gfx12 spells them s_add_co_u32 / s_add_co_ci_u32)
      // SOP2: D = S0 + S1 (+ SCC), SCC = the carry out.
      if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S)
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      auto val = [&](const Operand &o) -> uint64_t {
        return o.kind == Operand::Kind::S ? w.s[o.index] : (o.imm & 0xffffffffu);
      };
      const bool carryIn = m == "s_addc_u32" || m == "s_add_co_ci_u32";
      const uint64_t sum = val(p.ops[1]) + val(p.ops[2]) + (carryIn && w.scc ? 1 : 0);
      w.s[p.ops[0].index] = static_cast<uint32_t>(sum);
      w.scc = (sum >> 32) != 0;
    } else if (m == "s_addk_i32" || m == "s_movk_i32" || m == "s_mulk_i32") {
      // SOPK (Vega ISA 12.5): D = D + simm16 (SCC = signed overflow), D =
      // simm16, D = D * simm16, the constant sign-extended. clang moves the
      // stack pointer so around a call.
      if (p.ops.size() != 2 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 1 ||
          p.ops[1].kind != Operand::Kind::Imm)
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      const uint32_t k = static_cast<uint32_t>(int32_t(int16_t(p.ops[1].imm))), d = w.s[p.ops[0].index];
      if (m == "s_movk_i32") {
        w.s[p.ops[0].index] = k;
      } else if (m == "s_mulk_i32") {
        w.s[p.ops[0].index] = d * k;
      } else {
        const uint32_t r = d + k;
        w.s[p.ops[0].index] = r;
        w.scc = (((d ^ r) & (k ^ r)) >> 31) & 1;
      }
    } else if (m == "s_add_nc_u64" || m == "s_sub_nc_u64") {
      // gfx12 SOP2 (RDNA4 ISA): D = S0 +/- S1 on 64 bits, SCC unchanged.
      auto val = [&](const Operand &o) -> uint64_t {
        return o.kind == Operand::Kind::S ? (o.count == 2 ? (uint64_t(w.s[o.index + 1]) << 32) | w.s[o.index] : w.s[o.index])
                                          : o.imm;
      };
      if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != 2 ||
          (p.ops[1].kind != Operand::Kind::S && p.ops[1].kind != Operand::Kind::Imm) ||
          (p.ops[2].kind != Operand::Kind::S && p.ops[2].kind != Operand::Kind::Imm))
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      const uint64_t r = m == "s_add_nc_u64" ? val(p.ops[1]) + val(p.ops[2]) : val(p.ops[1]) - val(p.ops[2]);
      w.s[p.ops[0].index] = static_cast<uint32_t>(r);
      w.s[p.ops[0].index + 1] = static_cast<uint32_t>(r >> 32);
    } else if (m == "v_pk_mov_b32") {
      // gfx90a/gfx942 VOP3P (CDNA2 ISA "V_PK_MOV_B32"): D.lo = S0's half
      // op_sel[0] picks, D.hi = S1's half op_sel[1] picks, in active lanes.
      unsigned sel0 = 0, sel1 = 1;
      for (const std::string &mod : p.modifiers)
        if (mod.size() == 12 && mod.rfind("op_sel:[", 0) == 0 && mod[9] == ',' && mod[11] == ']') {
          sel0 = unsigned(mod[8] - '0') & 1;
          sel1 = unsigned(mod[10] - '0') & 1;
        } else {
          return fault(inst, "modifier '" + mod + "' in '" + k_.code[w.pc].text + "' is not modelled");
        }
      if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::V || p.ops[0].count != 2)
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      const uint64_t ex = exec(w);
      for (unsigned lane = 0; lane < W_; ++lane) {
        if (!((ex >> lane) & 1))
          continue;
        const uint64_t a = laneValue(w, p.ops[1], amd::Slot::V64, lane).value();
        const uint64_t b = laneValue(w, p.ops[2], amd::Slot::V64, lane).value();
        w.v[size_t(p.ops[0].index) * W_ + lane] = static_cast<uint32_t>(a >> (32 * sel0));
        w.v[size_t(p.ops[0].index + 1) * W_ + lane] = static_cast<uint32_t>(b >> (32 * sel1));
      }
    } else if (m == "s_cselect_b32" || m == "s_cselect_b64") {
      // SOP2 (Vega ISA 12.2): D = SCC ? S0 : S1, SCC unchanged.
      const unsigned words = m == "s_cselect_b64" ? 2 : 1;
      if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S || p.ops[0].count != words)
        return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
      const Operand &pick = w.scc ? p.ops[1] : p.ops[2];
      for (unsigned i = 0; i < words; ++i) {
        uint32_t v = 0;
        if (pick.kind == Operand::Kind::S)
          v = w.s[pick.index + i];
        else if (pick.kind == Operand::Kind::Imm)
          v = static_cast<uint32_t>(pick.imm >> (32 * i));
        else
          return fault(inst, "unexpected operands in '" + k_.code[w.pc].text + "'");
        w.s[p.ops[0].index + i] = v;
      }
    } else if (m == "s_setreg_b32") {
      // gfx10 writes FLAT_SCRATCH through the hardware registers
      // HW_REG_FLAT_SCR_LO/HI (RDNA ISA "S_SETREG_B32"); nothing else is modelled.
      const std::string &what = p.ops.empty() ? std::string() : p.ops[0].text;
      if (p.ops.size() != 2 || p.ops[1].kind != Operand::Kind::S || what.find("FLAT_SCR_") == std::string::npos)
        return fault(inst, "unknown instruction '" + k_.code[w.pc].text + "': the emulator does not model it");
      const uint64_t v = w.s[p.ops[1].index];
      if (what.find("FLAT_SCR_LO") != std::string::npos)
        w.flatScratchSet = (w.flatScratchSet & ~0xffffffffull) | v;
      else
        w.flatScratchSet = (w.flatScratchSet & 0xffffffffull) | (v << 32);
    } else if (m.rfind("s_set_gpr_idx_", 0) == 0 || m.rfind("v_movrel", 0) == 0 ||
               (w.gprIdxOn && m.rfind("v_", 0) == 0)) {
      fl = execGprIndexing(w, p, inst);
    } else if (m.find("_saveexec_b") != std::string::npos) {
      fl = execSaveExec(w, p, inst);
    } else if (m.rfind("s_cmp_", 0) == 0 || m.rfind("s_cmpk_", 0) == 0) {
      // SOPC (Vega ISA 12.4): SCC = S0 op S1 on 32 or 64 bits.
      fl = execScalarCompare(w, p, inst);
    } else if (m.rfind("v_dual_", 0) == 0) {
      fl = execDual(w, inst);
    } else if (m == "v_readlane_b32" || m == "v_writelane_b32") {
      fl = execLaneAccess(w, p, inst);
    } else {
      fl = execAlu(w, p, inst);
    }
    if (fl)
      return fl;
    w.history.push({f, waitStates, inst});
    trace(w, inst);
    w.pc = next;
  }
  return std::nullopt;
}

} // namespace detail

using detail::Emulator;

std::optional<Fault> run(const LoadedKernel &k, const targets::TargetInfo &t, const Launch &launch,
                         GlobalMemory &memory, const Options &options) {
  return Emulator(k, t, launch, memory, options).run();
}

std::vector<uint8_t> dispatchPacket(const Dim3 &grid, const Dim3 &block, uint64_t kernargAddress) {
  // hsa_kernel_dispatch_packet_t: header u16, setup u16 (dimensions),
  // workgroup_size_x/y/z u16, reserved u16, grid_size_x/y/z u32 (in
  // work-items), private/group segment sizes, kernel_object, kernarg_address.
  std::vector<uint8_t> p(64, 0);
  storeLE(&p[2], 2, 3);
  storeLE(&p[4], 2, block.x);
  storeLE(&p[6], 2, block.y);
  storeLE(&p[8], 2, block.z);
  storeLE(&p[12], 4, uint64_t(grid.x) * block.x);
  storeLE(&p[16], 4, uint64_t(grid.y) * block.y);
  storeLE(&p[20], 4, uint64_t(grid.z) * block.z);
  storeLE(&p[40], 8, kernargAddress);
  return p;
}

} // namespace p2a::emu
