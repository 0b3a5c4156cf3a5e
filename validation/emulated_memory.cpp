// The emulator's memory instructions (global, scalar, LDS, scratch, flat,
// atomics) and the waits that retire them (emulator_parts.hpp).
#include "validation/emulator_parts.hpp"

#include "targets/fence_scope.hpp"

#include <algorithm>

namespace p2a::emu::detail {

bool Emulator::atomicReturns(const Parsed &p, const MemOp &mo) {
  if (mo.kind == MemOp::LdsAtomic)
    return p.mnemonic.find("_rtn") != std::string::npos;
  for (const std::string &m : p.modifiers)
    if (m == "glc" || m == "sc0" || m == "th:TH_ATOMIC_RETURN")
      return true;
  return false;
}

std::optional<Fault> Emulator::checkPending(const Wave &w, const Parsed &p, const MemOp *mo, long inst) const {
  // A global or scratch load may overwrite the destination of an earlier
  // one still in flight: VMEM loads return in order (Vega ISA 4.4 "Data
  // dependency resolution"), so the later value lands last, as the pending
  // writes retire here. clang relies on it.
  const bool vmLoad = mo && (mo->kind == MemOp::GlobalLoad || mo->kind == MemOp::ScratchLoad);
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const Operand &o = p.ops[i];
    for (unsigned k : keys(o))
      for (const PendingLoad &pl : w.pending) {
        if (vmLoad && i == 0 && pl.counter == Counter::VmLoad && !pl.flat && !pl.lds)
          continue;
        if (std::find(pl.keys.begin(), pl.keys.end(), k) != pl.keys.end()) {
          const char *counter = pl.flat ? (pl.vmDone ? (t_.counters == targets::TargetInfo::Counters::Gfx12 ? "dscnt" : "lgkmcnt")
                                                     : t_.counters == targets::TargetInfo::Counters::Gfx12 ? "loadcnt" : "vmcnt")
                                : pl.counter == Counter::Scalar ? (t_.counters == targets::TargetInfo::Counters::Gfx12 ? "kmcnt" : "lgkmcnt")
                                : pl.lds ? "lgkmcnt"
                                : t_.counters == targets::TargetInfo::Counters::Gfx12 ? "loadcnt"
                                                                                       : "vmcnt";
          return fault(inst, "'" + k_.code[size_t(inst)].text + "' uses '" + o.text + "' while '" + pl.text +
                                 "' (instruction " + std::to_string(pl.instruction) +
                                 ") may still be writing it: no wait on " + counter + " retired that load");
        }
      }
  }
  return std::nullopt;
}

void Emulator::retire(Wave &w, const PendingLoad &pl) {
  w.cycle = std::max(w.cycle, pl.readyAt); // (the cycle estimate: the wave waited for it)
  for (auto [key, value] : pl.writes) {
    if (pl.counter == Counter::Scalar && !pl.lds) // SMEM writes SGPRs; LDS loads write VGPRs
      w.s[key - 1000] = value;
    else
      w.v[size_t(key / 64) * W_ + key % 64] = value;
  }
}

