#include "lowering/instruction_facts.hpp"

namespace p2a::klower {

using mir::MOperand;
using targets::AluInstr;
using targets::InstClass;
using targets::RegUnit;

targets::RegUnits registerUnits(const MOperand &o) {
  targets::RegUnits units;
  switch (o.kind) {
  case MOperand::Kind::Vcc: units.push_back({RegUnit::File::Vcc, 0}); break;
  case MOperand::Kind::Phys:
    if (o.file == mir::RegFile::Ttmp)
      break;
    for (unsigned i = 0; i < o.physCount; ++i)
      units.push_back({o.file == mir::RegFile::Sgpr ? RegUnit::File::Sgpr : RegUnit::File::Vgpr, o.physIndex + i});
    break;
  case MOperand::Kind::VReg:
  case MOperand::Kind::Pair: throw std::logic_error("registerUnits: a virtual register after layout");
  default: break;
  }
  return units;
}

IssueFacts issueFacts(const mir::MInst &mi, const targets::TargetInfo &t) {
  const amd::OpDef &def = amd::opDef(mi.op);
  IssueFacts r;
  targets::InstFacts &f = r.hazard;
  AluInstr &a = r.alu;
  a.kind = AluInstr::Kind::Salu;
  a.latency = targets::kSaluLatency;
  switch (def.encoding) {
  case amd::Encoding::SOP1:
  case amd::Encoding::SOP2:
  case amd::Encoding::SOPC:
  case amd::Encoding::SOPK: f.cls = InstClass::Salu; break;
  case amd::Encoding::SOPP:
    // Branches, waits, barriers, s_nop: scalar-unit issue for s_delay_alu,
    // neither producers nor consumers of hazards by class.
    f.cls = amd::isBranch(mi.op) ? InstClass::Branch : InstClass::Other;
    if (mi.op == amd::Op::S_NOP)
      a.cycles = static_cast<unsigned>(mi.srcs.at(0).imm) + 1;
    break;
  case amd::Encoding::VMEM:
  case amd::Encoding::CacheMaintenance:
    f.cls = InstClass::Vmem;
    a.kind = AluInstr::Kind::Reset;
    a.latency = 1;
    break;
  case amd::Encoding::DS:
    f.cls = InstClass::Lds;
    a.kind = AluInstr::Kind::Reset;
    a.latency = 1;
    break;
  case amd::Encoding::SMEM:
    f.cls = InstClass::Smem;
    a.kind = AluInstr::Kind::Other;
    a.latency = 1;
    break;
  case amd::Encoding::Pseudo: f.cls = InstClass::Other; break;
  case amd::Encoding::VOP1:
  case amd::Encoding::VOP2:
  case amd::Encoding::VOP3:
  case amd::Encoding::VOPC:
    f.cls = InstClass::Valu;
    a.kind = AluInstr::Kind::Valu;
    switch (mi.op) {
    case amd::Op::V_MUL_LO_U32:
    case amd::Op::V_MUL_HI_U32:
    case amd::Op::V_MUL_HI_I32:
    case amd::Op::V_MAD_U64_U32:
    case amd::Op::V_MAD_I64_I32: a.latency = targets::kQuarterRateLatency; break;
    case amd::Op::V_LSHLREV_B64:
    case amd::Op::V_LSHRREV_B64:
    case amd::Op::V_ASHRREV_I64: a.latency = targets::kValu64ShiftLatency; break;
    default: a.latency = targets::kValuLatency; break;
    }
    break;
  }
  // Hazard facts number SGPRs as the hardware does (VCC = 106/107);
  // delays track explicit registers only, so VCC (implicit in the VOP2
  // carry forms) is left out there.
  auto add = [&](const MOperand &o, bool write) {
    for (const RegUnit &u : registerUnits(o)) {
      switch (u.file) {
      case RegUnit::File::Vcc:
        for (unsigned i = 0; i < (t.wave_size == 64 ? 2u : 1u); ++i)
          (write ? f.sgprWrites : f.sgprReads).push_back(106 + i);
        continue;
      case RegUnit::File::Sgpr: (write ? f.sgprWrites : f.sgprReads).push_back(u.index); break;
      case RegUnit::File::Vgpr: (write ? f.vgprWrites : f.vgprReads).push_back(u.index); break;
      }
      (write ? a.writes : a.reads).push_back(u);
    }
  };
  add(mi.dst, true);
  for (const MOperand &o : mi.srcs)
    add(o, false);
  if (def.writesVcc())
    add(MOperand{MOperand::Kind::Vcc}, true);
  f.readsVgprLane = mi.op == amd::Op::V_READLANE_B32;
  if (def.encoding == amd::Encoding::VMEM && mi.dst.kind == MOperand::Kind::None)
    f.storeDataBytes = def.srcs[1] == amd::Slot::V64 ? 8 : 4;
  return r;
}

} // namespace p2a::klower
