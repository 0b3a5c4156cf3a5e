// Local arrays kept in registers (kernel/transforms/local_array_promotion.hpp):
// which .local variables move out of scratch and which stay, and that the
// kernels still agree with the PTX interpreter on every target.
#include "grammar/parser.hpp"
#include "kernel/kernel_ir.hpp"
#include "kernel/transforms/local_array_promotion.hpp"
#include "driver/module_translation.hpp"
#include "targets/target_info.hpp"
#include "validation/check.hpp"
#include "tests/cli_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace p2a;

namespace {

const std::string kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

kernel::Kernel promoted(const std::string &src) {
  ::ptx::ParseResult pr = ::ptx::parseModule(src);
  REQUIRE(pr.ok());
  Diagnostics d;
  const auto entry = std::find_if(pr.module.functions.begin(), pr.module.functions.end(),
                                 [](const auto &f) { return f.is_entry; });
  REQUIRE(entry != pr.module.functions.end());
  std::optional<kernel::Kernel> k = kernel::decodeKernel(pr.module, *entry, d);
  REQUIRE(k);
  return kernel::promoteLocalArrays(*k);
}

size_t countKind(const kernel::Kernel &k, kernel::Stmt::Kind kind, bool dynamic) {
  size_t n = 0;
  for (const kernel::Stmt &s : k.body)
    n += s.kind == kind && s.extra().base.empty() != dynamic;
  return n;
}

size_t localAccesses(const kernel::Kernel &k) {
  size_t n = 0;
  for (const kernel::Stmt &s : k.body)
    n += (s.kind == kernel::Stmt::Kind::Load || s.kind == kernel::Stmt::Kind::Store) && s.space == kernel::Space::Local;
  return n;
}

// The kernel's private segment on `t` (0: no scratch), after `check` passes there.
unsigned scratchBytesAfterCheck(const std::string &src, const targets::TargetInfo &t) {
  CAPTURE(t.name);
  check::Options o;
  o.grid = {2, 1, 1};
  o.block = {64, 1, 1};
  o.trials = 2;
  const check::Result r = check::run(src, t, o, p2a::testing::costModel());
  CHECK_MESSAGE(r.status == check::Status::Pass, r.report);
  module::ModuleResult m = module::translateModule(src, t, p2a::testing::costModel());
  REQUIRE(m.ok);
  const std::string key = ".amdhsa_private_segment_fixed_size ";
  const size_t at = m.assembly.find(key);
  REQUIRE(at != std::string::npos);
  return static_cast<unsigned>(std::stoul(m.assembly.substr(at + key.size())));
}

// nvcc's shape for `unsigned t[8]` filled from memory, then swapped
// through in a rolled loop at an index computed from the data: the index
// is a multiple of 4 but unbounded (the loop counter, an int scaled by
// mul.wide.s32, and the data decide it), so the whole variable is one part.
const std::string kRolledSwap =
    kHeader +
    ".visible .entry swap(.param .u64 in, .param .u64 out)\n{\n"
    ".local .align 16 .b8 __local_depot0[32];\n.reg .b64 %SP;\n.reg .b64 %SPL;\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<16>;\n"
    "mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n"
    "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\ncvta.to.global.u64 %rd3, %rd1;\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 32;\nadd.s64 %rd5, %rd3, %rd4;\n"
    "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd5];\nld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd5+16];\n"
    "add.u64 %rd6, %SPL, 0;\nst.local.v4.u32 [%rd6], {%r2, %r3, %r4, %r5};\n"
    "st.local.v4.u32 [%rd6+16], {%r6, %r7, %r8, %r9};\n"
    "mov.u32 %r10, 0;\nmov.u32 %r11, 0;\n"
    "$L_loop:\n"
    "xor.b32 %r12, %r11, %r10;\nrem.u32 %r13, %r12, 8;\nmul.wide.u32 %rd7, %r13, 4;\nadd.s64 %rd8, %rd6, %rd7;\n"
    "ld.local.u32 %r14, [%rd8];\nmul.wide.s32 %rd9, %r10, 4;\nadd.s64 %rd10, %rd6, %rd9;\n"
    "ld.local.u32 %r15, [%rd10];\nst.local.u32 [%rd8], %r15;\nadd.s32 %r16, %r14, %r10;\n"
    "st.local.u32 [%rd10], %r16;\nadd.s32 %r11, %r11, %r14;\nadd.s32 %r10, %r10, 1;\n"
    "setp.lt.u32 %p1, %r10, 8;\n@%p1 bra $L_loop;\n"
    "ld.local.u32 %r17, [%rd6+4];\nld.local.u64 %rd11, [%rd6+24];\ncvt.u32.u64 %r18, %rd11;\n"
    "shr.u64 %rd12, %rd11, 32;\ncvt.u32.u64 %r19, %rd12;\nxor.b32 %r20, %r17, %r18;\nxor.b32 %r21, %r20, %r19;\n"
    "add.s32 %r22, %r21, %r11;\n"
    "cvta.to.global.u64 %rd13, %rd2;\nmul.wide.u32 %rd14, %r1, 4;\nadd.s64 %rd15, %rd13, %rd14;\n"
    "st.global.u32 [%rd15], %r22;\nret;\n}\n";

} // namespace