void Emulator::waitFor(Wave &w, Counter c, bool lds, unsigned n) {
  const bool gfx12 = t_.counters == targets::TargetInfo::Counters::Gfx12;
  const bool lgkmWait = c == Counter::Scalar && (!gfx12 || lds); // lgkmcnt, or gfx12's dscnt
  auto counts = [&](const PendingLoad &pl) {
    if (pl.flat) {
      if (c == Counter::Scalar)
        return lgkmWait && !pl.lgkmDone;
      return !pl.vmDone && (targets::storesShareLoadCounter(t_) || pl.counter == c);
    }
    if (c == Counter::Scalar && lds && gfx12) // s_wait_dscnt: LDS only
      return pl.lds;
    if (c == Counter::Scalar) // lgkmcnt (both) or gfx12's kmcnt (SMEM only)
      return (pl.counter == Counter::Scalar && !pl.lds) || (pl.lds && !gfx12);
    if (pl.lds || pl.counter == Counter::Scalar)
      return false;
    if (targets::storesShareLoadCounter(t_))
      return true;
    return pl.counter == c;
  };
  unsigned outstanding = 0;
  for (const PendingLoad &pl : w.pending)
    outstanding += counts(pl);
  if (outstanding <= n)
    return;
  // SMEM may return out of order; LDS alone (gfx12 dscnt) returns in order.
  const bool inOrder = c != Counter::Scalar || (lds && gfx12);
  if (!inOrder && n != 0)
    return; // which SMEM loads completed is unknown: none is guaranteed
  unsigned toRetire = outstanding - n;
  std::deque<PendingLoad> rest;
  for (PendingLoad &pl : w.pending) {
    if (toRetire && counts(pl)) {
      --toRetire;
      if (pl.flat) {
        (c == Counter::Scalar ? pl.lgkmDone : pl.vmDone) = true;
        if (!pl.lgkmDone || !pl.vmDone) {
          rest.push_back(std::move(pl));
          continue;
        }
      }
      retire(w, pl);
    } else {
      rest.push_back(std::move(pl));
    }
  }
  w.pending = std::move(rest);
}

std::optional<Fault> Emulator::execWait(Wave &w, const Parsed &p, long inst) {
  const std::string &m = p.mnemonic;
  auto num = [&](const std::string &s) -> std::optional<unsigned> {
    std::optional<uint64_t> v = parseInt(s);
    if (!v)
      return std::nullopt;
    return static_cast<unsigned>(*v);
  };
  if (m == "s_waitcnt") {
    // "vmcnt(0) expcnt(0) lgkmcnt(0)" (fields absent = no wait), or a raw
    // immediate, which the printer uses only when no field applies.
    std::string r = p.rest;
    size_t at = 0;
    bool any = false;
    while ((at = r.find('(', at)) != std::string::npos) {
      size_t nameStart = r.rfind(' ', at);
      nameStart = nameStart == std::string::npos ? 0 : nameStart + 1;
      const std::string name = r.substr(nameStart, at - nameStart);
      const size_t close = r.find(')', at);
      std::optional<unsigned> n = num(r.substr(at + 1, close - at - 1));
      if (!n)
        return fault(inst, "cannot read the wait '" + p.rest + "'");
      if (name == "vmcnt")
        waitFor(w, Counter::VmLoad, false, *n);
      else if (name == "lgkmcnt")
        waitFor(w, Counter::Scalar, false, *n);
      at = close;
      any = true;
    }
    if (!any && !num(p.rest))
      return fault(inst, "cannot read the wait '" + p.rest + "'");
    return std::nullopt;
  }
  if (m == "s_waitcnt_vscnt") {
    std::optional<unsigned> n = p.ops.size() == 2 ? num(p.ops[1].text) : std::nullopt;
    if (!n)
      return fault(inst, "cannot read the wait '" + p.rest + "'");
    waitFor(w, Counter::VmStore, false, *n);
    return std::nullopt;
  }
  if (m == "s_wait_loadcnt" || m == "s_wait_storecnt" || m == "s_wait_kmcnt" || m == "s_wait_dscnt") {
    std::optional<unsigned> n = p.ops.size() == 1 ? num(p.ops[0].text) : std::nullopt;
    if (!n)
      return fault(inst, "cannot read the wait '" + p.rest + "'");
    waitFor(w,
            m == "s_wait_loadcnt" ? Counter::VmLoad : m == "s_wait_storecnt" ? Counter::VmStore : Counter::Scalar,
            m == "s_wait_dscnt", *n);
    return std::nullopt;
  }
  if (m == "s_wait_expcnt" || m == "s_wait_samplecnt" || m == "s_wait_bvhcnt")
    return std::nullopt; // exports, image samples, BVH queries: none are outstanding in this model
  if (m == "s_wait_loadcnt_dscnt" || m == "s_wait_storecnt_dscnt") {
    // gfx12 (RDNA4 ISA "S_WAIT_LOADCNT_DSCNT"): SIMM16[13:8] the load or
    // store count, SIMM16[5:0] the LDS count, waited on together.
    if (p.ops.size() != 1 || p.ops[0].kind != Operand::Kind::Imm)
      return fault(inst, "cannot read the wait '" + p.rest + "'");
    const unsigned v = static_cast<unsigned>(p.ops[0].imm);
    waitFor(w, m == "s_wait_loadcnt_dscnt" ? Counter::VmLoad : Counter::VmStore, false, (v >> 8) & 0x3f);
    waitFor(w, Counter::Scalar, true, v & 0x3f);
    return std::nullopt;
  }
  return fault(inst, "unknown wait instruction '" + m + "'");
}

