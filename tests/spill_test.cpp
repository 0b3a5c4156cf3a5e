// Spilling (lowering/spilling.cpp): kernels with more live values than the
// registers hold translate, keep their values in scratch or VGPR lanes, and
// agree with the PTX interpreter on every target. The kernels hold their
// values live in the order written: statement scheduling, which may
// interleave the loads with their uses, is off (schedule = false).
#include "driver/module_translation.hpp"
#include "lowering/kernel_lowering.hpp"
#include "targets/target_info.hpp"
#include "validation/check.hpp"

#include "tests/cli_support.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>

using namespace p2a;

namespace {

const char *kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// A kernel whose `live` 32-bit values are all loaded before any is used,
// then folded into one result in reverse order: all of them live at once.
// `local` bytes of .local memory (written and read back) put the spill
// slots past the scratch instructions' 2047-byte offset field.
std::string liveValues(unsigned live, unsigned local = 0, const std::string &bounds = "") {
  std::string s = std::string(kHeader) + ".visible .entry live(.param .u64 in, .param .u64 out)" + bounds + "\n{\n";
  s += ".reg .b32 %r<" + std::to_string(live + 4) + ">;\n.reg .b64 %rd<8>;\n";
  if (local)
    s += ".local .align 4 .b8 scratch[" + std::to_string(local) + "];\n";
  s += "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd3, %r0, 4;\n"
       "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n";
  for (unsigned i = 1; i <= live; ++i) {
    s += "ld.global.u32 %r" + std::to_string(i) + ", [%rd4+" + std::to_string(256 * ((i - 1) % 8)) + "];\n";
    s += "xor.b32 %r" + std::to_string(i) + ", %r" + std::to_string(i) + ", " + std::to_string(i * 2654435761u) + ";\n";
  }
  const std::string acc = "%r" + std::to_string(live + 1);
  if (local) // (a byte of it: an array read by bytes stays in scratch, see local_array_promotion.hpp)
    s += "st.local.u8 [scratch+" + std::to_string(local - 4) + "], %r1;\nld.local.u8 " + acc + ", [scratch+" +
         std::to_string(local - 4) + "];\n";
  else
    s += "mov.u32 " + acc + ", 0;\n";
  for (unsigned i = live; i >= 1; --i)
    s += "shf.l.wrap.b32 " + acc + ", " + acc + ", " + acc + ", 5;\nadd.u32 " + acc + ", " + acc + ", %r" +
         std::to_string(i) + ";\n";
  s += "st.global.u32 [%rd5], " + acc + ";\nret;\n}\n";
  return s;
}

// `uniform` live uniform values (from a parameter, on the scalar ALU where
// homes allow) and `predicates` live predicates, then all of them used.
std::string uniformsAndPredicates(unsigned uniform, unsigned predicates) {
  std::string s = std::string(kHeader) + ".visible .entry preds(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n";
  s += ".reg .b32 %r<" + std::to_string(predicates + 20) + ">;\n.reg .b32 %u<" + std::to_string(uniform + 2) +
       ">;\n.reg .b64 %rd<8>;\n.reg .pred %p<" + std::to_string(predicates + 2) + ">;\n";
  s += "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nld.param.u32 %u0, [n];\nmov.u32 %r0, %tid.x;\n"
       "mul.wide.u32 %rd3, %r0, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\nld.global.u32 %r1, [%rd4];\n";
  for (unsigned i = 1; i <= uniform; ++i)
    s += "mul.lo.u32 %u" + std::to_string(i) + ", %u" + std::to_string(i - 1) + ", " +
         std::to_string((i * 40503u) % 65536u | 1u) + ";\nxor.b32 %u" + std::to_string(i) + ", %u" + std::to_string(i) +
         ", " + std::to_string(i) + ";\n";
  for (unsigned j = 0; j < predicates; ++j)
    s += "and.b32 %r10, %r1, " + std::to_string(1u << (j % 32)) + ";\nsetp.ne.u32 %p" + std::to_string(j) +
         ", %r10, 0;\n";
  s += "mov.u32 %r3, 0;\n";
  for (unsigned j = 0; j < predicates; ++j)
    s += "selp.b32 %r4, " + std::to_string(j + 1) + ", " + std::to_string(j * 7) + ", %p" + std::to_string(j) +
         ";\nshf.l.wrap.b32 %r3, %r3, %r3, 3;\nadd.u32 %r3, %r3, %r4;\n";
  for (unsigned i = uniform; i >= 1; --i)
    s += "add.u32 %r3, %r3, %u" + std::to_string(i) + ";\nshf.l.wrap.b32 %r3, %r3, %r3, 1;\n";
  s += "st.global.u32 [%rd5], %r3;\nret;\n}\n";
  return s;
}

// `live` 64-bit values at once (V64 spills: scratch_load/store_dwordx2).
std::string live64(unsigned live) {
  std::string s = std::string(kHeader) + ".visible .entry wide(.param .u64 in, .param .u64 out)\n{\n";
  s += ".reg .b32 %r<4>;\n.reg .b64 %rd<" + std::to_string(live + 10) + ">;\n";
  s += "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd3, %r0, 8;\n"
       "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n";
  for (unsigned i = 0; i < live; ++i)
    s += "ld.global.u64 %rd" + std::to_string(i + 10) + ", [%rd4+" + std::to_string(512 * (i % 4)) + "];\nadd.s64 %rd" +
         std::to_string(i + 10) + ", %rd" + std::to_string(i + 10) + ", " + std::to_string(i * 0x9e3779b97f4a7c15ull >> 8) +
         ";\n";
  s += "mov.u64 %rd6, 0;\n";
  for (unsigned i = live; i-- > 0;)
    s += "shl.b64 %rd7, %rd6, 3;\nxor.b64 %rd6, %rd7, %rd" + std::to_string(i + 10) + ";\n";
  s += "st.global.u64 [%rd5], %rd6;\nret;\n}\n";
  return s;
}

// A loop around `depth` nested divergent ifs: the lanes that skip an inner
// if wait at its end while the ifs inside it run, so every level's lane
// mask is live at once (the shape of generated password-cracker kernels
// with hundreds of blocks in one loop).
std::string nestedIfs(unsigned depth) {
  std::string s = std::string(kHeader) + ".visible .entry nested(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n";
  s += ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n";
  s += "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nld.param.u32 %r9, [n];\nand.b32 %r9, %r9, 3;\n"
       "mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd3, %r0, 4;\nadd.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n"
       "ld.global.u32 %r1, [%rd4];\nmov.u32 %r2, 0;\nmov.u32 %r3, 0;\n$L_loop:\n";
  for (unsigned b = 0; b < depth; ++b)
    s += "shr.u32 %r4, %r1, " + std::to_string(b % 32) + ";\nand.b32 %r4, %r4, 1;\nsetp.eq.u32 %p1, %r4, " +
         std::to_string(b / 32 % 2) + ";\n@%p1 bra $L_end" + std::to_string(b) + ";\nshf.l.wrap.b32 %r2, %r2, %r2, " +
         std::to_string(1 + b % 31) + ";\nadd.u32 %r2, %r2, " + std::to_string(b * 2654435761u) + ";\n";
  for (unsigned b = depth; b-- > 0;)
    s += "$L_end" + std::to_string(b) + ":\nxor.b32 %r2, %r2, " + std::to_string(b + 1) + ";\n";
  s += "add.u32 %r1, %r1, %r2;\nadd.u32 %r3, %r3, 1;\nsetp.le.u32 %p2, %r3, %r9;\n@%p2 bra $L_loop;\n"
       "st.global.u32 [%rd5], %r2;\nret;\n}\n";
  return s;
}

struct Translated {
  klower::KernelTranslation kernel;
  bool ok = false;
};

Translated translateKernel(const std::string &src, const targets::TargetInfo &t, klower::Options lo = {}) {
  lo.schedule = false;
  module::ModuleResult m = module::translateModule(src, t, p2a::testing::costModel(), {}, lo);
  Translated r;
  r.ok = m.ok && !m.functions.empty() && m.functions[0].kernel;
  if (r.ok) {
    r.kernel = *m.functions[0].kernel;
    r.kernel.assembly = m.assembly; // (the module took the kernel's text: one kernel, its text)
    r.kernel.registers = m.functions[0].translation.registers; // (and its register table: the listing's)
  }
  return r;
}

void checkEverywhere(const std::string &src, check::Options o = {}) {
  o.schedule = false;
  o.trials = 2;
  o.block = {96, 1, 1};
  o.grid = {2, 1, 1};
  for (const targets::TargetInfo *t : p2a::testing::checkedTargets()) {
    check::Result r = check::run(src, *t, o, p2a::testing::costModel());
    INFO(t->name << ": " << r.report);
    CHECK(r.status == check::Status::Pass);
  }
}

} // namespace

