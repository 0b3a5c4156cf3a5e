// regalloc::allocate on hand-built machine IR: what the copy and hole
// rules decide, for cases the translated samples reach only by chance.
#include "isel/regalloc.hpp"
#include "targets/target_info.hpp"

#include <doctest/doctest.h>

using namespace p2a;

namespace {

mir::MOperand vreg(unsigned v) {
  return mir::vregOperand(v);
}

// V32 vregs, named in order (their role the default).
void nameVregs(mir::Function &fn, std::initializer_list<const char *> names) {
  for (const char *n : names) {
    fn.vregs.push_back({mir::RegClass::V32});
    fn.setPtxName(static_cast<unsigned>(fn.vregs.size() - 1), n);
  }
}

mir::LoweredInst statement(std::vector<mir::MInst> insts) {
  mir::LoweredInst li;
  li.insts = std::move(insts);
  return li;
}

} // namespace

TEST_SUITE("regalloc") {

TEST_CASE("a copy does not share the register of a source written while the copy lives, vreg 0 included") {
  // 0: a = 1; 1: b = a (a copy; a lives on); 2: a = a + 5; 3: c = a + b.
  // Sharing would let 2 overwrite b. vreg 0's writes were once left out of
  // the check (a plain operand's vregHi is 0 too), so a is vreg 0 here.
  mir::Function fn;
  nameVregs(fn, {"%a", "%b", "%c"});
  fn.body.push_back(statement({{amd::Op::V_MOV_B32, vreg(0), {mir::immOperand(1)}}}));
  fn.body.push_back(statement({{amd::Op::V_MOV_B32, vreg(1), {vreg(0)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(0), {vreg(0), mir::immOperand(5)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(2), {vreg(0), vreg(1)}}}));
  regalloc::LiveIntervals live{{0, 1, 3}, {3, 3, 3}, {{1, 1, 0, 0, 0}}, {}};
  const mir::Allocation a = regalloc::allocate(fn, *targets::findTarget("gfx942"), 0, 0, &live);
  CHECK(a.phys[0] != a.phys[1]);
  // Not written while b lives: the copy takes a's register.
  fn.body[2].insts[0].dst = vreg(2);
  const mir::Allocation shared = regalloc::allocate(fn, *targets::findTarget("gfx942"), 0, 0, &live);
  CHECK(shared.phys[0] == shared.phys[1]);
}

TEST_CASE("a hole lends its registers only to values that end before the value resumes") {
  // a lives 0..5 with a hole (1, 4): b (2..3) fits and takes a's register;
  // c (2..4) does not (it is read where a is written again).
  mir::Function fn;
  nameVregs(fn, {"%a", "%b", "%c", "%d"});
  fn.body.push_back(statement({{amd::Op::V_MOV_B32, vreg(0), {mir::immOperand(1)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(3), {vreg(0), mir::immOperand(2)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(1), {vreg(3), mir::immOperand(3)}},
                               {amd::Op::V_ADD_U32, vreg(2), {vreg(3), mir::immOperand(4)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(3), {vreg(1), vreg(2)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(0), {vreg(2), vreg(3)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(3), {vreg(0), mir::immOperand(6)}}}));
  regalloc::LiveIntervals live{{0, 2, 2, 1}, {5, 3, 4, 5}, {}, {{1, 4}, {}, {}, {}}};
  const mir::Allocation a = regalloc::allocate(fn, *targets::findTarget("gfx942"), 0, 0, &live);
  CHECK(a.phys[1] == a.phys[0]); // b in a's hole
  CHECK(a.phys[2] != a.phys[0]); // c would still hold it at 4
  CHECK(a.numVgprs == 3);        // a and b share; c and d their own (4 without the hole)
}

TEST_CASE("a destination takes a dying source's register only where the rule's proof allows it") {
  // 0: a = 1; 1: b = 2; 2: c = a + b; 3: e = c + 1. Sharing: c takes a's
  // register, e takes c's: two VGPRs instead of three.
  mir::Function fn;
  nameVregs(fn, {"%a", "%b", "%c", "%e"});
  fn.body.push_back(statement({{amd::Op::V_MOV_B32, vreg(0), {mir::immOperand(1)}}}));
  fn.body.push_back(statement({{amd::Op::V_MOV_B32, vreg(1), {mir::immOperand(2)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(2), {vreg(0), vreg(1)}}}));
  fn.body.push_back(statement({{amd::Op::V_ADD_U32, vreg(3), {vreg(2), mir::immOperand(1)}}}));
  regalloc::LiveIntervals live{{0, 1, 2, 3}, {2, 2, 3, 3}, {}, {}};
  const targets::TargetInfo &t = *targets::findTarget("gfx942");
  // No rule said d may be a source: no sharing, whatever is asked.
  const mir::Allocation unmarked = regalloc::allocate(fn, t, 0, 0, &live, regalloc::DyingSources::Always);
  CHECK(unmarked.numVgprs == 3);
  fn.body[2].aliasDst = 2;
  fn.body[2].aliasSrcs = {0, 1};
  fn.body[3].aliasDst = 3;
  fn.body[3].aliasSrcs = {2};
  const mir::Allocation kept = regalloc::allocate(fn, t, 0, 0, &live);
  CHECK(kept.numVgprs == 3);
  const mir::Allocation shared = regalloc::allocate(fn, t, 0, 0, &live, regalloc::DyingSources::Always);
  CHECK(shared.numVgprs == 2);
  CHECK(shared.phys[2] == shared.phys[0]);
  CHECK(shared.phys[3] == shared.phys[2]);
  CHECK(regalloc::scoreOf(fn, shared).betterThan(regalloc::scoreOf(fn, kept)));
  CHECK_FALSE(regalloc::scoreOf(fn, kept).betterThan(regalloc::scoreOf(fn, shared)));
  // WhereFresh: at 2 no register has been given back, so c shares; at 3 a's
  // is not free either (handed on): e shares too.
  CHECK(regalloc::allocate(fn, t, 0, 0, &live, regalloc::DyingSources::WhereFresh).numVgprs == 2);
  // A source that lives on is never taken.
  live.end[0] = 3;
  fn.body[3].insts[0].srcs[1] = vreg(0);
  const mir::Allocation livesOn = regalloc::allocate(fn, t, 0, 0, &live, regalloc::DyingSources::Always);
  CHECK(livesOn.phys[2] != livesOn.phys[0]);
}

} // TEST_SUITE