std::optional<Fault> Emulator::execMemory(Wave &w, const Parsed &p, const MemOp &mo, long inst) {
  int64_t offset = 0;
  for (const std::string &m : p.modifiers)
    if (m.rfind("offset:", 0) == 0)
      offset = static_cast<int64_t>(*parseInt(m.substr(7)));
  PendingLoad pl;
  pl.instruction = inst;
  pl.text = k_.code[size_t(inst)].text;
  const uint64_t ex = exec(w);
  if (mo.kind == MemOp::ScalarLoad) {
    // s_load sdst, sbase, offset (Vega ISA 5: byte offset, address = sbase + offset)
    // The offset is an immediate, an SGPR, or `null` (gfx10+ print a zero
    // offset as the null SGPR).
    if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::S || p.ops[1].kind != Operand::Kind::S ||
        (p.ops[2].kind != Operand::Kind::Imm && p.ops[2].kind != Operand::Kind::Null &&
         p.ops[2].kind != Operand::Kind::S))
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    const uint64_t off = p.ops[2].kind == Operand::Kind::Imm ? p.ops[2].imm
                         : p.ops[2].kind == Operand::Kind::S ? w.s[p.ops[2].index]
                                                             : 0;
    const uint64_t addr = (uint64_t(w.s[p.ops[1].index + 1]) << 32 | w.s[p.ops[1].index]) + off;
    const uint8_t *src = mem_.find(addr & ~uint64_t(3), mo.bytes);
    if (!src)
      return fault(inst, "'" + pl.text + "' reads " + std::to_string(mo.bytes) + " bytes at " + hex(addr) +
                             ", out of bounds (" + mem_.describe(addr) + ")");
    pl.counter = Counter::Scalar;
    pl.keys = keys(p.ops[0]);
    for (unsigned d = 0; d < mo.bytes / 4; ++d)
      pl.writes.push_back({1000 + p.ops[0].index + d, static_cast<uint32_t>(loadLE(src + 4 * d, 4))});
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }
  if (mo.kind == MemOp::LdsLoad || mo.kind == MemOp::LdsStore) {
    // ds_read_b32 vdst, vaddr [offset:N] / ds_write_b32 vaddr, vdata [offset:N]
    if (p.ops.size() != 2)
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    pl.counter = Counter::Scalar;
    pl.lds = true;
    const Operand &addrOp = mo.kind == MemOp::LdsLoad ? p.ops[1] : p.ops[0];
    const unsigned dwords = std::max(1u, mo.bytes / 4), chunk = std::min(4u, mo.bytes);
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!((ex >> lane) & 1))
        continue;
      const uint64_t a = uint64_t(w.v[size_t(addrOp.index) * W_ + lane]) + uint64_t(offset);
      if (a + mo.bytes > lds_.size())
        return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses LDS offset " +
                               std::to_string(a) + ", outside the " + std::to_string(lds_.size()) +
                               "-byte allocation");
      for (unsigned d = 0; d < dwords; ++d) {
        if (mo.kind == MemOp::LdsLoad) {
          uint64_t v = loadLE(&lds_[a + 4 * d], chunk);
          if (mo.sign && mo.bytes < 4)
            v = BV::constant(mo.bytes * 8, v).sext(32).value();
          pl.writes.push_back({(p.ops[0].index + d) * 64 + lane, static_cast<uint32_t>(v)});
        } else {
          storeLE(&lds_[a + 4 * d], chunk, w.v[size_t(p.ops[1].index + d) * W_ + lane]);
        }
      }
    }
    if (mo.kind == MemOp::LdsLoad)
      pl.keys = keys(p.ops[0]);
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }
  if (mo.kind == MemOp::LdsPermute) {
    // ds_bpermute_b32 vdst, vaddr, vdata [offset:N]: each active lane gets
    // vdata of lane ((vaddr + offset) / 4) mod the wave size, counted in
    // lgkmcnt like an LDS read. A source lane that is inactive has no
    // defined value here: refuse rather than guess.
    if (p.ops.size() != 3 || p.ops[0].kind != Operand::Kind::V || p.ops[1].kind != Operand::Kind::V ||
        p.ops[2].kind != Operand::Kind::V)
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    pl.counter = Counter::Scalar;
    pl.lds = true;
    for (unsigned lane = 0; lane < W_; ++lane) {
      if (!((ex >> lane) & 1))
        continue;
      const unsigned from = unsigned((uint64_t(w.v[size_t(p.ops[1].index) * W_ + lane]) + uint64_t(offset)) / 4) % W_;
      if (!((ex >> from) & 1))
        return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " reads lane " + std::to_string(from) +
                               ", which is inactive");
      pl.writes.push_back({p.ops[0].index * 64 + lane, w.v[size_t(p.ops[2].index) * W_ + from]});
    }
    pl.keys = keys(p.ops[0]);
    w.pending.push_back(std::move(pl));
    return std::nullopt;
  }
  if (mo.kind == MemOp::GlobalAtomic || mo.kind == MemOp::LdsAtomic || mo.kind == MemOp::FlatAtomic)
    return execAtomic(w, p, mo, inst, offset, std::move(pl));
  if (mo.kind == MemOp::ScratchLoad || mo.kind == MemOp::ScratchStore)
    return execScratch(w, p, mo, inst, offset, std::move(pl));
  if (mo.kind == MemOp::FlatLoad || mo.kind == MemOp::FlatStore)
    return execFlat(w, p, mo, inst, offset, std::move(pl));
  // global_load vdst, vaddr, off|saddr / global_store vaddr, vdata, off|saddr
  const bool store = mo.kind == MemOp::GlobalStore;
  if (p.ops.size() != 3)
    return fault(inst, "unexpected operands in '" + pl.text + "'");
  const Operand &vaddr = store ? p.ops[0] : p.ops[1];
  const Operand &saddr = p.ops[2];
  const Operand &data = store ? p.ops[1] : p.ops[0];
  const unsigned dwords = std::max(1u, mo.bytes / 4);
  pl.counter = store ? Counter::VmStore : Counter::VmLoad;
  for (unsigned lane = 0; lane < W_; ++lane) {
    if (!((ex >> lane) & 1))
      continue;
    uint64_t addr;
    if (saddr.kind == Operand::Kind::Off)
      addr = (uint64_t(w.v[size_t(vaddr.index + 1) * W_ + lane]) << 32) | w.v[size_t(vaddr.index) * W_ + lane];
    else
      addr = ((uint64_t(w.s[saddr.index + 1]) << 32) | w.s[saddr.index]) + w.v[size_t(vaddr.index) * W_ + lane];
    addr += uint64_t(offset);
    uint8_t *ptr = mem_.find(addr, mo.bytes);
    if (!ptr)
      return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses " +
                             std::to_string(mo.bytes) + " bytes at " + hex(addr) + ", out of bounds (" +
                             mem_.describe(addr) + ")");
    transfer(w, pl, mo, store, data, lane, ptr);
  }
  if (!store)
    pl.keys = keys(data);
  w.pending.push_back(std::move(pl));
  return std::nullopt;
}