TEST_CASE("spilling: 300 live 32-bit values go partly to scratch and agree with the interpreter on every target") {
  const std::string src = liveValues(300);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    Translated k = translateKernel(src, t);
    INFO(t.name);
    REQUIRE(k.ok);
    CHECK(k.kernel.numVgprs <= targets::kMaxVgprs);
    CHECK(k.kernel.spilledVgprValues > 0);
    CHECK(k.kernel.spillScratchBytes >= 4 * k.kernel.spilledVgprValues);
    CHECK(k.kernel.privateBytes == k.kernel.spillScratchBytes);
    CHECK(p2a::testing::contains(k.kernel.assembly, "scratch_store_"));
    // A spilled register is named by its slot in the register table.
    bool inScratch = false;
    for (const auto &[name, where] : k.kernel.registers)
      inScratch |= where.rfind("scratch+", 0) == 0;
    CHECK(inScratch);
  }
  checkEverywhere(src);
}

TEST_CASE("spilling: slots past the scratch offset field are addressed through a VGPR") {
  // 2 KiB of .local before the slots: every slot's offset is over 2047.
  const std::string src = liveValues(280, 2048);
  Translated k = translateKernel(src, targets::defaultTarget());
  REQUIRE(k.ok);
  CHECK(k.kernel.spilledVgprValues > 0);
  CHECK(k.kernel.privateBytes == 2048 + k.kernel.spillScratchBytes);
  checkEverywhere(src);
}

