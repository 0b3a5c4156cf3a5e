// What the kernel lowering adds in issue order, per target: s_delay_alu
// hints on gfx11+ (targets/alu_delay, checked against cases measured with
// llc-19 -start-before=amdgpu-insert-delay-alu) and the wait states the
// hazard tables require (targets/wait_states findHazard, shared with the
// emulator that checks them).
#include "targets/alu_delay.hpp"
#include "targets/target_info.hpp"
#include "targets/wait_states.hpp"

#include <doctest/doctest.h>

using namespace p2a::targets;

namespace {

RegUnit v(unsigned i) { return vgprUnit(i); }
RegUnit s(unsigned i) { return sgprUnit(i); }

AluInstr valu(RegUnits writes, RegUnits reads = {}, unsigned latency = kValuLatency) {
  return AluInstr{AluInstr::Kind::Valu, latency, 1, std::move(reads), std::move(writes)};
}
AluInstr salu(RegUnits writes, RegUnits reads = {}) {
  return AluInstr{AluInstr::Kind::Salu, kSaluLatency, 1, std::move(reads), std::move(writes)};
}
AluInstr nop(unsigned n) { return AluInstr{AluInstr::Kind::Salu, kSaluLatency, n + 1, {}, {}}; }
AluInstr memory(RegUnits reads) { return AluInstr{AluInstr::Kind::Reset, 1, 1, std::move(reads), {}}; }

// Issues `seq` and returns the hint text before each (empty: none; a patch
// of the open hint is shown as "patch: ...").
std::vector<std::string> hints(const std::vector<AluInstr> &seq) {
  AluDelayTracker t;
  std::vector<std::string> out;
  for (const AluInstr &in : seq) {
    std::optional<AluDelayTracker::Hint> h = t.issue(in);
    out.push_back(!h ? "" : (h->patchOpen ? "patch: " : "") + delayAluText(h->simm16));
  }
  return out;
}

} // namespace