std::optional<Fault> Emulator::execAtomic(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                          PendingLoad pl) {
  const bool returns = atomicReturns(p, mo), lds = mo.kind == MemOp::LdsAtomic, flat = mo.kind == MemOp::FlatAtomic;
  const bool cmpswap = mo.atomic == AmdAtomic::Cmpswap;
  const size_t first = returns ? 1 : 0;
  const size_t want = first + (lds ? (cmpswap ? 3 : 2) : flat ? 2 : 3); // (global: ", off")
  if (p.ops.size() != want)
    return fault(inst, "unexpected operands in '" + pl.text + "'");
  const Operand &vaddr = p.ops[first];
  // LDS compare-swap: gfx9/10 ds_cmpst takes {cmp, new}, gfx11+ ds_cmpstore {new, cmp}.
  const bool newFirst = !lds || t_.generation >= targets::Generation::GFX11;
  const Operand &data = p.ops[first + 1];
  const unsigned dwords = mo.bytes / 4;
  pl.counter = lds ? Counter::Scalar : returns ? Counter::VmLoad : Counter::VmStore;
  pl.lds = lds;
  pl.flat = flat;
  const uint64_t ex = exec(w);
  auto vreg = [&](unsigned index, unsigned n, unsigned lane) {
    uint64_t v = 0;
    for (unsigned d = 0; d < n; ++d)
      v |= uint64_t(w.v[size_t(index + d) * W_ + lane]) << (32 * d);
    return v;
  };
  for (unsigned lane = 0; lane < W_; ++lane) {
    if (!((ex >> lane) & 1))
      continue;
    uint8_t *ptr;
    uint64_t addr;
    std::string where;
    if (lds) {
      addr = uint64_t(w.v[size_t(vaddr.index) * W_ + lane]) + uint64_t(offset);
      ptr = addr + mo.bytes <= lds_.size() ? &lds_[addr] : nullptr;
      where = "LDS offset " + std::to_string(addr) + ", out of bounds";
    } else if (flat) {
      addr = vreg(vaddr.index, 2, lane) + uint64_t(offset);
      std::optional<Fault> f;
      ptr = flatPointer(w, lane, addr, mo.bytes, inst, pl.text, where, f);
      if (f)
        return f;
    } else {
      addr = vreg(vaddr.index, 2, lane) + uint64_t(offset);
      ptr = mem_.find(addr, mo.bytes);
      where = hex(addr) + ", out of bounds";
    }
    if (!ptr)
      return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses " + std::to_string(mo.bytes) +
                             " bytes at " + where);
    uint64_t value = vreg(data.index, dwords, lane), cmp = 0;
    if (cmpswap) {
      if (lds) {
        const uint64_t other = vreg(p.ops[first + 2].index, dwords, lane);
        cmp = newFirst ? other : value;
        value = newFirst ? value : other;
      } else {
        cmp = vreg(data.index + dwords, dwords, lane);
      }
    }
    const uint64_t old = loadLE(ptr, mo.bytes);
    storeLE(ptr, mo.bytes, amdAtomicResult(mo.atomic, mo.bytes, old, value, cmp));
    if (returns)
      for (unsigned d = 0; d < dwords; ++d)
        pl.writes.push_back({(p.ops[0].index + d) * 64 + lane, static_cast<uint32_t>(old >> (32 * d))});
  }
  if (returns)
    pl.keys = keys(p.ops[0]);
  w.pending.push_back(std::move(pl));
  return std::nullopt;
}

