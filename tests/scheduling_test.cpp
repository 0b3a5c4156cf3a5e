// Statement scheduling (kernel/transforms/statement_scheduling.hpp): what
// may move, what may not, what it buys in the emulator's cycle estimate and
// what it may not cost in registers. Every kernel also passes `check` on
// every target with the statements moved.
#include "grammar/parser.hpp"
#include "kernel/kernel_ir.hpp"
#include "kernel/transforms/statement_scheduling.hpp"
#include "lowering/kernel_lowering.hpp"
#include "driver/module_translation.hpp"
#include "targets/occupancy.hpp"
#include "targets/target_info.hpp"
#include "validation/check.hpp"
#include "tests/cli_support.hpp"

#include <doctest/doctest.h>

#include <regex>

using namespace p2a;

namespace {

const std::string kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// The kernel's body, decoded and scheduled: each statement's text in the new order.
std::vector<std::string> scheduledTexts(const std::string &src) {
  ::ptx::ParseResult pr = ::ptx::parseModule(src);
  REQUIRE(pr.ok());
  Diagnostics d;
  std::optional<kernel::Kernel> k = kernel::decodeKernel(pr.module, pr.module.functions.at(0), d);
  REQUIRE(k);
  const kernel::Kernel s = kernel::scheduleStatements(*k);
  REQUIRE(s.body.size() == k->body.size());
  std::vector<std::string> texts;
  std::vector<bool> seen(k->body.size(), false);
  for (size_t i = 0; i < s.body.size(); ++i) {
    const size_t from = s.sourceOf(i);
    REQUIRE(from < k->body.size());
    CHECK(!seen[from]); // a permutation
    seen[from] = true;
    CHECK(s.body[i].text == k->body[from].text);
    texts.push_back(s.body[i].text);
  }
  return texts;
}

size_t positionOf(const std::vector<std::string> &texts, const std::string &text) {
  for (size_t i = 0; i < texts.size(); ++i)
    if (texts[i].rfind(text, 0) == 0)
      return i;
  FAIL("no statement " << text);
  return 0;
}

struct Run {
  check::Status status;
  std::string report;
  unsigned cycles = 0, vgprs = 0;
};

Run checkOn(const std::string &src, const targets::TargetInfo &t, bool schedule) {
  check::Options o;
  o.grid = {2, 1, 1};
  o.block = {64, 1, 1};
  o.trials = 2;
  o.estimate = true;
  o.schedule = schedule;
  check::Result r = check::run(src, t, o, p2a::testing::costModel());
  Run run{r.status, r.report};
  std::smatch m;
  if (std::regex_search(r.report, m, std::regex("about ([0-9]+) cycles")))
    run.cycles = static_cast<unsigned>(std::stoul(m[1]));
  if (std::regex_search(r.report, m, std::regex("([0-9]+) VGPRs")))
    run.vgprs = static_cast<unsigned>(std::stoul(m[1]));
  return run;
}

// Two loads, each followed by a chain of ALU work on its value.
const std::string kTwoChains =
    kHeader + ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
              "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r0, %tid.x;\n"
              "mul.wide.u32 %rd3, %r0, 8;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
              "ld.global.u32 %r1, [%rd4];\n"
              "mul.lo.u32 %r2, %r1, %r1;\nxor.b32 %r3, %r2, 85;\nshf.l.wrap.b32 %r4, %r3, %r3, 7;\n"
              "add.u32 %r5, %r4, %r1;\nmul.lo.u32 %r6, %r5, 33;\n"
              "ld.global.u32 %r11, [%rd4+4];\n"
              "mul.lo.u32 %r12, %r11, %r11;\nxor.b32 %r13, %r12, 170;\nshf.l.wrap.b32 %r14, %r13, %r13, 9;\n"
              "add.u32 %r15, %r14, %r11;\nmul.lo.u32 %r16, %r15, 65;\n"
              "add.u32 %r20, %r6, %r16;\nst.global.u32 [%rd5], %r20;\nret;\n}\n";

} // namespace

TEST_SUITE("scheduling") {

TEST_CASE("a load starts before independent work, and the estimated cycles fall on every target") {
  const std::vector<std::string> order = scheduledTexts(kTwoChains);
  CHECK(positionOf(order, "ld.global.u32 %r11") < positionOf(order, "mul.lo.u32 %r2"));
  CHECK(positionOf(order, "ret") == order.size() - 1);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    CAPTURE(t.name);
    const Run moved = checkOn(kTwoChains, t, true), written = checkOn(kTwoChains, t, false);
    CHECK_MESSAGE(moved.status == check::Status::Pass, moved.report);
    CHECK_MESSAGE(written.status == check::Status::Pass, written.report);
    REQUIRE(moved.cycles > 0);
    CHECK(moved.cycles < written.cycles); // one memory latency instead of two
  }
}