TEST_CASE("a local array indexed by data moves from scratch to registers, on every target") {
  const kernel::Kernel k = promoted(kRolledSwap);
  CHECK(localAccesses(k) == 0);
  CHECK(k.variable("__local_depot0") == nullptr); // out of the private segment
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayLoad, true) == 2);
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayStore, true) == 2);
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayStore, false) == 2); // the two st.local.v4
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayLoad, false) == 2);  // t[1] and the 64-bit t[6..7]
  for (const kernel::Stmt &s : k.body)
    if (s.kind == kernel::Stmt::Kind::ArrayLoad || s.kind == kernel::Stmt::Kind::ArrayStore)
      CHECK(s.extra().elements.size() == 8);
  for (const targets::TargetInfo &t : targets::allTargets())
    CHECK(scratchBytesAfterCheck(kRolledSwap, t) == 0);
}

TEST_CASE("nvcc's masked byte index becomes a 32-bit and, and permute needs no scratch") {
  std::ifstream in(std::string(P2A_SOURCE_DIR) + "/samples/permute/permute.ptx");
  std::stringstream ss;
  ss << in.rdbuf();
  const kernel::Kernel k = promoted(ss.str());
  CHECK(localAccesses(k) == 0);
  size_t narrowed = 0;
  for (const kernel::Stmt &s : k.body)
    if (s.kind == kernel::Stmt::Kind::ArrayLoad || s.kind == kernel::Stmt::Kind::ArrayStore) {
      CHECK(s.extra().elements.size() == 16);
      if (!s.extra().base.empty()) {
        CHECK(k.registers.at(s.extra().base).width == 32);
        ++narrowed;
      }
    }
  CHECK(narrowed == 33); // 16 rounds of a load and a store, and the final t[acc & 15]
  for (const targets::TargetInfo &t : targets::allTargets())
    CHECK(scratchBytesAfterCheck(ss.str(), t) == 0);
  // A read at a dynamic index holds two registers beside the table on
  // wave32 (two interleaved select chains, lowering/register_arrays.cpp),
  // not a tree level's eight: clang-19 -O3's 21 VGPRs for permute.cu on
  // gfx1100 (a chain), within 1.1x.
  module::ModuleResult m = module::translateModule(ss.str(), *targets::findTarget("gfx1100"), p2a::testing::costModel());
  REQUIRE(m.ok);
  const std::string key = ".amdhsa_next_free_vgpr ";
  const size_t at = m.assembly.find(key);
  REQUIRE(at != std::string::npos);
  CHECK(std::stoul(m.assembly.substr(at + key.size())) <= 23);
}

TEST_CASE("a local array whose address escapes, or that is read by bytes, stays in scratch") {
  auto kernelWith = [](const std::string &use) {
    return kHeader +
           ".visible .entry k(.param .u64 out)\n{\n.local .align 8 .b8 __local_depot0[16];\n.reg .b64 %SP;\n"
           ".reg .b64 %SPL;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
           "mov.u64 %SPL, __local_depot0;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
           "mov.u32 %r1, %tid.x;\nadd.u64 %rd3, %SPL, 0;\nst.local.u32 [%rd3], %r1;\nst.local.u32 [%rd3+4], 7;\n" +
           use + "ld.local.u32 %r2, [%rd3+4];\nst.global.u32 [%rd2], %r2;\nret;\n}\n";
  };
  // A generic address of the array, written to memory: someone may use it.
  const std::string escapes = kernelWith("cvta.local.u64 %rd4, %rd3;\nst.global.u64 [%rd2+8], %rd4;\n");
  // A byte of it: registers hold dwords only.
  const std::string bytes = kernelWith("ld.local.u8 %r3, [%rd3+1];\nst.global.u8 [%rd2+16], %r3;\n");
  // The same array with neither: promoted.
  const std::string plain = kernelWith("");
  CHECK(localAccesses(promoted(escapes)) == 3);
  CHECK(localAccesses(promoted(bytes)) == 4);
  CHECK(localAccesses(promoted(plain)) == 0);
  for (const std::string &src : {escapes, bytes, plain}) {
    const kernel::Kernel k = promoted(src);
    for (const targets::TargetInfo &t : targets::allTargets())
      CHECK((scratchBytesAfterCheck(src, t) == 0) == (localAccesses(k) == 0));
  }
}