void Emulator::transfer(const Wave &w, PendingLoad &pl, const MemOp &mo, bool store, const Operand &data, unsigned lane,
                        uint8_t *ptr) const {
  const unsigned dwords = std::max(1u, mo.bytes / 4), chunk = std::min(4u, mo.bytes);
  for (unsigned d = 0; d < dwords; ++d) {
    if (store) {
      storeLE(ptr + 4 * d, chunk, w.v[size_t(data.index + d) * W_ + lane]);
      continue;
    }
    uint64_t v = loadLE(ptr + 4 * d, chunk);
    if (mo.sign && mo.bytes < 4)
      v = BV::constant(mo.bytes * 8, v).sext(32).value();
    pl.writes.push_back({(data.index + d) * 64 + lane, static_cast<uint32_t>(v)});
  }
}

std::optional<Fault> Emulator::scratchReady(const Wave &w, long inst, const std::string &text) const {
  if (w.scratch.empty())
    return fault(inst, "'" + text + "' uses scratch, but the descriptor enables no private segment");
  if (!t_.architected_flat_scratch) {
    const uint64_t fs = t_.generation == targets::Generation::GFX9
                            ? (uint64_t(w.s[kFlatScratch + 1]) << 32 | w.s[kFlatScratch])
                            : w.flatScratchSet;
    if (fs != w.flatScratchExpected)
      return fault(inst, "'" + text + "' uses scratch but FLAT_SCRATCH holds " + hex(fs) + ", not flat_scratch_init + "
                         "the wave's offset (" + hex(w.flatScratchExpected) + ")");
  }
  return std::nullopt;
}

