// Issue order: the wait states the target's hazard table requires (s_nop,
// v_nop) and, on gfx11+, s_delay_alu hints.
#include "lowering/lowering.hpp"

namespace p2a::klower {

void Lowering::append(const std::string &line, std::vector<std::string> &lines, int stmt) {
  lines.push_back(line);
  out_.code.push_back(line);
  out_.codeStmt.push_back(stmt);
}

void Lowering::issue(const std::string &line, targets::InstFacts facts, const targets::AluInstr &alu,
           std::vector<std::string> &lines, int stmt) {
  while (std::optional<targets::HazardHit> h = targets::findHazard(history_, facts, t_)) {
    if (h->needsValu) {
      targets::InstFacts nopFacts;
      nopFacts.cls = targets::InstClass::Valu;
      nopFacts.mnemonic = "v_nop";
      record("v_nop", nopFacts, targets::AluInstr{targets::AluInstr::Kind::Valu, targets::kValuLatency, 1, {}, {}},
             lines, stmt);
    } else {
      const unsigned n = std::min(h->missingStates, 16u);
      targets::InstFacts nopFacts;
      nopFacts.mnemonic = "s_nop";
      record("s_nop " + std::to_string(n - 1), nopFacts,
             targets::AluInstr{targets::AluInstr::Kind::Salu, targets::kSaluLatency, n, {}, {}}, lines, stmt);
    }
  }
  facts.mnemonic = line.substr(0, line.find(' '));
  record(line, facts, alu, lines, stmt);
}

void Lowering::record(const std::string &line, const targets::InstFacts &facts, const targets::AluInstr &alu,
            std::vector<std::string> &lines, int stmt) {
  if (t_.generation >= targets::Generation::GFX11)
    if (std::optional<targets::AluDelayTracker::Hint> hint = delays_.issue(alu)) {
      if (hint->patchOpen && openDelay_) {
        (*openDelay_->lines)[openDelay_->line] = hint->text;
        out_.code[openDelay_->code] = hint->text;
        openDelay_.reset();
      } else {
        append(hint->text, lines, stmt);
        openDelay_.reset();
        if (hint->leavesOpen)
          openDelay_ = OpenDelay{&lines, lines.size() - 1, out_.code.size() - 1};
      }
    }
  append(line, lines, stmt);
  history_.push_back({facts, alu.cycles, static_cast<long>(out_.code.size() - 1)});
  if (history_.size() > 16)
    history_.pop_front();
}

void Lowering::push(const std::string &line, std::vector<std::string> &lines, int stmt,
          const std::vector<unsigned> &readKeys) {
  const std::string m = line.substr(0, line.find(' '));
  targets::InstFacts f;
  targets::AluInstr a;
  a.latency = targets::kSaluLatency;
  if (m.rfind("s_load", 0) == 0) {
    f.cls = targets::InstClass::Smem;
    a.kind = targets::AluInstr::Kind::Other;
  } else if (targets::isCacheMaintenance(m)) {
    f.cls = targets::InstClass::Vmem;
    a.kind = targets::AluInstr::Kind::Reset;
  } else if (m == "s_branch" || m.rfind("s_cbranch", 0) == 0) {
    f.cls = targets::InstClass::Branch;
  } else if (m.rfind("s_wait", 0) == 0 || m == "s_nop" || m.rfind("s_barrier", 0) == 0 || m == "s_endpgm") {
    f.cls = targets::InstClass::Other;
  } else {
    f.cls = targets::InstClass::Salu;
  }
  for (unsigned k : readKeys)
    if (k >= 1000 && k < 2000) {
      f.sgprReads.push_back(k - 1000);
      a.reads.push_back(k);
    }
  issue(line, f, a, lines, stmt);
}

void Lowering::describe(const MInst &mi, targets::InstFacts &f, targets::AluInstr &a) const {
  const amd::OpDef &def = amd::opDef(mi.op);
  switch (def.encoding) {
  case amd::Encoding::SOP1:
  case amd::Encoding::SOP2:
  case amd::Encoding::SOPC:
    f.cls = targets::InstClass::Salu;
    a.kind = targets::AluInstr::Kind::Salu;
    a.latency = targets::kSaluLatency;
    break;
  case amd::Encoding::VMEM:
    f.cls = targets::InstClass::Vmem;
    a.kind = targets::AluInstr::Kind::Reset;
    break;
  case amd::Encoding::DS:
    f.cls = targets::InstClass::Lds;
    a.kind = targets::AluInstr::Kind::Reset;
    break;
  case amd::Encoding::SMEM:
    f.cls = targets::InstClass::Smem;
    a.kind = targets::AluInstr::Kind::Other;
    break;
  default:
    f.cls = targets::InstClass::Valu;
    a.kind = targets::AluInstr::Kind::Valu;
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
  }
  // Hazard facts number SGPRs as the hardware does (VCC = 106/107);
  // delays track explicit registers only, so VCC (implicit in the VOP2
  // carry forms) is left out there.
  auto add = [&](const MOperand &o, bool write) {
    for (unsigned k : keys(o)) {
      if (k >= 2000) {
        for (unsigned i = 0; i < (t_.wave_size == 64 ? 2u : 1u); ++i)
          (write ? f.sgprWrites : f.sgprReads).push_back(106 + i);
        continue;
      }
      if (k >= 1000)
        (write ? f.sgprWrites : f.sgprReads).push_back(k - 1000);
      else
        (write ? f.vgprWrites : f.vgprReads).push_back(k);
      (write ? a.writes : a.reads).push_back(k);
    }
  };
  add(mi.dst, true);
  for (const MOperand &o : mi.srcs)
    add(o, false);
  if (def.writesVcc())
    add(MOperand{MOperand::Kind::Vcc, 0, 0, Part::Whole, 0}, true);
  if (def.encoding == amd::Encoding::VMEM && def.dst == amd::Slot::None)
    f.storeDataBytes = def.srcs[1] == amd::Slot::V64 ? 8 : 4;
}

} // namespace p2a::klower