TEST_CASE("of two arrays in one depot, the one indexed over too many dwords stays in scratch") {
  // Bytes 0..63: a[16], indexed by (x & 15) * 4; bytes 64..159: b[24],
  // indexed by (x % 24) * 4 (above kMaxIndexedArrayDwords).
  const std::string src =
      kHeader +
      ".visible .entry two(.param .u64 out)\n{\n.local .align 16 .b8 __local_depot0[160];\n.reg .b64 %SPL;\n"
      ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
      "mov.u64 %SPL, __local_depot0;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
      "mov.u32 %r1, %tid.x;\nadd.u64 %rd3, %SPL, 0;\nadd.u64 %rd4, %SPL, 64;\n"
      "st.local.v4.u32 [%rd3], {%r1, %r1, %r1, %r1};\nst.local.v4.u32 [%rd3+16], {%r1, %r1, %r1, %r1};\n"
      "st.local.v4.u32 [%rd3+32], {%r1, %r1, %r1, %r1};\nst.local.v4.u32 [%rd3+48], {%r1, %r1, %r1, %r1};\n"
      "mul.lo.s32 %r2, %r1, 7;\n"
      "and.b32 %r3, %r2, 15;\nmul.wide.u32 %rd5, %r3, 4;\nadd.s64 %rd6, %rd3, %rd5;\nst.local.u32 [%rd6], %r2;\n"
      "rem.u32 %r4, %r2, 24;\nmul.wide.u32 %rd7, %r4, 4;\nadd.s64 %rd8, %rd4, %rd7;\nst.local.u32 [%rd8], %r2;\n"
      "and.b32 %r5, %r1, 15;\nmul.wide.u32 %rd9, %r5, 4;\nadd.s64 %rd10, %rd3, %rd9;\nld.local.u32 %r6, [%rd10];\n"
      "ld.local.u32 %r7, [%rd8];\nadd.s32 %r8, %r6, %r7;\nst.global.u32 [%rd2], %r8;\nret;\n}\n";
  const kernel::Kernel k = promoted(src);
  CHECK(localAccesses(k) == 2); // b's store and load
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayStore, false) == 4);
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayStore, true) == 1);
  CHECK(countKind(k, kernel::Stmt::Kind::ArrayLoad, true) == 1);
  CHECK(k.variable("__local_depot0") != nullptr); // b still lives there
  for (const targets::TargetInfo &t : targets::allTargets())
    CHECK(scratchBytesAfterCheck(src, t) > 0);
}

TEST_CASE("a negative int index with a constant offset past it picks the right element (a[j + 2], j = -2 .. 5)") {
  // nvcc's mul.wide.s32 of an int index: the index is negative for some
  // threads while index + 8 bytes stays inside a[8].
  std::string src = kHeader +
                    ".visible .entry neg(.param .u64 out)\n{\n.local .align 16 .b8 __local_depot0[32];\n"
                    ".reg .b64 %SPL;\n.reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n"
                    "mov.u64 %SPL, __local_depot0;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
                    "mov.u32 %r1, %tid.x;\nadd.u64 %rd3, %SPL, 0;\nshl.b32 %r2, %r1, 3;\n";
  for (int e = 0; e < 8; ++e)
    src += "add.s32 %r" + std::to_string(10 + e) + ", %r2, " + std::to_string(e) + ";\n";
  src += "st.local.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};\nst.local.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};\n"
         "and.b32 %r3, %r1, 7;\nadd.s32 %r4, %r3, -2;\nmul.wide.s32 %rd4, %r4, 4;\nadd.s64 %rd5, %rd3, %rd4;\n"
         "ld.local.u32 %r5, [%rd5+8];\nst.local.u32 [%rd5+8], %r1;\nld.local.u32 %r6, [%rd3];\n"
         "ld.local.u32 %r7, [%rd3+4];\nadd.s32 %r8, %r5, %r6;\nadd.s32 %r9, %r8, %r7;\n"
         "mul.wide.u32 %rd6, %r1, 4;\nadd.s64 %rd7, %rd2, %rd6;\nst.global.u32 [%rd7], %r9;\nret;\n}\n";
  CHECK(localAccesses(promoted(src)) == 0);
  for (const targets::TargetInfo &t : targets::allTargets())
    CHECK(scratchBytesAfterCheck(src, t) == 0);
}