uint8_t *Emulator::flatPointer(Wave &w, unsigned lane, uint64_t addr, unsigned bytes, long inst, const std::string &text,
                               std::string &where, std::optional<Fault> &f) {
  // The apertures route a generic address (memory.hpp): LDS, the lane's
  // scratch, else global memory.
  const uint64_t hi = addr >> 32, lo = addr & 0xffffffffu;
  if (hi == kSharedAperture >> 32) {
    where = "LDS offset " + std::to_string(lo) + ", outside the " + std::to_string(lds_.size()) + "-byte allocation";
    return lo + bytes <= lds_.size() ? &lds_[lo] : nullptr;
  }
  if (hi == kPrivateAperture >> 32) {
    if ((f = scratchReady(w, inst, text)))
      return nullptr;
    std::vector<uint8_t> &mem = w.scratch[lane];
    where = "private offset " + std::to_string(lo) + ", outside the " + std::to_string(mem.size()) +
            "-byte private segment";
    return lo + bytes <= mem.size() ? &mem[lo] : nullptr;
  }
  where = hex(addr) + ", out of bounds (" + mem_.describe(addr) + ")";
  return mem_.find(addr, bytes);
}

std::optional<Fault> Emulator::execFlat(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                        PendingLoad pl) {
  const bool store = mo.kind == MemOp::FlatStore;
  if (p.ops.size() != 2 || p.ops[0].kind != Operand::Kind::V || p.ops[1].kind != Operand::Kind::V)
    return fault(inst, "unexpected operands in '" + pl.text + "'");
  const Operand &vaddr = store ? p.ops[0] : p.ops[1];
  const Operand &data = store ? p.ops[1] : p.ops[0];
  pl.counter = store ? Counter::VmStore : Counter::VmLoad;
  pl.flat = true;
  const uint64_t ex = exec(w);
  for (unsigned lane = 0; lane < W_; ++lane) {
    if (!((ex >> lane) & 1))
      continue;
    const uint64_t addr =
        ((uint64_t(w.v[size_t(vaddr.index + 1) * W_ + lane]) << 32) | w.v[size_t(vaddr.index) * W_ + lane]) +
        uint64_t(offset);
    std::string where;
    std::optional<Fault> f;
    uint8_t *ptr = flatPointer(w, lane, addr, mo.bytes, inst, pl.text, where, f);
    if (f)
      return f;
    if (!ptr)
      return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses " + std::to_string(mo.bytes) +
                             " bytes at " + where);
    transfer(w, pl, mo, store, data, lane, ptr);
  }
  if (!store)
    pl.keys = keys(data);
  w.pending.push_back(std::move(pl));
  return std::nullopt;
}