TEST_CASE("spilling: 64-bit values spill as pairs") {
  const std::string src = live64(150);
  Translated k = translateKernel(src, targets::defaultTarget());
  REQUIRE(k.ok);
  CHECK(k.kernel.spilledVgprValues > 0);
  CHECK(p2a::testing::contains(k.kernel.assembly, "scratch_store_dwordx2"));
  checkEverywhere(src);
}

TEST_CASE("spilling: 150 uniform values and 60 predicates, SGPRs spilled to VGPR lanes") {
  const std::string src = uniformsAndPredicates(150, 60);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    Translated k = translateKernel(src, t);
    INFO(t.name);
    REQUIRE(k.ok);
    CHECK(k.kernel.numSgprs <= targets::kMaxSgprs);
    if (t.wave_size == 64) { // 60 predicates take 120 SGPRs in wave64
      CHECK(k.kernel.spilledSgprValues > 0);
      CHECK(k.kernel.spillLaneVgprs >= 2);
      CHECK(p2a::testing::contains(k.kernel.assembly, "v_writelane_b32"));
      CHECK(p2a::testing::contains(k.kernel.assembly, "v_readlane_b32"));
    }
  }
  checkEverywhere(src);
}

TEST_CASE("spilling: a register budget (--max-vgprs, --max-sgprs, .maxnreg) is met by spilling") {
  const std::string src = liveValues(40);
  klower::Options lo;
  lo.schedule = false;
  lo.maxVgprs = 24;
  lo.maxSgprs = 24;
  for (const targets::TargetInfo &t : targets::allTargets()) {
    Translated k = translateKernel(src, t, lo);
    INFO(t.name);
    REQUIRE(k.ok);
    CHECK(k.kernel.numVgprs <= 24);
    CHECK(k.kernel.spilledVgprValues > 0);
  }
  check::Options o;
  o.schedule = false;
  o.maxVgprs = 24;
  checkEverywhere(src, o);
  // .maxnreg asks the same of the allocator.
  Translated bounded = translateKernel(liveValues(40, 0, " .maxnreg 24"), targets::defaultTarget());
  REQUIRE(bounded.ok);
  CHECK(bounded.kernel.numVgprs <= 24);
  // Unbounded, the same kernel needs no spills.
  Translated free = translateKernel(src, targets::defaultTarget());
  REQUIRE(free.ok);
  CHECK(free.kernel.spilledVgprValues == 0);
  CHECK(free.kernel.numVgprs > 24);
}

TEST_CASE("spilling: a budget nothing can meet is a warning, and the target's registers are used") {
  module::ModuleResult m = module::translateModule(liveValues(8), targets::defaultTarget(), p2a::testing::costModel(),
                                                   {}, [] {
                                                     klower::Options lo;
                                                     lo.schedule = false;
                                                     lo.maxVgprs = 2; // the ABI's work-item IDs alone take 2
                                                     return lo;
                                                   }());
  REQUIRE(m.ok);
  bool warned = false;
  for (const Diagnostic &d : m.diagnostics)
    warned |= d.severity == Diagnostic::Severity::Warning && d.flag == "register-budget" &&
              p2a::testing::contains(d.message, "--max-vgprs=2 is not met: kernel 'live' uses ");
  CHECK(warned);
}