TEST_CASE("a load never passes a store or barrier that may order it; read-only loads do") {
  const std::string src =
      kHeader + ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
                ".shared .align 4 .b32 buf[64];\n"
                "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r0, %tid.x;\n"
                "mul.wide.u32 %rd3, %r0, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
                "ld.global.u32 %r1, [%rd4];\nadd.u32 %r2, %r1, 1;\nmul.lo.u32 %r3, %r2, %r2;\n"
                "st.global.u32 [%rd5], %r3;\n"
                "ld.global.u32 %r4, [%rd4+4];\n"     // may alias the store: stays after it
                "ld.global.nc.u32 %r5, [%rd4+8];\n"  // read-only for the kernel: may start first
                "shl.b32 %r6, %r0, 2;\nmov.u32 %r7, buf;\nadd.u32 %r8, %r7, %r6;\n"
                "st.shared.u32 [%r8], %r4;\nbar.sync 0;\n"
                "xor.b32 %r9, %r6, 4;\nadd.u32 %r10, %r7, %r9;\n"
                "ld.shared.u32 %r11, [%r10];\n"      // after the barrier, whatever its latency
                "add.u32 %r12, %r11, %r5;\nst.global.u32 [%rd5+4], %r12;\nret;\n}\n";
  const std::vector<std::string> order = scheduledTexts(src);
  CHECK(positionOf(order, "ld.global.u32 %r4") > positionOf(order, "st.global.u32 [%rd5], %r3"));
  CHECK(positionOf(order, "ld.global.nc.u32 %r5") < positionOf(order, "st.global.u32 [%rd5], %r3"));
  CHECK(positionOf(order, "ld.shared.u32 %r11") > positionOf(order, "bar.sync"));
  CHECK(positionOf(order, "bar.sync") > positionOf(order, "st.shared.u32"));
  for (const targets::TargetInfo &t : targets::allTargets()) {
    const Run r = checkOn(src, t, true);
    CHECK_MESSAGE(r.status == check::Status::Pass, t.name << ": " << r.report);
  }
}

TEST_CASE("a block's branch, and the setp feeding it, stay at its end") {
  const std::string src =
      kHeader + ".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n.reg .b32 %r<40>;\n"
                ".reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
                "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nld.param.u32 %r9, [n];\nmov.u32 %r0, %tid.x;\n"
                "mul.wide.u32 %rd3, %r0, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\nmov.u32 %r1, 0;\n"
                "mov.u32 %r2, 0;\nLOOP:\n"
                "add.u32 %r1, %r1, 1;\n"
                "ld.global.u32 %r3, [%rd4];\nadd.u32 %r2, %r2, %r3;\nadd.s64 %rd4, %rd4, 256;\n"
                "setp.lt.u32 %p1, %r1, 4;\n@%p1 bra LOOP;\n"
                "st.global.u32 [%rd5], %r2;\nret;\n}\n";
  const std::vector<std::string> order = scheduledTexts(src);
  const size_t branch = positionOf(order, "@%p1 bra");
  CHECK(positionOf(order, "setp.lt.u32 %p1") == branch - 1);
  CHECK(positionOf(order, "ld.global.u32 %r3") < positionOf(order, "add.u32 %r1, %r1, 1")); // the load first
  for (const targets::TargetInfo &t : targets::allTargets()) {
    const Run r = checkOn(src, t, true);
    CHECK_MESSAGE(r.status == check::Status::Pass, t.name << ": " << r.report);
  }
}

TEST_CASE("loads are hoisted only as far as the kernel's occupancy and --max-vgprs allow") {
  // Twenty-four loads, each added into a sum right away: hoisting them all
  // holds 24 values at once, which costs no occupancy on these targets.
  std::string body;
  for (int i = 0; i < 24; ++i)
    body += "ld.global.u32 %r" + std::to_string(100 + i) + ", [%rd4+" + std::to_string(4 * i) + "];\n"
            "add.u32 %r" + std::to_string(1 + i + 1) + ", %r" + std::to_string(1 + i) + ", %r" +
            std::to_string(100 + i) + ";\n";
  const std::string src =
      kHeader + ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.reg .b32 %r<200>;\n.reg .b64 %rd<8>;\n"
                "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r0, %tid.x;\n"
                "mul.wide.u32 %rd3, %r0, 96;\nadd.s64 %rd4, %rd1, %rd3;\nmul.wide.u32 %rd6, %r0, 4;\n"
                "add.s64 %rd5, %rd2, %rd6;\nmov.u32 %r1, 0;\n" + body + "st.global.u32 [%rd5], %r25;\nret;\n}\n";
  for (const char *name : {"gfx942", "gfx1100"}) {
    const targets::TargetInfo &t = *targets::findTarget(name);
    CAPTURE(t.name);
    const Run moved = checkOn(src, t, true), written = checkOn(src, t, false);
    CHECK_MESSAGE(moved.status == check::Status::Pass, moved.report);
    CHECK(moved.vgprs > written.vgprs); // the loads start together ...
    CHECK(moved.cycles < written.cycles / 4); // ... and their latencies overlap
    CHECK(targets::occupancy(t, moved.vgprs, 0, 0).wavesPerSimd ==
          targets::occupancy(t, written.vgprs, 0, 0).wavesPerSimd);
    // A register budget holds the hoisting back: no spill, and the order as
    // written still fits.
    check::Options o;
    o.grid = {2, 1, 1};
    o.block = {64, 1, 1};
    o.trials = 1;
    o.maxVgprs = written.vgprs + 4;
    check::Result r = check::run(src, t, o, p2a::testing::costModel());
    CHECK_MESSAGE(r.status == check::Status::Pass, r.report);
    CHECK_FALSE(p2a::testing::contains(r.report, "scratch"));
    std::smatch m;
    REQUIRE(std::regex_search(r.report, m, std::regex("([0-9]+) VGPRs")));
    CHECK(std::stoul(m[1]) <= written.vgprs + 4);
  }
}

