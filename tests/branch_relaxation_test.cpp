// Branch relaxation (lowering/branch_relaxation.cpp): branches beyond
// s_cbranch's 16-bit dword range become s_getpc/s_add/s_setpc long jumps,
// the object assembles (MC checks branch ranges only when it encodes), and
// the kernel agrees with the PTX interpreter on every target.
#include "driver/module_translation.hpp"
#include "lowering/kernel_lowering.hpp"
#include "targets/target_info.hpp"
#include "validation/check.hpp"

#include "tests/cli_support.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace p2a;

namespace {

// A loop of `n` iterations (uniform: a parameter) around a divergent forward
// branch over `steps` rotate-and-add steps (two AMD instructions each). At
// 9000 steps the block takes over 140 KiB even in its smallest encodings, so
// both the forward branch over it and the loop's back edge are far.
std::string farBranches(unsigned steps) {
  std::string s = ".version 8.0\n.target sm_80\n.address_size 64\n"
                  ".visible .entry far(.param .u64 out, .param .u32 n)\n{\n"
                  ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<3>;\n"
                  "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
                  "mov.u32 %r3, 0;\nmov.u32 %r5, %r2;\n"
                  "$L_loop:\nand.b32 %r6, %r2, 1;\nsetp.eq.u32 %p1, %r6, 0;\n@%p1 bra $L_skip;\n";
  for (unsigned i = 0; i < steps; ++i)
    s += "shf.l.wrap.b32 %r5, %r5, %r5, " + std::to_string(1 + i % 31) + ";\nadd.u32 %r5, %r5, " +
         std::to_string(0x9e3779b9u * (i + 1)) + ";\n";
  s += "$L_skip:\nadd.u32 %r5, %r5, %r3;\nadd.u32 %r3, %r3, 1;\nsetp.lt.u32 %p2, %r3, %r1;\n@%p2 bra $L_loop;\n"
       "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r5;\nret;\n}\n";
  return s;
}

module::ModuleResult translateSource(const std::string &src, const targets::TargetInfo &t) {
  return module::translateModule(src, t, p2a::testing::costModel(), {}, {});
}

} // namespace

TEST_CASE("branch relaxation: far branches become long jumps, assemble as objects and run as PTX says") {
  const std::string src = farBranches(9000);
  for (const targets::TargetInfo *target : p2a::testing::checkedTargets()) {
    const targets::TargetInfo &t = *target;
    INFO(t.name);
    module::ModuleResult m = translateSource(src, t);
    REQUIRE(m.ok);
    REQUIRE(m.functions.size() == 1);
    CHECK(p2a::testing::contains(m.assembly, "s_setpc_b64"));
    CHECK(p2a::testing::contains(m.assembly, "s_cbranch_execnz")); // the divergent branch, inverted around its jump
    CHECK(p2a::testing::contains(m.assembly, "_pc)>>32"));
    CHECK(p2a::testing::contains(m.assembly, "s_sext_i32_i16") == t.getpc_zero_extends);
    check::Options o;
    o.trials = 1;
    o.block = {t.wave_size + 16, 1, 1}; // a full wave and a partial one
    o.params["n"] = 3;
    check::Result r = check::run(src, t, o, p2a::testing::costModel());
    INFO(r.report);
    CHECK(r.status == check::Status::Pass);
  }
}

TEST_CASE("branch relaxation: near branches stay short") {
  module::ModuleResult m = translateSource(farBranches(100), targets::defaultTarget());
  REQUIRE(m.ok);
  CHECK_FALSE(p2a::testing::contains(m.assembly, "s_setpc_b64"));
  CHECK_FALSE(p2a::testing::contains(m.assembly, "s_getpc_b64"));
}