TEST_CASE("spilling: .maxntid holds the registers to a block of that size on one CU; registers bound the block") {
  // A 1024-thread block is 16 wave64s, 4 per SIMD of gfx942: 128 VGPRs each (512 / 4), 64 on gfx900.
  const std::string bounded = liveValues(200, 0, " .maxntid 1024, 1, 1");
  for (const auto &[name, vgprs] : {std::pair{"gfx942", 128u}, std::pair{"gfx900", 64u}}) {
    Translated k = translateKernel(bounded, *targets::findTarget(name));
    INFO(name);
    REQUIRE(k.ok);
    CHECK(k.kernel.numVgprs <= vgprs);
    CHECK(k.kernel.spilledVgprValues > 0);
    CHECK(k.kernel.maxBlockThreads == 1024);
    CHECK(p2a::testing::contains(k.kernel.metadata, ".max_flat_workgroup_size: 1024"));
  }
  // Without bounds the kernel keeps 200 values in VGPRs: 2 waves per SIMD
  // on gfx942, so a block holds at most 512 threads, and check refuses more.
  const std::string free = liveValues(200);
  Translated k = translateKernel(free, targets::defaultTarget());
  REQUIRE(k.ok);
  CHECK(k.kernel.spilledVgprValues == 0);
  CHECK(k.kernel.numVgprs > 128);
  CHECK(k.kernel.maxBlockThreads == 512);
  CHECK(p2a::testing::contains(k.kernel.metadata, ".max_flat_workgroup_size: 512"));
  check::Options o;
  o.schedule = false;
  o.block = {1024, 1, 1};
  o.trials = 1;
  check::Result r = check::run(free, targets::defaultTarget(), o, p2a::testing::costModel());
  CHECK(r.status == check::Status::Error);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(p2a::testing::contains(r.diagnostics.back().message, "a workgroup of kernel 'live' holds at most 512 on gfx942"));
}

TEST_CASE("spilling: registers a rule ties into a pair spill together, as one 64-bit slot") {
  // shf.l.clamp with a variable amount and a != b is /pair64: {a, b} in an
  // aligned VGPR pair. 300 such values live at once.
  const unsigned live = 300;
  std::string s = std::string(kHeader) + ".visible .entry pairs(.param .u64 in, .param .u64 out)\n{\n";
  s += ".reg .b32 %r<" + std::to_string(live + 8) + ">;\n.reg .b64 %rd<8>;\n";
  s += "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd3, %r0, 4;\n"
       "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\n";
  for (unsigned i = 1; i <= live; ++i)
    s += "ld.global.u32 %r" + std::to_string(i) + ", [%rd4+" + std::to_string(256 * ((i - 1) % 8)) + "];\n";
  const std::string acc = "%r" + std::to_string(live + 1), c = "%r" + std::to_string(live + 2),
                    t = "%r" + std::to_string(live + 3);
  s += "and.b32 " + c + ", %r0, 7;\nadd.u32 " + c + ", " + c + ", 28;\nmov.u32 " + acc + ", 0;\n";
  for (int i = int(live) - 1; i >= 1; i -= 2)
    s += "shf.l.clamp.b32 " + t + ", %r" + std::to_string(i) + ", %r" + std::to_string(i + 1) + ", " + c + ";\nadd.u32 " +
         acc + ", " + acc + ", " + t + ";\n";
  s += "st.global.u32 [%rd5], " + acc + ";\nret;\n}\n";
  Translated k = translateKernel(s, targets::defaultTarget());
  REQUIRE(k.ok);
  CHECK(p2a::testing::contains(k.kernel.assembly, "v_lshlrev_b64")); // the pair rule
  std::map<std::string, std::string> where(k.kernel.registers.begin(), k.kernel.registers.end());
  unsigned spilledPairs = 0;
  for (unsigned i = 1; i < live; i += 2) {
    const std::string &lo = where["%r" + std::to_string(i)], &hi = where["%r" + std::to_string(i + 1)];
    if (lo.rfind("scratch+", 0) == 0) {
      CHECK(hi == "scratch+" + std::to_string(std::stoul(lo.substr(8)) + 4));
      ++spilledPairs;
    }
  }
  CHECK(spilledPairs > 0);
  checkEverywhere(s);
}

TEST_CASE("spilling: block lane masks move to VGPR lanes when SGPRs run out") {
  const std::string src = nestedIfs(60);
  klower::Options lo;
  lo.schedule = false;
  lo.maxSgprs = 48;
  for (const targets::TargetInfo &t : targets::allTargets()) {
    Translated k = translateKernel(src, t, lo);
    INFO(t.name);
    REQUIRE(k.ok);
    CHECK(k.kernel.numSgprs <= 48);
    // Unbounded, the masks alone take more than that on wave64.
    Translated free = translateKernel(src, t);
    REQUIRE(free.ok);
    if (t.wave_size == 64) {
      CHECK(free.kernel.numSgprs > 48);
      CHECK(k.kernel.spilledSgprValues > 0);
    }
  }
  check::Options o;
  o.schedule = false;
  o.maxSgprs = 48;
  checkEverywhere(src, o);
}