TEST_CASE("rows, code lines and -fno-schedule keep the source's statement order") {
  const targets::TargetInfo &t = *targets::findTarget("gfx942");
  ::ptx::ParseResult pr = ::ptx::parseModule(kTwoChains);
  REQUIRE(pr.ok());
  Diagnostics d;
  std::optional<kernel::Kernel> k = kernel::decodeKernel(pr.module, pr.module.functions.at(0), d);
  REQUIRE(k);
  auto translate = [&](bool schedule) {
    klower::Options o;
    o.schedule = schedule;
    klower::KernelTranslation kt;
    REQUIRE(klower::translateKernel(*k, t, p2a::testing::costModel(), kt, d, o));
    return kt;
  };
  const klower::KernelTranslation kt = translate(true);
  // Rows in source order, whatever order the code runs in.
  REQUIRE(kt.statements.size() == k->body.size());
  for (size_t i = 0; i < k->body.size(); ++i)
    CHECK(kt.statements[i].text().ptxText == k->body[i].text);
  // Each code line names the statement it came from, by its place in the
  // decoded body (the loads are statements 6 and 12): the second load's
  // global_load is emitted before the first chain's multiply.
  REQUIRE(k->body[12].text.str().rfind("ld.global.u32 %r11,", 0) == 0);
  REQUIRE(k->body[7].text.str().rfind("mul.lo.u32 %r2,", 0) == 0);
  // (code line i is the next of its statement's row's lines)
  long secondLoad = -1, firstMul = -1;
  std::vector<size_t> linesSeen(kt.statements.size(), 0);
  for (size_t i = 0; i < kt.codeStmt.size(); ++i) {
    const int s = kt.codeStmt[i];
    const std::string text = s >= 0 ? kt.statements[size_t(s)].text().gcn.at(linesSeen[size_t(s)]++) : "";
    if (s == 12 && secondLoad < 0 && text.find("global_load") != std::string::npos)
      secondLoad = long(i);
    if (kt.codeStmt[i] == 7 && firstMul < 0)
      firstMul = long(i);
  }
  REQUIRE(secondLoad >= 0);
  REQUIRE(firstMul >= 0);
  CHECK(secondLoad < firstMul);
  // Without scheduling the code follows the statements.
  const klower::KernelTranslation kw = translate(false);
  long last = -1;
  for (int s : kw.codeStmt)
    if (s >= 0) {
      CHECK(s >= last);
      last = s;
    }
}

// translateKernel tries several orders of one kernel in place
// (kernel_lowering.cpp): each must be undone exactly, statements and
// sourceIndex alike, including where earlier rewrites had set sourceIndex.
TEST_CASE("a statement order applied in place is undone exactly") {
  ::ptx::ParseResult pr = ::ptx::parseModule(kTwoChains);
  REQUIRE(pr.ok());
  Diagnostics d;
  std::optional<kernel::Kernel> decoded = kernel::decodeKernel(pr.module, pr.module.functions.at(0), d);
  REQUIRE(decoded);
  for (bool withSourceIndex : {false, true}) {
    kernel::Kernel k = *decoded;
    if (withSourceIndex) // (as withInsertedStatements leaves it: one source shared by two statements)
      for (size_t i = 0; i < k.body.size(); ++i)
        k.sourceIndex.push_back(static_cast<unsigned>(i == 0 ? 0 : i - 1));
    const kernel::Kernel before = k;
    const std::vector<unsigned> order = kernel::scheduleOrder(k);
    REQUIRE(order.size() == k.body.size());
    bool moved = false;
    for (size_t i = 0; i < order.size(); ++i)
      moved = moved || order[i] != i;
    CHECK(moved); // (the load is hoisted: see the first test case)
    kernel::reorderStatements(k, order);
    for (size_t i = 0; i < order.size(); ++i) {
      CHECK(k.body[i].text == before.body[order[i]].text);
      CHECK(k.sourceOf(i) == before.sourceOf(order[i]));
    }
    // The scheduled copy is the same order.
    const kernel::Kernel copy = kernel::scheduleStatements(before);
    for (size_t i = 0; i < order.size(); ++i)
      CHECK(copy.body[i].text == k.body[i].text);
    kernel::restoreOrder(k, order);
    CHECK(k.sourceIndex == before.sourceIndex);
    for (size_t i = 0; i < k.body.size(); ++i)
      CHECK(k.body[i].text == before.body[i].text);
  }
}

} // TEST_SUITE