TEST_CASE("a local variable named only by underscores is promoted too") {
  // (Its registers are named after it: `__` once failed with an internal error.)
  const std::string src = kHeader +
                          ".visible .entry k(.param .u64 out)\n{\n.local .align 4 .b8 __[16];\n.reg .b32 %r<4>;\n"
                          ".reg .b64 %rd<4>;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nst.local.u32 [__+4], %r1;\n"
                          "ld.local.u32 %r2, [__+4];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\n"
                          "add.s64 %rd2, %rd2, %rd3;\nst.global.u32 [%rd2], %r2;\nret;\n}\n";
  CHECK(localAccesses(promoted(src)) == 0);
  CHECK(scratchBytesAfterCheck(src, targets::defaultTarget()) == 0);
}

TEST_CASE("a local array passed to a helper as a generic pointer is promoted once the helper is inlined") {
  // nvcc's shape for `uint32_t priv[4]; h = mix(priv, h);` with a
  // __noinline__ mix over generic ld/st: %SP = cvta.local of the depot,
  // the argument slot holds %SP + 0, the helper's accesses are generic.
  auto kernelWith = [](const std::string &after) {
    return kHeader +
           ".func (.param .b32 r) mix(.param .b64 p, .param .b32 s)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n"
           "ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [s];\nld.u32 %r2, [%rd1];\nxor.b32 %r3, %r2, %r1;\n"
           "st.u32 [%rd1], %r3;\nld.u32 %r4, [%rd1+12];\nadd.s32 %r5, %r4, %r3;\nst.u32 [%rd1+12], %r5;\n"
           "st.param.b32 [r], %r5;\nret;\n}\n"
           ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n.local .align 16 .b8 __local_depot0[16];\n"
           ".reg .b64 %SP;\n.reg .b64 %SPL;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
           "mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n"
           "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\ncvta.to.global.u64 %rd3, %rd1;\n"
           "cvta.to.global.u64 %rd4, %rd2;\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 16;\n"
           "add.s64 %rd6, %rd3, %rd5;\nadd.s64 %rd7, %rd4, %rd5;\n"
           "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd6];\nadd.u64 %rd8, %SP, 0;\nadd.u64 %rd9, %SPL, 0;\n"
           "st.local.v4.u32 [%rd9], {%r2, %r3, %r4, %r5};\n"
           "{\n.param .b64 param0;\nst.param.b64 [param0], %rd8;\n.param .b32 param1;\n"
           "st.param.b32 [param1], %r1;\n.param .b32 retval0;\ncall.uni (retval0), mix, (param0, param1);\n"
           "ld.param.b32 %r6, [retval0];\n}\n"
           "{\n.param .b64 param0;\nst.param.b64 [param0], %rd8;\n.param .b32 param1;\n"
           "st.param.b32 [param1], %r6;\n.param .b32 retval0;\ncall.uni (retval0), mix, (param0, param1);\n"
           "ld.param.b32 %r7, [retval0];\n}\n" +
           after + "ld.local.v4.u32 {%r8, %r9, %r10, %r11}, [%rd9];\n"
           "st.global.v4.u32 [%rd7], {%r8, %r9, %r10, %r7};\nret;\n}\n";
  };
  const std::string helper = kernelWith("");
  // The generic pointer also stored to memory: anyone may use it.
  const std::string escapes = kernelWith("st.global.u64 [%rd7], %rd8;\nbar.sync 0;\n");
  CHECK(localAccesses(promoted(helper)) == 0);
  CHECK(promoted(helper).variable("__local_depot0") == nullptr);
  CHECK(localAccesses(promoted(escapes)) == 2);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    CHECK(scratchBytesAfterCheck(helper, t) == 0);
    CHECK(scratchBytesAfterCheck(escapes, t) == 16);
  }
}