std::optional<Fault> Emulator::execScratch(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                           PendingLoad pl) {
  const bool store = mo.kind == MemOp::ScratchStore;
  // Each lane's private offset: `constant` plus its VGPR `vaddr`, if any.
  const Operand *vaddr = nullptr, *data = nullptr;
  int64_t constant = offset;
  if (p.mnemonic.rfind("buffer_", 0) == 0) {
    // buffer_load vdst, vaddr|off, s[rsrc:+3], soffset [offen] / buffer_store
    // vdata, ...: MUBUF through the private segment buffer (Vega ISA 8.1.5
    // "Buffer addressing"): soffset + offset (+ vaddr with offen). Only that
    // V#, offset by this wave's scratch, is modelled: the hardware swizzles
    // lanes apart, as the lanes' own segments are here.
    if (w.scratch.empty())
      return fault(inst, "'" + pl.text + "' uses scratch, but the descriptor enables no private segment");
    bool offen = false;
    for (const std::string &m : p.modifiers)
      if (m == "offen")
        offen = true;
      else if (m.rfind("offset:", 0) != 0)
        return fault(inst, "modifier '" + m + "' in '" + pl.text + "' is not modelled");
    if (p.ops.size() != 4 || p.ops[0].kind != Operand::Kind::V || p.ops[2].kind != Operand::Kind::S ||
        p.ops[2].count != 4 || (offen != (p.ops[1].kind == Operand::Kind::V)) ||
        (p.ops[3].kind != Operand::Kind::S && p.ops[3].kind != Operand::Kind::Imm))
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    const unsigned r = p.ops[2].index;
    const uint64_t base = w.s[r] | (uint64_t(w.s[r + 1] & 0xffff) << 32);
    if (base != kPrivateBufferBase + w.scratchWaveOffset)
      return fault(inst, "'" + pl.text + "' reads its V# from s[" + std::to_string(r) + ":" + std::to_string(r + 3) +
                             "], which is not the private segment buffer plus this wave's scratch offset (buffers "
                             "other than scratch are not modelled)");
    data = &p.ops[0];
    vaddr = offen ? &p.ops[1] : nullptr;
    constant += p.ops[3].kind == Operand::Kind::S ? int64_t(w.s[p.ops[3].index]) : int64_t(p.ops[3].imm);
  } else {
    // scratch_load vdst, vaddr|off, saddr|off / scratch_store vaddr|off,
    // vdata, saddr|off: vaddr + saddr + offset, each part optional (Vega
    // ISA 9 "Scratch": SV, SS and ST modes).
    if (std::optional<Fault> f = scratchReady(w, inst, pl.text))
      return f;
    const Operand &v = store ? p.ops[0] : p.ops[1];
    data = &(store ? p.ops[1] : p.ops[0]);
    if (p.ops.size() != 3 || data->kind != Operand::Kind::V ||
        (v.kind != Operand::Kind::V && v.kind != Operand::Kind::Off) ||
        (p.ops[2].kind != Operand::Kind::S && p.ops[2].kind != Operand::Kind::Off))
      return fault(inst, "unexpected operands in '" + pl.text + "'");
    vaddr = v.kind == Operand::Kind::V ? &v : nullptr;
    constant += p.ops[2].kind == Operand::Kind::S ? int64_t(int32_t(w.s[p.ops[2].index])) : 0;
  }
  pl.counter = store ? Counter::VmStore : Counter::VmLoad;
  const uint64_t ex = exec(w);
  for (unsigned lane = 0; lane < W_; ++lane) {
    if (!((ex >> lane) & 1))
      continue;
    const int64_t a = constant + (vaddr ? int64_t(w.v[size_t(vaddr->index) * W_ + lane]) : 0);
    std::vector<uint8_t> &mem = w.scratch[lane];
    if (a < 0 || uint64_t(a) + mo.bytes > mem.size())
      return fault(inst, "'" + pl.text + "' lane " + std::to_string(lane) + " accesses private offset " +
                             std::to_string(a) + ", outside the " + std::to_string(mem.size()) +
                             "-byte private segment");
    transfer(w, pl, mo, store, *data, lane, &mem[size_t(a)]);
  }
  if (!store)
    pl.keys = keys(*data);
  w.pending.push_back(std::move(pl));
  return std::nullopt;
}

} // namespace p2a::emu::detail
