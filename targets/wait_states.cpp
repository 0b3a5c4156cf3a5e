#include "targets/wait_states.hpp"

#include <algorithm>
#include <cstdio>

namespace p2a::targets {

bool storesShareLoadCounter(const TargetInfo &t) { return t.counters == TargetInfo::Counters::Gfx9; }

unsigned counterMax(Counter c, const TargetInfo &t) {
  // vmcnt is 6 bits on gfx9+ (Vega ISA 4.4), lgkmcnt 4 bits on gfx9 and 6 on
  // gfx10/11; vscnt 6 bits; gfx12 loadcnt/storecnt 6 bits, kmcnt 5 bits.
  switch (c) {
  case Counter::VmLoad: return 63;
  case Counter::VmStore: return 63;
  case Counter::Scalar: return t.counters == TargetInfo::Counters::Gfx9 ? 15 : t.counters == TargetInfo::Counters::Gfx12 ? 31 : 63;
  case Counter::Lds: return t.counters == TargetInfo::Counters::Gfx9 ? 15 : 63;
  }
  return 0;
}

std::string waitInstruction(Counter c, unsigned n, const TargetInfo &t) {
  n = std::min(n, counterMax(c, t));
  char buf[64];
  if (c == Counter::Lds) {
    std::snprintf(buf, sizeof buf,
                  t.counters == TargetInfo::Counters::Gfx12 ? "s_wait_dscnt 0x%x" : "s_waitcnt lgkmcnt(%u)", n);
    return buf;
  }
  switch (t.counters) {
  case TargetInfo::Counters::Gfx9:
    std::snprintf(buf, sizeof buf, c == Counter::Scalar ? "s_waitcnt lgkmcnt(%u)" : "s_waitcnt vmcnt(%u)", n);
    break;
  case TargetInfo::Counters::Gfx10:
    if (c == Counter::VmStore)
      std::snprintf(buf, sizeof buf, "s_waitcnt_vscnt null, 0x%x", n);
    else
      std::snprintf(buf, sizeof buf, c == Counter::Scalar ? "s_waitcnt lgkmcnt(%u)" : "s_waitcnt vmcnt(%u)", n);
    break;
  case TargetInfo::Counters::Gfx12:
    std::snprintf(buf, sizeof buf,
                  c == Counter::Scalar ? "s_wait_kmcnt 0x%x" : c == Counter::VmLoad ? "s_wait_loadcnt 0x%x"
                                                                                     : "s_wait_storecnt 0x%x",
                  n);
    break;
  }
  return buf;
}

namespace {

bool gfx9(const TargetInfo &t) { return t.generation == Generation::GFX9; }

bool intersects(llvm::ArrayRef<unsigned> a, llvm::ArrayRef<unsigned> b) {
  for (unsigned x : a)
    if (std::find(b.begin(), b.end(), x) != b.end())
      return true;
  return false;
}

} // namespace

const std::vector<HazardRule> &hazardRules() {
  static const std::vector<HazardRule> rules = {
      {"valu-sgpr-write-vmem-read",
       "Vega ISA 4.5 / MI300 ISA 4.5: VALU writes SGPR -> VMEM reads that SGPR: 5 wait states", 5, false, gfx9,
       [](const InstFacts &p, const InstFacts &c) {
         return p.cls == InstClass::Valu && c.cls == InstClass::Vmem && intersects(p.sgprWrites, c.sgprReads);
       }},
      {"valu-sgpr-write-lane-select",
       "Vega ISA 4.5: VALU writes SGPR/VCC -> v_readlane/v_writelane uses it as the lane select: 4 wait states", 4,
       false, gfx9,
       [](const InstFacts &p, const InstFacts &c) {
         return p.cls == InstClass::Valu && intersects(p.sgprWrites, c.laneSelectSgprs);
       }},
      {"valu-vgpr-write-readlane",
       "MI300 (CDNA3) hazard table, as AMD's rocRoller encodes it (VALUWriteReadlane94x): VALU writes VGPR -> "
       "v_readlane reads that VGPR: 1 wait state",
       1, false, [](const TargetInfo &t) { return t.name == "gfx942"; },
       [](const InstFacts &p, const InstFacts &c) {
         return p.cls == InstClass::Valu && c.readsVgprLane && intersects(p.vgprWrites, c.vgprReads);
       }},
      {"vmem-store-data-overwrite",
       "Vega ISA 4.5: VMEM store of more than 8 bytes -> VALU writes the VGPRs holding its data: 1 wait state", 1,
       false, gfx9,
       [](const InstFacts &p, const InstFacts &c) {
         return p.cls == InstClass::Vmem && p.storeDataBytes > 8 && c.cls == InstClass::Valu &&
                intersects(p.vgprReads, c.vgprWrites);
       }},
      {"vmem-sgpr-read-scalar-write",
       "LLVM GCNHazardRecognizer (gfx101x VMEMtoScalarWriteHazard): VMEM reads an SGPR -> SALU/VALU writes it; "
       "a VALU instruction (or s_waitcnt_depctr 0xffe3) must come between",
       1, true, [](const TargetInfo &t) { return t.vmem_to_scalar_write_hazard; },
       [](const InstFacts &p, const InstFacts &c) {
         return (p.cls == InstClass::Vmem || p.cls == InstClass::Lds) &&
                (c.cls == InstClass::Salu || c.cls == InstClass::Valu) && intersects(p.sgprReads, c.sgprWrites);
       }},
  };
  return rules;
}

std::vector<const HazardRule *> hazardRulesFor(const TargetInfo &t) {
  std::vector<const HazardRule *> rules;
  for (const HazardRule &h : hazardRules())
    if (h.applies(t))
      rules.push_back(&h);
  return rules;
}

std::optional<HazardHit> findHazard(const IssueHistory &history, const InstFacts &next, const TargetInfo &t) {
  return findHazard(history, next, hazardRulesFor(t));
}

std::optional<HazardHit> findHazard(const IssueHistory &history, const InstFacts &next,
                                    llvm::ArrayRef<const HazardRule *> rules) {
  for (const HazardRule *rule : rules) {
    const HazardRule &h = *rule;
    unsigned states = 0, valus = 0;
    for (size_t back = 0; back < history.size(); ++back) {
      const IssuedInstruction *it = &history.fromNewest(back);
      if (h.onlyValuMitigates ? valus > 0 : states >= h.waitStates)
        break;
      if (h.matches(it->facts, next)) {
        HazardHit hit;
        hit.rule = &h;
        hit.producer = it;
        hit.statesBetween = states;
        hit.needsValu = h.onlyValuMitigates;
        hit.missingStates = h.onlyValuMitigates ? 0 : h.waitStates - states;
        return hit;
      }
      states += it->waitStates;
      valus += it->facts.cls == InstClass::Valu;
    }
  }
  return std::nullopt;
}

} // namespace p2a::targets