TEST_SUITE("issue order") {

TEST_CASE("s_delay_alu: VALU results are hinted up to 3 issue cycles and 3 VALU instructions back") {
  // v_add v0; s_nop 2; v_add reads v0: DEP_1. With s_nop 3 the latency has passed.
  CHECK(hints({valu({v(0)}), nop(2), valu({v(1)}, {v(0)})}).back() == "s_delay_alu instid0(VALU_DEP_1)");
  CHECK(hints({valu({v(0)}), nop(3), valu({v(1)}, {v(0)})}).back().empty());
  // Three SALU instructions between still need the hint; four do not.
  CHECK(hints({valu({v(0)}), salu({s(1)}), salu({s(2)}), salu({s(3)}), valu({v(1)}, {v(0)})}).back() ==
        "s_delay_alu instid0(VALU_DEP_1)");
  CHECK(hints({valu({v(0)}), salu({s(1)}), salu({s(2)}), salu({s(3)}), salu({s(4)}), valu({v(1)}, {v(0)})}).back().empty());
  // Counting VALU back: the producer two VALU instructions earlier is VALU_DEP_2.
  CHECK(hints({valu({v(0)}), valu({v(5)}), valu({v(1)}, {v(0)})}).back() == "s_delay_alu instid0(VALU_DEP_2)");
  // A quarter-rate producer (latency 8) still hints after 3 cycles of s_nop.
  CHECK(hints({valu({v(0)}, {}, kQuarterRateLatency), nop(4), valu({v(1)}, {v(0)})}).back() == "s_delay_alu instid0(VALU_DEP_1)");
}

TEST_CASE("s_delay_alu: SALU results only for the very next instruction; memory resets") {
  CHECK(hints({salu({s(1)}), valu({v(1)}, {s(1)})}).back() == "s_delay_alu instid0(SALU_CYCLE_1)");
  CHECK(hints({salu({s(1)}), nop(0), valu({v(1)}, {s(1)})}).back().empty());
  CHECK(hints({valu({v(0)}), memory({v(0)}), valu({v(1)}, {v(0)})}).back().empty());
  // A VALU writing an SGPR mask and a SALU reading it (explicit operands).
  CHECK(hints({valu({s(2)}), salu({s(3)}, {s(2)})}).back() == "s_delay_alu instid0(VALU_DEP_1)");
}

TEST_CASE("s_delay_alu: a second dependency within five instructions fills instid1") {
  // llc-19: v_add v0; v_add v1,v0; v_add v10..v13; v_add v14,v13 gives
  // instid0(VALU_DEP_1) | instskip(SKIP_4) | instid1(VALU_DEP_1) before v_add v1.
  std::vector<AluInstr> seq = {valu({v(0)}), valu({v(1)}, {v(0)}), valu({v(10)}), valu({v(11)}), valu({v(12)}), valu({v(13)}),
                               valu({v(14)}, {v(13)})};
  std::vector<std::string> h = hints(seq);
  CHECK(h[1] == "s_delay_alu instid0(VALU_DEP_1)");
  CHECK(h[6] == "patch: s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_4) | instid1(VALU_DEP_1)");
  // One more instruction in between: a separate hint.
  seq.insert(seq.begin() + 2, valu({v(15)}));
  CHECK(hints(seq).back() == "s_delay_alu instid0(VALU_DEP_1)");
  // A chain pairs up with NEXT.
  h = hints({valu({v(0)}), valu({v(1)}, {v(0)}), valu({v(2)}, {v(1)})});
  CHECK(h[2] == "patch: s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)");
  // Both a VALU and a SALU dependency: two IDs in one hint (a SALU
  // instruction between does not count as a VALU one), nothing left open.
  h = hints({valu({v(0)}), salu({s(1)}), valu({v(2)}, {v(0), s(1)}), valu({v(3)}, {v(2)})});
  CHECK(h[2] == "s_delay_alu instid0(VALU_DEP_1) | instid1(SALU_CYCLE_1)");
  CHECK(h[3] == "s_delay_alu instid0(VALU_DEP_1)");
}

TEST_CASE("hazards: the wait states still missing before an instruction") {
  const TargetInfo &gfx900 = *findTarget("gfx900");
  InstFacts writeSgpr;
  writeSgpr.cls = InstClass::Valu;
  writeSgpr.sgprWrites = {20};
  InstFacts vmemReads;
  vmemReads.cls = InstClass::Vmem;
  vmemReads.sgprReads = {20, 21};
  IssueHistory history{{writeSgpr, 1, 0}};
  std::optional<HazardHit> h = findHazard(history, vmemReads, gfx900);
  REQUIRE(h);
  CHECK(h->rule->name == "valu-sgpr-write-vmem-read");
  CHECK(h->missingStates == 5);
  history.push({InstFacts{}, 3, 1}); // s_nop 2
  h = findHazard(history, vmemReads, gfx900);
  REQUIRE(h);
  CHECK(h->missingStates == 2);
  history.push({InstFacts{}, 2, 2}); // s_nop 1: five in all
  CHECK(!findHazard(history, vmemReads, gfx900));
  // Not a gfx1030 hazard.
  const TargetInfo &gfx1030 = *findTarget("gfx1030");
  CHECK(!findHazard({{writeSgpr, 1, 0}}, vmemReads, gfx1030));
  // A VMEM reading an SGPR then a SALU writing it: a VALU must come between
  // on gfx101x (LLVM FeatureVMEMtoScalarWriteHazard), not on gfx1030.
  InstFacts saluWrite;
  saluWrite.cls = InstClass::Salu;
  saluWrite.sgprWrites = {21};
  CHECK(!findHazard({{vmemReads, 1, 0}, {InstFacts{}, 16, 1}}, saluWrite, gfx1030));
  TargetInfo gfx101x = gfx1030;
  gfx101x.vmem_to_scalar_write_hazard = true;
  h = findHazard({{vmemReads, 1, 0}, {InstFacts{}, 16, 1}}, saluWrite, gfx101x);
  REQUIRE(h);
  CHECK(h->needsValu);
  InstFacts valuNop;
  valuNop.cls = InstClass::Valu;
  CHECK(!findHazard({{vmemReads, 1, 0}, {valuNop, 1, 1}}, saluWrite, gfx101x));
}

} // TEST_SUITE
