// Tests for the in-process LLVM MC backend (targets/mc_backend.hpp) and the
// per-GPU facts (targets/target_info.hpp), checked against LLVM itself.
#include <doctest/doctest.h>

#include "driver/module_translation.hpp"
#include "isel/mir_printer.hpp"
#include "lowering/kernel_lowering.hpp"
#include "targets/instruction_reuse.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "tests/cli_support.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

// g++ says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define P2A_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define P2A_ASAN 1
#endif
#endif
#if defined(P2A_ASAN)
#include <sanitizer/lsan_interface.h>
#endif

using p2a::mc::AssembleResult;
using p2a::mc::Assembler;
using p2a::mc::InstCost;
using p2a::mc::McDiagnostic;
using p2a::mc::OutputKind;
using p2a::targets::TargetInfo;

namespace {

std::unique_ptr<Assembler> make(const std::string &cpu) {
  std::string err;
  auto a = Assembler::create(cpu, err);
  REQUIRE_MESSAGE(a, "cannot create assembler for " << cpu << ": " << err);
  return a;
}

bool accepts(const Assembler &a, const std::string &text) {
  return a.assemble(text, OutputKind::Asm).ok;
}

std::string diagText(const std::vector<McDiagnostic> &ds) {
  std::string s;
  for (const McDiagnostic &d : ds)
    s += std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.message + " | " + d.source_line + "\n";
  return s;
}

// A small kernel written with the target's spellings.
std::string kernelFor(const TargetInfo &t) {
  std::string s;
  s += "  .text\n  .globl k\n  .p2align 8\n  .type k,@function\nk:\n";
  s += "  " + t.mnemonic("s_load_dwordx2") + " s[0:1], s[4:5], 0x0\n";
  s += "  v_mov_b32 v1, 0\n";
  s += "  " + t.valu_add + " v2, v0, v0\n";
  s += "  " + t.valu_sub + " v2, v2, v0\n";
  s += "  v_add_co_u32 v3, " + t.vcc + ", v0, v2\n";
  s += "  " + t.valu_addc + " v4, " + t.vcc + ", v1, v1, " + t.vcc + "\n";
  s += "  v_cmp_eq_u32 " + t.vcc + ", v0, v1\n";
  s += "  v_cndmask_b32 v5, v0, v1, " + t.vcc + "\n";
  s += "  " + t.maskOp("s_and") + " " + t.vcc + ", " + t.vcc + ", " + t.exec + "\n";
  s += "  " + t.maskOp("s_andn2") + " " + t.exec + ", " + t.exec + ", " + t.vcc + "\n";
  s += "  v_alignbit_b32 v6, v0, v1, 3\n";
  s += "  v_lshlrev_b64 v[6:7], 1, v[2:3]\n";
  s += "  " + t.mnemonic("v_ffbh_u32") + " v8, v0\n";
  if (t.has_xnor) s += "  v_xnor_b32 v9, v0, v1\n";
  if (t.has_xor3) s += "  v_xor3_b32 v9, v0, v1, v2\n";
  s += "  s_waitcnt lgkmcnt(0)\n";
  s += "  " + t.mnemonic("global_store_dword") + " v1, v0, s[0:1]\n";
  s += "  s_endpgm\n.Lend:\n  .size k, .Lend-k\n";
  return s;
}

uint16_t le16(const std::string &b, size_t off) {
  return uint16_t(uint8_t(b[off]) | (uint8_t(b[off + 1]) << 8));
}

} // namespace

TEST_SUITE("mc") {

TEST_CASE("create: every supported target, unknown cpu is an error") {
  for (const TargetInfo &t : p2a::targets::allTargets()) {
    auto a = make(t.name);
    CHECK(a->cpu() == t.name);
    CHECK(a->waveSize() == t.wave_size);
  }
  std::string err;
  CHECK(Assembler::create("gfx9999", err) == nullptr);
  CHECK(err.find("gfx9999") != std::string::npos);
  err.clear();
  CHECK(Assembler::create("", err) == nullptr);
  CHECK(!err.empty());
}

TEST_CASE("assembles valid text on every target") {
  for (const TargetInfo &t : p2a::targets::allTargets()) {
    CAPTURE(t.name);
    auto a = make(t.name);
    std::string text = kernelFor(t);
    CAPTURE(text);
    AssembleResult r = a->assemble(text, OutputKind::Asm);
    INFO(diagText(r.diagnostics));
    CHECK(r.ok);
    CHECK(r.diagnostics.empty());
    CHECK(r.output.find("s_endpgm") != std::string::npos);
    CHECK(r.output.find(".amdgcn_target \"amdgcn-amd-amdhsa--" + t.name + "\"") != std::string::npos);
    // The output is itself valid input.
    CHECK(a->assemble(r.output, OutputKind::Asm).ok);
    CHECK(a->assemble(text, OutputKind::Object).ok);
  }
}

TEST_CASE("asm text matches llvm-mc formatting") {
  auto a = make("gfx942");
  AssembleResult r = a->assemble("s_nop 0\nv_add_u32 v0, v1, v2\n", OutputKind::Asm);
  REQUIRE(r.ok);
  CHECK(r.output ==
        "\t.text\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\ts_nop 0\n\tv_add_u32_e32 v0, v1, v2\n");
  // Empty input: only the preamble.
  AssembleResult e = a->assemble("", OutputKind::Asm);
  CHECK(e.ok);
  CHECK(e.output == "\t.text\n\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n");
}

TEST_CASE("literal in a gfx9 VOP3 is rejected with LLVM's message and column") {
  const std::string text = "s_nop 0\nv_alignbit_b32 v0, v1, v2, 0x1234\n";
  for (const char *cpu : {"gfx900", "gfx90a", "gfx942"}) {
    CAPTURE(cpu);
    AssembleResult r = make(cpu)->assemble(text, OutputKind::Asm);
    CHECK_FALSE(r.ok);
    REQUIRE(r.diagnostics.size() == 1);
    const McDiagnostic &d = r.diagnostics[0];
    CHECK(d.kind == McDiagnostic::Kind::Error);
    CHECK(d.message == "literal operands are not supported");
    CHECK(d.line == 2);
    CHECK(d.col == 28); // llvm-mc-19: <stdin>:2:28
    CHECK(d.source_line == "v_alignbit_b32 v0, v1, v2, 0x1234");
  }
  for (const char *cpu : {"gfx1030", "gfx1100", "gfx1200"}) {
    CAPTURE(cpu);
    CHECK(make(cpu)->assemble(text, OutputKind::Asm).ok);
  }
}

TEST_CASE("vcc is rejected in wave32, vcc_lo accepted") {
  for (const char *cpu : {"gfx1030", "gfx1100", "gfx1200"}) {
    CAPTURE(cpu);
    auto a = make(cpu);
    CHECK(a->waveSize() == 32);
    AssembleResult r = a->assemble("v_add_co_u32 v0, vcc, v1, v2", OutputKind::Asm);
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].message == "operands are not valid for this GPU or mode");
    CHECK(r.diagnostics[0].line == 1);
    CHECK(r.diagnostics[0].col == 1);
    CHECK(accepts(*a, "v_add_co_u32 v0, vcc_lo, v1, v2"));
  }
  for (const char *cpu : {"gfx900", "gfx90a", "gfx942"}) {
    CAPTURE(cpu);
    auto a = make(cpu);
    CHECK(a->waveSize() == 64);
    CHECK(accepts(*a, "v_add_co_u32 v0, vcc, v1, v2"));
  }
}

TEST_CASE("unaligned VGPR pair is rejected on gfx90a/gfx942 only") {
  const std::string text = "v_lshlrev_b64 v[1:2], 1, v[3:4]";
  for (const char *cpu : {"gfx90a", "gfx942"}) {
    CAPTURE(cpu);
    AssembleResult r = make(cpu)->assemble(text, OutputKind::Asm);
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].message == "invalid register class: vgpr tuples must be 64 bit aligned");
    CHECK(r.diagnostics[0].line == 1);
  }
  for (const char *cpu : {"gfx900", "gfx1030", "gfx1100", "gfx1200"}) {
    CAPTURE(cpu);
    CHECK(accepts(*make(cpu), text));
  }
}

TEST_CASE("object output is an AMDGPU ELF") {
  for (const TargetInfo &t : p2a::targets::allTargets()) {
    CAPTURE(t.name);
    AssembleResult r = make(t.name)->assemble(kernelFor(t), OutputKind::Object);
    INFO(diagText(r.diagnostics));
    REQUIRE(r.ok);
    REQUIRE(r.output.size() > 64);
    CHECK(r.output.compare(0, 4, "\x7f" "ELF") == 0);
    CHECK(uint8_t(r.output[4]) == 2);  // ELFCLASS64
    CHECK(uint8_t(r.output[5]) == 1);  // little endian
    CHECK(uint8_t(r.output[7]) == 64); // ELFOSABI_AMDGPU_HSA
    CHECK(le16(r.output, 18) == 224);  // EM_AMDGPU
  }
  // Errors produce no object.
  AssembleResult bad = make("gfx942")->assemble("v_bogus v0\n", OutputKind::Object);
  CHECK_FALSE(bad.ok);
  CHECK(bad.output.empty());
  CHECK_FALSE(bad.diagnostics.empty());
}

TEST_CASE("AsmWithEncoding shows encodings") {
  AssembleResult r = make("gfx942")->assemble("s_nop 0\nv_add_u32 v0, v1, v2\n", OutputKind::AsmWithEncoding);
  REQUIRE(r.ok);
  CHECK(r.output.find("encoding:") != std::string::npos);
  CHECK(r.output.find("s_nop 0                                 ; encoding: [0x00,0x00,0x80,0xbf]") !=
        std::string::npos);
  CHECK(r.output.find("v_add_u32_e32 v0, v1, v2                ; encoding: [0x01,0x05,0x00,0x68]") !=
        std::string::npos);
  AssembleResult plain = make("gfx942")->assemble("s_nop 0\n", OutputKind::Asm);
  CHECK(plain.output.find("encoding:") == std::string::npos);
  // The same instruction encodes differently on gfx1030.
  AssembleResult r10 = make("gfx1030")->assemble("s_nop 0\n", OutputKind::AsmWithEncoding);
  CHECK(r10.output.find("[0x00,0x00,0x80,0xbf]") != std::string::npos);
}

TEST_CASE("diagnostics: several errors, warnings do not fail") {
  auto a = make("gfx942");
  AssembleResult r = a->assemble("v_bogus v0\ns_nop 0\n  v_mov_b32 v0, v1, v2\n", OutputKind::Asm);
  CHECK_FALSE(r.ok);
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].line == 1);
  CHECK(r.diagnostics[0].col == 1);
  CHECK(r.diagnostics[0].message == "invalid instruction");
  CHECK(r.diagnostics[0].source_line == "v_bogus v0");
  CHECK(r.diagnostics[1].line == 3);
  CHECK(r.diagnostics[1].source_line == "  v_mov_b32 v0, v1, v2");
  AssembleResult w = a->assemble(".warning \"careful\"\ns_nop 0\n", OutputKind::Asm);
  CHECK(w.ok);
  REQUIRE(w.diagnostics.size() == 1);
  CHECK(w.diagnostics[0].kind == McDiagnostic::Kind::Warning);
  CHECK(w.diagnostics[0].message == "careful");
}

TEST_CASE("costs(): LLVM scheduling model numbers (as llvm-mca-19 -instruction-info)") {
  const std::string text = "v_alignbit_b32 v0, v1, v2, v3\n"
                           "v_lshlrev_b64 v[2:3], 1, v[4:5]\n"
                           "v_min_u32 v0, v1, v2\n"
                           "v_bfi_b32 v0, v1, v2, v3\n"
                           "s_and_b64 s[0:1], s[2:3], s[4:5]\n";
  struct Expect {
    const char *cpu;
    unsigned lat[5];
  };
  // Latencies observed with llvm-mca-19 -mtriple=amdgcn-amd-amdhsa -mcpu=X
  // -instruction-info; every RThroughput is 1.00 and every #uOps 1.
  const Expect expects[] = {
      {"gfx900", {1, 2, 1, 1, 1}},  {"gfx90a", {1, 1, 1, 1, 1}},  {"gfx942", {1, 1, 1, 1, 1}},
      {"gfx1030", {5, 6, 5, 5, 2}}, {"gfx1100", {5, 6, 5, 5, 2}}, {"gfx1200", {5, 6, 5, 5, 2}},
  };
  for (const Expect &e : expects) {
    CAPTURE(e.cpu);
    std::vector<McDiagnostic> diags;
    auto costs = make(e.cpu)->costs(text, diags);
    INFO(diagText(diags));
    REQUIRE(costs);
    REQUIRE(costs->size() == 5);
    for (size_t i = 0; i < 5; ++i) {
      const InstCost &c = (*costs)[i];
      CAPTURE(c.opcode_name);
      CHECK(c.latency == e.lat[i]);
      CHECK(c.rthroughput == doctest::Approx(1.0));
      CHECK(c.num_micro_ops == 1);
    }
  }
  std::vector<McDiagnostic> diags;
  auto c942 = make("gfx942")->costs(text, diags);
  REQUIRE(c942);
  CHECK((*c942)[0].opcode_name == "V_ALIGNBIT_B32_vi");
  CHECK((*c942)[1].opcode_name == "V_LSHLREV_B64_vi");
  CHECK((*c942)[2].opcode_name == "V_MIN_U32_e32_vi");
  CHECK((*c942)[4].opcode_name == "S_AND_B64_vi");
  auto c1100 = make("gfx1100")->costs(text, diags);
  REQUIRE(c1100);
  CHECK((*c1100)[0].opcode_name == "V_ALIGNBIT_B32_e64_gfx11");
}

TEST_CASE("costs(): bad lines fail with diagnostics; labels and directives are ignored") {
  auto a = make("gfx942");
  std::vector<McDiagnostic> diags;
  CHECK_FALSE(a->costs("s_nop 0\nv_bogus v1\n", diags));
  REQUIRE_FALSE(diags.empty());
  CHECK(diags[0].line == 2);
  diags.clear();
  auto c = a->costs(".text\nL0:\n  s_nop 0\n  s_branch L0\n", diags);
  REQUIRE(c);
  CHECK(c->size() == 2);
  CHECK(diags.empty());
  auto empty = a->costs("", diags);
  REQUIRE(empty);
  CHECK(empty->empty());
}

TEST_CASE("target facts match LLVM") {
  for (const TargetInfo &t : p2a::targets::allTargets()) {
    CAPTURE(t.name);
    auto a = make(t.name);
    CHECK(a->waveSize() == t.wave_size);
    CHECK(t.wave32() == (t.wave_size == 32));
    CHECK(t.isGfx10Plus() == (t.generation >= p2a::targets::Generation::GFX10));
    CHECK(accepts(*a, "v_xnor_b32 v0, v1, v2") == t.has_xnor);
    CHECK(accepts(*a, "v_xor3_b32 v0, v1, v2, v3") == t.has_xor3);
    CHECK(accepts(*a, "v_alignbit_b32 v0, v1, v2, 0x1234") == t.has_literal_in_vop3);
    // Constant bus: two different SGPRs in one VALU instruction.
    CHECK(accepts(*a, "v_add3_u32 v0, s1, s2, v1") == (t.constant_bus_limit >= 2));
    CHECK(accepts(*a, "v_add3_u32 v0, s1, v2, v1"));
    CHECK(accepts(*a, "v_lshlrev_b64 v[2:3], s1, s[2:3]") == (t.constant_bus_limit_64bit_shift >= 2));
    CHECK(accepts(*a, "v_lshlrev_b64 v[2:3], s1, v[2:3]"));
    CHECK(accepts(*a, "v_lshlrev_b64 v[1:2], 1, v[3:4]") == !t.requires_aligned_vgpr_pairs);
    CHECK(accepts(*a, "v_lshlrev_b64 v[2:3], 1, v[4:5]"));
    CHECK(accepts(*a, "v_cndmask_b32 v0, v1, v2, vcc") == (t.vcc == "vcc"));
    CHECK(accepts(*a, "v_cndmask_b32 v0, v1, v2, " + t.vcc));
    CHECK(accepts(*a, t.maskOp("s_mov") + " " + t.exec + ", 0"));
    CHECK(accepts(*a, "s_mov_b32 exec_lo, 0")); // half of exec is always addressable
    CHECK(accepts(*a, t.maskOp("s_and") + " " + t.vcc + ", " + t.vcc + ", " + t.exec));
    CHECK(accepts(*a, "v_cmp_eq_u32_e64 " + std::string(t.wave32() ? "s0" : "s[0:1]") + ", v0, v1"));
    CHECK_FALSE(accepts(*a, "v_cmp_eq_u32_e64 " + std::string(t.wave32() ? "s[0:1]" : "s0") + ", v0, v1"));
    CHECK(accepts(*a, t.valu_add + " v0, v1, v2"));
    CHECK(accepts(*a, t.valu_sub + " v0, v1, v2"));
    // gfx9 does not know v_sub_nc_u32 and gfx10 not v_sub_u32 (gfx11+ accept
    // v_sub_u32 again as an alias of v_sub_nc_u32).
    if (t.generation == p2a::targets::Generation::GFX9)
      CHECK_FALSE(accepts(*a, "v_sub_nc_u32 v0, v1, v2"));
    if (t.generation == p2a::targets::Generation::GFX10)
      CHECK_FALSE(accepts(*a, "v_sub_u32 v0, v1, v2"));
    CHECK(accepts(*a, t.valu_addc + " v0, " + t.vcc + ", v1, v2, " + t.vcc));
    CHECK(accepts(*a, t.mnemonic("v_subrev_u32") + " v0, v1, v2"));
    CHECK(accepts(*a, t.mnemonic("v_subb_co_u32") + " v0, " + t.vcc + ", v1, v2, " + t.vcc));
    CHECK(t.is_cdna == (t.name == "gfx90a" || t.name == "gfx942"));
    // 64-bit shift: VOP2 (_e32) form printed only on gfx12.
    AssembleResult sh = a->assemble("v_lshlrev_b64 v[2:3], 1, v[4:5]", OutputKind::Asm);
    CHECK((sh.output.find("v_lshlrev_b64_e32") != std::string::npos) == t.has_vop2_64bit_shift);
    CHECK(t.gfx11_mnemonics == (t.generation >= p2a::targets::Generation::GFX11));
    CHECK(t.gfx11_mnemonics == !t.renames.empty());
  }
  CHECK(p2a::targets::defaultTarget().name == "gfx942");
  CHECK(p2a::targets::findTarget("gfx1030")->generation == p2a::targets::Generation::GFX10);
  CHECK(p2a::targets::findTarget("gfx1100")->generation == p2a::targets::Generation::GFX11);
  CHECK(p2a::targets::findTarget("gfx1200")->generation == p2a::targets::Generation::GFX12);
  CHECK(p2a::targets::findTarget("gfx90a")->generation == p2a::targets::Generation::GFX9);
  CHECK(p2a::targets::findTarget("gfx906") == nullptr);
  CHECK(p2a::targets::allTargets().size() == 6);
  CHECK(std::string(p2a::targets::generationName(p2a::targets::Generation::GFX11)) == "GFX11");
}

TEST_CASE("gfx11+ mnemonic renames match LLVM") {
  // Operands for every renamed instruction.
  const std::pair<const char *, const char *> operands[] = {
      {"v_ffbh_u32", "v0, v1"},
      {"v_ffbl_b32", "v0, v1"},
      {"v_ffbh_i32", "v0, v1"},
      {"v_cvt_pkrtz_f16_f32", "v0, v1, v2"},
      {"s_andn2_b32", "s0, s1, s2"},
      {"s_andn2_b64", "s[0:1], s[2:3], s[4:5]"},
      {"s_orn2_b32", "s0, s1, s2"},
      {"s_orn2_b64", "s[0:1], s[2:3], s[4:5]"},
      {"s_andn2_saveexec_b32", "s0, s1"},
      {"s_andn2_saveexec_b64", "s[0:1], s[2:3]"},
      {"s_orn2_saveexec_b32", "s0, s1"},
      {"s_orn2_saveexec_b64", "s[0:1], s[2:3]"},
      {"s_andn1_saveexec_b32", "s0, s1"},
      {"s_ff1_i32_b32", "s0, s1"},
      {"s_ff1_i32_b64", "s0, s[2:3]"},
      {"s_flbit_i32_b32", "s0, s1"},
      {"s_flbit_i32_b64", "s0, s[2:3]"},
      {"s_flbit_i32", "s0, s1"},
      {"s_flbit_i32_i64", "s0, s[2:3]"},
      {"s_load_dword", "s0, s[0:1], 0x0"},
      {"s_load_dwordx2", "s[0:1], s[0:1], 0x0"},
      {"s_load_dwordx3", "s[0:2], s[0:1], 0x0"},
      {"s_load_dwordx4", "s[0:3], s[0:1], 0x0"},
      {"s_load_dwordx8", "s[0:7], s[0:1], 0x0"},
      {"s_load_dwordx16", "s[0:15], s[0:1], 0x0"},
      {"global_load_dword", "v0, v[2:3], off"},
      {"global_load_dwordx2", "v[0:1], v[2:3], off"},
      {"global_load_dwordx4", "v[0:3], v[4:5], off"},
      {"global_load_dwordx3", "v[0:2], v[4:5], off"},
      {"global_load_ubyte", "v0, v[2:3], off"},
      {"global_load_sbyte", "v0, v[2:3], off"},
      {"global_load_ushort", "v0, v[2:3], off"},
      {"global_load_sshort", "v0, v[2:3], off"},
      {"global_store_dword", "v[2:3], v0, off"},
      {"global_store_dwordx2", "v[2:3], v[0:1], off"},
      {"global_store_dwordx4", "v[4:5], v[0:3], off"},
      {"global_store_dwordx3", "v[4:5], v[0:2], off"},
      {"global_store_byte", "v[2:3], v0, off"},
      {"global_store_short", "v[2:3], v0, off"},
      {"ds_write_b32", "v0, v1"},
      {"ds_write_b64", "v0, v[2:3]"},
      {"ds_write_b96", "v0, v[2:4]"},
      {"ds_write_b128", "v0, v[2:5]"},
      {"ds_read_b32", "v0, v1"},
      {"ds_write_b8", "v0, v1"},
      {"ds_write_b16", "v0, v1"},
      {"ds_read_u8", "v0, v1"},
      {"ds_read_i8", "v0, v1"},
      {"ds_read_u16", "v0, v1"},
      {"ds_read_i16", "v0, v1"},
      {"ds_read_b64", "v[0:1], v1"},
      {"ds_read_b96", "v[0:2], v1"},
      {"ds_read_b128", "v[0:3], v1"},
      {"v_max_f32", "v0, v1, v2"},
      {"v_min_f32", "v0, v1, v2"},
      {"v_mad_u64_u32", "v[0:1], s0, v1, v2, v[2:3]"},
      {"v_mad_i64_i32", "v[0:1], s0, v1, v2, v[2:3]"},
      {"scratch_load_ubyte", "v0, v1, off"},
      {"scratch_load_sbyte", "v0, v1, off"},
      {"scratch_load_ushort", "v0, v1, off"},
      {"scratch_load_sshort", "v0, v1, off"},
      {"scratch_load_dword", "v0, v1, off"},
      {"scratch_load_dwordx2", "v[0:1], v1, off"},
      {"scratch_load_dwordx3", "v[2:4], v1, off"},
      {"scratch_load_dwordx4", "v[2:5], v1, off"},
      {"scratch_store_byte", "v1, v0, off"},
      {"scratch_store_short", "v1, v0, off"},
      {"scratch_store_dword", "v1, v0, off"},
      {"scratch_store_dwordx2", "v1, v[2:3], off"},
      {"scratch_store_dwordx3", "v1, v[2:4], off"},
      {"scratch_store_dwordx4", "v1, v[2:5], off"},
      {"flat_load_ubyte", "v0, v[2:3]"},
      {"flat_load_sbyte", "v0, v[2:3]"},
      {"flat_load_ushort", "v0, v[2:3]"},
      {"flat_load_sshort", "v0, v[2:3]"},
      {"flat_load_dword", "v0, v[2:3]"},
      {"flat_load_dwordx2", "v[0:1], v[2:3]"},
      {"flat_load_dwordx3", "v[4:6], v[2:3]"},
      {"flat_load_dwordx4", "v[4:7], v[2:3]"},
      {"flat_store_byte", "v[2:3], v0"},
      {"flat_store_short", "v[2:3], v0"},
      {"flat_store_dword", "v[2:3], v0"},
      {"flat_store_dwordx2", "v[2:3], v[0:1]"},
      {"flat_store_dwordx3", "v[2:3], v[4:6]"},
      {"flat_store_dwordx4", "v[2:3], v[4:7]"},
      {"global_atomic_add", "v[2:3], v0, off"},
      {"global_atomic_inc", "v[2:3], v0, off"},
      {"global_atomic_dec", "v[2:3], v0, off"},
      {"global_atomic_umin", "v[2:3], v0, off"},
      {"global_atomic_smin", "v[2:3], v0, off"},
      {"global_atomic_umax", "v[2:3], v0, off"},
      {"global_atomic_smax", "v[2:3], v0, off"},
      {"global_atomic_and", "v[2:3], v0, off"},
      {"global_atomic_or", "v[2:3], v0, off"},
      {"global_atomic_xor", "v[2:3], v0, off"},
      {"global_atomic_swap", "v[2:3], v0, off"},
      {"global_atomic_cmpswap", "v[2:3], v[0:1], off"},
      {"global_atomic_add_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_umin_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_smin_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_umax_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_smax_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_and_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_or_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_xor_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_swap_x2", "v[2:3], v[0:1], off"},
      {"global_atomic_cmpswap_x2", "v[2:3], v[4:7], off"},
      {"ds_wrxchg_rtn_b32", "v0, v1, v2"},
      {"ds_wrxchg_rtn_b64", "v[0:1], v2, v[4:5]"},
      {"s_ff1_i32_b64", "s0, s[2:3]"},
      {"s_ff1_i32_b32", "s0, s2"},
      {"s_add_i32", "s0, s1, s2"},
      {"s_sub_i32", "s0, s1, s2"},
      {"s_add_u32", "s0, s1, s2"},
      {"s_addc_u32", "s0, s1, s2"},
  };
  auto opsFor = [&](const std::string &from) -> std::string {
    for (const auto &p : operands)
      if (from == p.first)
        return p.second;
    return "";
  };
  const TargetInfo &gfx1030 = *p2a::targets::findTarget("gfx1030");
  auto a1030 = make("gfx1030");
  for (const char *cpu : {"gfx1100", "gfx1200"}) {
    CAPTURE(cpu);
    const TargetInfo &t = *p2a::targets::findTarget(cpu);
    auto a = make(cpu);
    for (const auto &r : t.renames) {
      CAPTURE(r.from);
      std::string ops = opsFor(r.from);
      REQUIRE_MESSAGE(!ops.empty(), "test lacks operands for " << r.from);
      // The new name assembles and prints as itself...
      AssembleResult rn = a->assemble(r.to + " " + ops, OutputKind::Asm);
      INFO(diagText(rn.diagnostics));
      CHECK(rn.ok);
      CHECK(rn.output.find("\t" + r.to) != std::string::npos);
      // ...the old name is accepted as an alias and printed as the new one
      // (where there is one: 96-bit scalar loads are new in gfx12, and only
      // the emulator's table spells them the gfx9 way)...
      if (r.from != "s_load_dwordx3") {
        AssembleResult ro = a->assemble(r.from + " " + ops, OutputKind::Asm);
        CHECK(ro.ok);
        CHECK(ro.output.find("\t" + r.to) != std::string::npos);
      }
      // ...and gfx10 does not know the new name (unless gfx11 and gfx12 differ).
      if (gfx1030.mnemonic(r.from) == r.from)
        CHECK_FALSE(accepts(*a1030, r.to + " " + ops));
    }
  }
  const TargetInfo &g11 = *p2a::targets::findTarget("gfx1100");
  const TargetInfo &g12 = *p2a::targets::findTarget("gfx1200");
  const TargetInfo &g9 = p2a::targets::defaultTarget();
  CHECK(g11.mnemonic("v_ffbh_u32") == "v_clz_i32_u32");
  CHECK(g11.mnemonic("v_max_f32") == "v_max_f32");
  CHECK(g12.mnemonic("v_max_f32") == "v_max_num_f32");
  CHECK(g9.mnemonic("v_ffbh_u32") == "v_ffbh_u32");
  CHECK(g9.maskOp("s_andn2") == "s_andn2_b64");
  CHECK(gfx1030.maskOp("s_andn2") == "s_andn2_b32");
  CHECK(g11.maskOp("s_andn2") == "s_and_not1_b32");
  CHECK(gfx1030.mnemonic("v_sub_u32") == "v_sub_nc_u32");
  CHECK(g9.mnemonic("v_sub_u32") == "v_sub_u32");
}

TEST_CASE("bad input never aborts or hangs") {
#if defined(P2A_ASAN)
  // Some of these inputs make LLVM raise a fatal error, which the backend turns
  // into an exception so that the process survives. libLLVM is built without
  // exception cleanups, so what its frames had allocated is never freed: a
  // leak by design on this path (which translated code never takes), not one
  // to report here.
  __lsan::ScopedDisabler fatalPathsLeak;
#endif
  auto a = make("gfx942");
  // Each of these made llvm-mc-19 itself abort ("Fragment can't be larger
  // than a bundle size") or hang forever (AMDGPU parser error recovery at
  // end of input), or would need gigabytes of output.
  const std::string nasty[] = {
      ".bundle_align_mode 2\nv_lshlrev_b64 v[2:3], 1, v[4:5]\n",
      "x<\"\n",
      "x<\x7f\n",
      "x<'",
      "_\xe0\x7f\n",
      ".fill 0x7fffffff, 8, 0\n",
      std::string("s_nop 0\n\0\0v_mov_b32 v0\n", 24),
      ".macro m\nm\n.endm\nm\n",
      ".rept 3\n",
      ".if 1\n",
      ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 99999\n.end_amdhsa_kernel\n",
      ".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n",
      ".amdhsa_code_object_version 99\n",
      "v_mov_b32 v0, v[4294967295:0]\n",
      "s_mov_b32 s0, 99999999999999999999999999999\n",
      ".byte undefined_symbol - other\n",
      ".org 8\n.org 0\n",
      ".section .foo,\"ax\"\n.reloc 0, R_AMDGPU_BOGUS, x\n",
      "image_sample v[0:3], v[0:1], s[0:7], s[0:3] dmask:0xff dim:SQ_RSRC_IMG_2D\n",
      "v_mov_b32_dpp v0, v1 quad_perm:[9,9,9,9] row_mask:0x1f\n",
  };
  for (const std::string &text : nasty) {
    CAPTURE(text);
    for (OutputKind k : {OutputKind::Asm, OutputKind::AsmWithEncoding, OutputKind::Object}) {
      AssembleResult r = a->assemble(text, k);
      if (!r.ok)
        CHECK_FALSE(r.diagnostics.empty());
    }
    std::vector<McDiagnostic> diags;
    auto c = a->costs(text, diags);
    if (!c)
      CHECK_FALSE(diags.empty());
  }
  AssembleResult fatal = a->assemble(nasty[0], OutputKind::Object);
  CHECK_FALSE(fatal.ok);
  REQUIRE_FALSE(fatal.diagnostics.empty());
  CHECK(fatal.diagnostics[0].message.find("bundle") != std::string::npos);
  AssembleResult huge = a->assemble(nasty[5], OutputKind::Object);
  CHECK_FALSE(huge.ok);
  CHECK(huge.output.empty());
  REQUIRE_FALSE(huge.diagnostics.empty());
  CHECK(huge.diagnostics[0].message.find("would exceed") != std::string::npos);
  CHECK_FALSE(a->assemble(".set N, 0x7fffffff\n.fill N, 8, 0\n", OutputKind::Object).ok);
  // The size pass runs only where a directive can expand while parsing
  // (spelled in any case, or repeated); a fill the writer makes is capped
  // as it is written.
  for (const char *expanding : {".FiLL 0x7fffffff, 8, 0\n", ".irp x, 1, 2\n.fill 0x7fffffff, 8, \\x\n.endr\n"}) {
    AssembleResult r = a->assemble(expanding, OutputKind::Object);
    CHECK_FALSE(r.ok);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].message.find("would exceed") != std::string::npos);
  }
  AssembleResult zeros = a->assemble(".data\n.zero 0x20000000\n", OutputKind::Object);
  CHECK_FALSE(zeros.ok);
  CHECK(zeros.output.empty());
  REQUIRE_FALSE(zeros.diagnostics.empty());
  CHECK(zeros.diagnostics[0].message.find("exceeds") != std::string::npos);
  // The assembler still works afterwards.
  CHECK(accepts(*a, "s_nop 0"));
}

TEST_CASE("random garbage never aborts") {
  std::mt19937 rng(20240601);
  const char *words[] = {"v_add_u32", "v_lshlrev_b64", "s_and_b64", "global_load_dword", "v_mov_b32_dpp",
                         "image_load", "s_waitcnt", ".byte", ".amdhsa_kernel", ".macro", ".rept", ".if",
                         "v0", "v[1:2]", "s[0:1]", "vcc", "exec_lo", "0x1234", "-1.5", "off", "offset:4",
                         "glc", "row_shl:1", "<", ">", "\"", "'", "(", "]", ",", ":", ";", "#", "\\", "\x7f",
                         "\xff", "\n"};
  const char *cpus[] = {"gfx900", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};
  std::vector<std::unique_ptr<Assembler>> as;
  for (const char *c : cpus)
    as.push_back(make(c));
  for (int i = 0; i < 300; ++i) {
    std::string t;
    int n = 1 + int(rng() % 12);
    for (int j = 0; j < n; ++j) {
      t += words[rng() % (sizeof(words) / sizeof(*words))];
      t += (rng() % 3) ? " " : "";
    }
    CAPTURE(t);
    const Assembler &a = *as[rng() % as.size()];
    AssembleResult r = a.assemble(t, OutputKind(rng() % 3));
    if (!r.ok)
      CHECK_FALSE(r.diagnostics.empty());
    std::vector<McDiagnostic> d;
    (void)a.costs(t, d);
  }
}

TEST_CASE("concurrent use from several threads") {
  const TargetInfo &t942 = p2a::targets::defaultTarget();
  const TargetInfo &t1100 = *p2a::targets::findTarget("gfx1100");
  auto ref942 = make("gfx942")->assemble(kernelFor(t942), OutputKind::AsmWithEncoding);
  auto ref1100 = make("gfx1100")->assemble(kernelFor(t1100), OutputKind::Object);
  REQUIRE(ref942.ok);
  REQUIRE(ref1100.ok);
  auto shared = make("gfx942");
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      std::string err;
      auto own = Assembler::create(i % 2 ? "gfx1100" : "gfx942", err); // separate objects
      if (!own) {
        ++mismatches;
        return;
      }
      for (int k = 0; k < 20; ++k) {
        if (i % 2) {
          if (own->assemble(kernelFor(t1100), OutputKind::Object).output != ref1100.output)
            ++mismatches;
        } else {
          if (own->assemble(kernelFor(t942), OutputKind::AsmWithEncoding).output != ref942.output)
            ++mismatches;
        }
        // One Assembler shared by all threads works too.
        if (shared->assemble(kernelFor(t942), OutputKind::AsmWithEncoding).output != ref942.output)
          ++mismatches;
        std::vector<McDiagnostic> d;
        auto c = shared->costs("v_lshlrev_b64 v[2:3], 1, v[4:5]\nx<\"", d);
        if (c || d.empty())
          ++mismatches;
      }
    });
  }
  for (auto &th : threads)
    th.join();
  CHECK(mismatches.load() == 0);
}

TEST_CASE("register tuples as lists: the same objects as ranges, on every target") {
  using p2a::mir::TupleSpelling;
  CHECK(p2a::mir::registerTupleText("v", 6, 2, TupleSpelling::Range) == "v[6:7]");
  CHECK(p2a::mir::registerTupleText("v", 6, 2, TupleSpelling::List) == "[v6,v7]");
  CHECK(p2a::mir::registerTupleText("s", 8, 4, TupleSpelling::List) == "[s8,s9,s10,s11]");
  CHECK(p2a::mir::registerTupleText("v", 3, 1, TupleSpelling::List) == "v3");
  // Samples with 64-bit values, SGPR pairs and x4/x8 loads (sha256), 64-bit
  // atomics' register quads (generic), calls and spills of pairs (calls).
  for (const char *sample : {"sha256/sha256.ptx", "generic/generic.ptx", "calls/calls.ptx", "keccak/keccak.ptx"}) {
    const std::string text = p2a::testing::slurp(std::string(P2A_SOURCE_DIR) + "/samples/" + sample);
    REQUIRE(!text.empty());
    for (const TargetInfo &t : p2a::targets::allTargets()) {
      INFO(sample << " on " << t.name);
      p2a::klower::Options ranges, lists;
      lists.tuples = TupleSpelling::List;
      const p2a::module::ModuleResult r =
          p2a::module::translateModule(text, t, p2a::testing::costModel(), {}, ranges);
      const p2a::module::ModuleResult l = p2a::module::translateModule(text, t, p2a::testing::costModel(), {}, lists);
      REQUIRE(r.ok);
      REQUIRE(l.ok);
      CHECK(r.assembly.find("v[") != std::string::npos);
      CHECK(l.assembly.find("v[") == std::string::npos);
      CHECK(l.assembly.find("s[") == std::string::npos);
      CHECK(l.assembly.find(",v") != std::string::npos);
      CHECK(l.object == r.object);
    }
  }
}

// The text split into pieces at line boundaries `cuts` (line numbers after
// which a piece ends), assembled as PieceAssembly takes it.
AssembleResult inPieces(const Assembler &a, const std::string &text, const std::vector<size_t> &cuts,
                        std::string *joined = nullptr) {
  std::vector<std::string> pieces(1);
  size_t line = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    pieces.back() += text[i];
    if (text[i] == '\n' && std::find(cuts.begin(), cuts.end(), ++line) != cuts.end())
      pieces.emplace_back();
  }
  std::unique_ptr<p2a::mc::PieceAssembly> assembly = a.beginObject();
  for (size_t i = 0; i + 1 < pieces.size(); ++i)
    assembly->add(pieces[i]);
  std::vector<std::string> back;
  AssembleResult r = assembly->finish(pieces.back(), back);
  if (joined) {
    joined->clear();
    for (const std::string &piece : back)
      *joined += piece;
  }
  return r;
}

void checkSameAsWhole(const Assembler &a, const std::string &text, const std::vector<size_t> &cuts) {
  std::string joined;
  const AssembleResult whole = a.assemble(text, OutputKind::Object);
  const AssembleResult pieces = inPieces(a, text, cuts, &joined);
  INFO(diagText(whole.diagnostics));
  CHECK(joined == text);
  CHECK(pieces.ok == whole.ok);
  CHECK(pieces.output == whole.output);
  CHECK(diagText(pieces.diagnostics) == diagText(whole.diagnostics));
}

TEST_CASE("a text in pieces: the object and diagnostics of the whole text") {
  for (const TargetInfo &t : p2a::targets::allTargets()) {
    CAPTURE(t.name);
    auto a = make(t.name);
    // Two kernels, cut between and inside them (a piece ending in .text,
    // the next continuing in it), and the data after them.
    std::string second = kernelFor(t);
    for (const std::string from : {"\nk:", " k\n", " k,", "-k\n", ".Lend"})
      for (size_t at = second.find(from); at != std::string::npos; at = second.find(from, at + 1))
        second.insert(at + from.size() - (from.back() == '\n' || from.back() == ',' || from.back() == ':'), "2");
    const std::string text = kernelFor(t) + second + "  .data\nvalue:\n  .long 7\n";
    REQUIRE(make(t.name)->assemble(text, OutputKind::Object).ok);
    for (const std::vector<size_t> &cuts :
         std::vector<std::vector<size_t>>{{}, {1}, {5}, {10, 25}, {3, 8, 20, 30, 40}})
      checkSameAsWhole(*a, text, cuts);
  }
  auto a = make("gfx942");
  // Errors in two pieces: both reported, lines counted in the whole text,
  // and no object.
  const std::string bad = "s_nop 0\nv_bogus v0\ns_nop 0\n  v_mov_b32 v0, v1, v2\ns_nop 0\n";
  checkSameAsWhole(*a, bad, {1, 3});
  const AssembleResult r = inPieces(*a, bad, {1, 3});
  CHECK_FALSE(r.ok);
  CHECK(r.output.empty());
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].line == 2);
  CHECK(r.diagnostics[1].line == 4);
  CHECK(r.diagnostics[1].source_line == "  v_mov_b32 v0, v1, v2");
  // An error found only when the object is laid out (a label used before
  // and after its piece), and a directive that may expand (the whole text
  // then goes to assemble, its size bound included).
  for (const std::string &text : {"s_nop 0\n.org 8\ns_nop 0\n.org 0\n", "s_nop 0\n.fill 0x7fffffff, 8, 0\n"}) {
    CHECK_FALSE(a->assemble(text, OutputKind::Object).ok);
    checkSameAsWhole(*a, text, {1, 2});
  }
  checkSameAsWhole(*a, "s_nop 0\n.fill 2, 4, 0\ns_nop 0\n", {1});
  // A piece without its final newline: the next continues its line.
  std::unique_ptr<p2a::mc::PieceAssembly> glued = a->beginObject();
  glued->add("s_nop 0\ns_nop");
  std::vector<std::string> back;
  const AssembleResult g = glued->finish(" 1\n", back);
  CHECK(g.ok);
  CHECK(g.output == a->assemble("s_nop 0\ns_nop 1\n", OutputKind::Object).output);
  REQUIRE(back.size() == 1);
  CHECK(back[0] == "s_nop 0\ns_nop 1\n");
}


// ---------------------------------------------------------------------------
// Reusing a statement's parse for later statements of its shape
// (targets/instruction_reuse.hpp).

std::unique_ptr<Assembler> makeParsingEach(const std::string &cpu) {
  std::string err;
  auto a = Assembler::create(cpu, err, p2a::mc::InstructionParsing::EachStatement);
  REQUIRE_MESSAGE(a, "cannot create assembler for " << cpu << ": " << err);
  return a;
}

// The same text, objects, diagnostics and status with reuse as with every
// statement parsed, whole and in pieces; returns the statements reused.
unsigned checkSameAsParsingEach(const std::string &cpu, const std::string &text) {
  auto reusing = make(cpu);
  auto each = makeParsingEach(cpu);
  unsigned reused = 0;
  for (OutputKind kind : {OutputKind::Object, OutputKind::Asm, OutputKind::AsmWithEncoding}) {
    const AssembleResult r = reusing->assemble(text, kind), e = each->assemble(text, kind);
    INFO(cpu << " " << int(kind) << "\n" << diagText(e.diagnostics));
    CHECK(r.ok == e.ok);
    CHECK(r.output == e.output);
    CHECK(diagText(r.diagnostics) == diagText(e.diagnostics));
    CHECK(e.reusedInstructions == 0);
    reused = r.reusedInstructions;
  }
  const AssembleResult pieces = inPieces(*reusing, text, {2, 5, 9});
  const AssembleResult e = each->assemble(text, OutputKind::Object);
  CHECK(pieces.ok == e.ok);
  CHECK(pieces.output == e.output);
  CHECK(diagText(pieces.diagnostics) == diagText(e.diagnostics));
  return reused;
}

TEST_CASE("instruction shapes: registers numbered by first appearance, the rest as written") {
  using p2a::mc::RegisterRun;
  using p2a::mc::shapeOf;
  const auto add = shapeOf("v_add_u32 v7, v3, v7");
  REQUIRE(add);
  CHECK(add->key == "v_add_u32 v#0:1l, v#1:1l, v#0:1l");
  REQUIRE(add->registers.size() == 2);
  CHECK(add->registers[0] == RegisterRun{'v', 7, 1});
  CHECK(add->registers[1] == RegisterRun{'v', 3, 1});
  CHECK(add->identifiers.empty());
  CHECK(shapeOf("v_add_u32 v1, v100, v1")->key == add->key);
  CHECK(shapeOf("v_add_u32 v1, v2, v3")->key != add->key);  // which operands are the same register
  CHECK(shapeOf("v_add_u32 v1, s2, v1")->key != add->key);  // the register file
  CHECK(shapeOf("v_add_u32 v1, v2, v1 ")->key != add->key); // the text
  // Ranges and lists alike; a VGPR tuple's parity kept (gfx90a's alignment).
  const auto load = shapeOf("global_load_dwordx2 v[2:3], v[4:5], off");
  REQUIRE(load);
  CHECK(load->key == "global_load_dwordx2 v#0:2el, v#1:2el, off");
  CHECK(shapeOf("global_load_dwordx2 [v6,v7], [v0,v1], off")->key == "global_load_dwordx2 [v#0:2el, [v#1:2el, off");
  CHECK(shapeOf("global_load_dwordx2 v[6:7], v[0:1], off")->key == load->key);
  CHECK(shapeOf("global_load_dwordx2 v[3:4], v[6:7], off")->key != load->key);
  CHECK(shapeOf("s_load_dwordx2 s[4:5], s[0:1], 0x10")->key == "s_load_dwordx2 s#0:2, s#1:2, 0x10");
  CHECK(load->identifiers == llvm::SmallVector<std::string_view, 4>{"off"});
  const auto waitcnt = shapeOf("s_waitcnt vmcnt(0) lgkmcnt(0)");
  REQUIRE(waitcnt);
  CHECK(waitcnt->registers.empty());
  CHECK(waitcnt->identifiers == llvm::SmallVector<std::string_view, 4>{"vmcnt", "lgkmcnt"});
  const auto symbol = shapeOf("s_add_u32 s30, s30, Gx@rel32@lo+4");
  REQUIRE(symbol);
  CHECK(symbol->identifiers == llvm::SmallVector<std::string_view, 4>{"Gx@rel32@lo"});
  CHECK(shapeOf("v_mov_b32 v1, 0x1f")->key == "v_mov_b32 v#0:1l, 0x1f");
  // v128 and above, and tuples across v127/v128, apart from v0-v127.
  CHECK(shapeOf("v_mov_b32 v200, v1")->key == "v_mov_b32 v#0:1h, v#1:1l");
  CHECK(shapeOf("v_lshlrev_b64 v[126:127], 1, v[127:128]") == std::nullopt); // (overlap)
  CHECK(shapeOf("v_lshlrev_b64 v[126:127], 1, v[128:129]")->key == "v_lshlrev_b64 v#0:2el, 1, v#1:2eh");
  CHECK(shapeOf("v_lshlrev_b64 v[100:101], 1, v[127:128]")->key == "v_lshlrev_b64 v#0:2el, 1, v#1:2ox");
  CHECK(shapeOf("s_mov_b32 s0, sc0")->identifiers == llvm::SmallVector<std::string_view, 4>{"sc0"});
  // Always parsed: comments, VOPD (register banks), operands that overlap
  // without being equal, a list that is not one run.
  CHECK_FALSE(shapeOf("v_mov_b32 v0, v1 ; copy"));
  CHECK_FALSE(shapeOf("v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v2, v3"));
  CHECK_FALSE(shapeOf("v_lshlrev_b64 v[2:3], 1, v3"));
  CHECK_FALSE(shapeOf("s_load_dwordx2 [s0,s2], s[4:5], 0"));
  CHECK_FALSE(shapeOf("ds_gws_init v2 gds"));
  CHECK_FALSE(shapeOf("s_mov_b64 s[010:011], 0")); // (MC: octal, s[8:9])
  CHECK_FALSE(shapeOf("v_mov_b32 v1, v[010:010]"));
}

TEST_CASE("reused instructions: the objects, text and diagnostics of parsing each statement") {
  // Statements that differ only in registers: all but the first reused.
  std::mt19937 rng(7);
  std::string adds;
  for (int i = 0; i < 1000; ++i)
    adds += "  v_add3_u32 v" + std::to_string(rng() % 200) + ", v" + std::to_string(rng() % 200) + ", s" +
            std::to_string(2 * (rng() % 40)) + ", v" + std::to_string(200 + rng() % 50) + "\n";
  for (const TargetInfo &t : p2a::targets::allTargets()) {
    // (A statement is reused once statements MC read have named its registers.)
    CHECK(checkSameAsParsingEach(t.name, adds) > 800);
  }
  // Translated samples, on every target.
  for (const char *sample : {"sha256/sha256.ptx", "generic/generic.ptx", "calls/calls.ptx"}) {
    const std::string text = p2a::testing::slurp(std::string(P2A_SOURCE_DIR) + "/samples/" + sample);
    for (const TargetInfo &t : p2a::targets::allTargets()) {
      INFO(sample << " on " << t.name);
      const p2a::module::ModuleResult m = p2a::module::translateModule(text, t, p2a::testing::costModel(), {}, {});
      REQUIRE(m.ok);
      CHECK(checkSameAsParsingEach(t.name, m.assembly) > 0);
    }
  }
  // What MC validates beyond one operand, where a statement has the shape
  // of an accepted one and names accepted registers: an odd VGPR pair
  // (gfx90a, gfx942), two SGPRs on gfx9's constant bus; and a register the
  // target lacks (s102 on gfx9), named for the first time.
  const std::string pairs = "global_load_dwordx2 v[2:3], v[0:1], off\nglobal_load_dwordx2 v[4:5], v[6:7], off\n"
                            "global_load_dwordx2 v[4:5], v[0:1], off\nglobal_load_dwordx2 v[3:4], v[0:1], off\n";
  const std::string constantBus = "v_add3_u32 v0, s1, s1, v2\nv_add3_u32 v0, s2, s2, v2\n"
                                  "v_add3_u32 v0, s1, s1, v2\nv_add3_u32 v0, s1, s2, v2\n";
  const std::string sgpr102 = "s_mov_b32 s0, s1\ns_mov_b32 s3, s2\ns_mov_b32 s0, s2\ns_mov_b32 s102, s1\n";
  for (const char *cpu : {"gfx900", "gfx942", "gfx1030"}) {
    CAPTURE(cpu);
    const bool gfx9 = std::string(cpu) != "gfx1030";
    CHECK(checkSameAsParsingEach(cpu, pairs) == 1);
    CHECK(make(cpu)->assemble(pairs, OutputKind::Object).ok == (std::string(cpu) == "gfx900" || !gfx9));
    CHECK(checkSameAsParsingEach(cpu, constantBus) == 1);
    CHECK(make(cpu)->assemble(constantBus, OutputKind::Object).ok == !gfx9);
    CHECK(checkSameAsParsingEach(cpu, sgpr102) == 1);
    CHECK(make(cpu)->assemble(sgpr102, OutputKind::Object).ok == !gfx9);
  }
  // Symbols are MC's to evaluate where they stand: a value set twice,
  // labels, a symbol defined after its use.
  CHECK(checkSameAsParsingEach("gfx942", ".set val, 5\ns_mov_b32 s0, val\n.set val, 6\ns_mov_b32 s1, val\n"
                                         "s_mov_b32 s2, val\n") == 0);
  CHECK(checkSameAsParsingEach("gfx942", "s_branch .L1\ns_branch .L1\n.L1:\ns_nop 0\ns_branch .L1\n") == 0);
  CHECK(checkSameAsParsingEach("gfx942", "s_mov_b32 s0, later\ns_mov_b32 s1, later\nlater = 3\n") == 0);
  // What the review of reuse found (each compared with every statement
  // parsed): gfx11+'s 16-bit VOPC reaches v0-v127 only (from v128 on, MC
  // matches the VOP3 opcode); octal indices; NSA image addresses as lists
  // on gfx10+; GWS's even VGPR on gfx90a.
  for (const char *cpu : {"gfx1100", "gfx1200"}) {
    CAPTURE(cpu);
    const std::string vopc = "v_cmp_lt_u16 vcc_lo, v1, v2\nv_mov_b32 v200, v1\nv_cmp_lt_u16 vcc_lo, v1, v200\n"
                             "v_cmp_lt_u16 vcc_lo, v2, v1\n";
    REQUIRE(make(cpu)->assemble(vopc, OutputKind::Object).ok);
    CHECK(checkSameAsParsingEach(cpu, vopc) == 1);
  }
  CHECK(checkSameAsParsingEach("gfx900", "s_mov_b64 s[2:3], 0\ns_mov_b64 s[8:9], 0\ns_mov_b64 s[010:011], 0\n"
                                         "s_mov_b64 s[8:9], 1\n") == 0);
  const std::string nsa = "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
                          "image_sample v[0:3], [v4,v5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
                          "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n";
  REQUIRE(make("gfx1030")->assemble(nsa, OutputKind::Object).ok);
  CHECK(checkSameAsParsingEach("gfx1030", nsa) == 1);
  const std::string gws = "ds_gws_init v2 gds\nds_gws_init v4 gds\nv_mov_b32 v1, v1\nds_gws_init v1 gds\n";
  CHECK_FALSE(make("gfx90a")->assemble(gws, OutputKind::Object).ok);
  CHECK(checkSameAsParsingEach("gfx90a", gws) == 0);
  // A parser per piece counts the registers it reads into
  // .amdgcn.next_free_vgpr from 0: each reads the registers of its own
  // reused statements.
  {
    const std::string counted = "v_mov_b32 v10, v11\nv_mov_b32 v3, v4\nv_mov_b32 v3, v4\nv_mov_b32 v4, v3\n"
                                ".set m, .amdgcn.next_free_vgpr\n.long m\n";
    auto reusing = make("gfx942");
    auto each = makeParsingEach("gfx942");
    const AssembleResult r = inPieces(*reusing, counted, {2}), e = inPieces(*each, counted, {2});
    CHECK(r.ok);
    CHECK(r.output == e.output);
    CHECK(r.reusedInstructions == 1);
  }
  // Random statements of a few shapes over small pools of registers, valid
  // and not (odd pairs on gfx90a, s102 on gfx9, v128+ in gfx11's 16-bit
  // VOPC, two SGPRs on gfx9's constant bus, ...), on every target: the same
  // as every statement parsed, diagnostics included.
  {
    const std::vector<std::string> shapes = {
        "v_add_u32 V, V, V",         "v_add3_u32 V, S, S, V",       "v_cmp_lt_u16 vcc_lo, V, V",
        "v_cmp_lt_u16 vcc, V, V",    "v_lshlrev_b64 P, 1, P",       "global_load_dwordx2 P, P, off",
        "s_mov_b64 Q, 0",            "s_add_u32 S, S, S",           "v_mad_u64_u32 P, Q, V, V, P",
        "v_mov_b32 V, S",            "v_cndmask_b32 V, V, V, vcc",  "v_add_f16 V, V, V",
        "v_alignbit_b32 V, V, V, 7", "s_load_dwordx4 R, Q, 0x10",   "v_xor3_b32 V, V, S, V"};
    const std::vector<std::string> v = {"v1", "v2", "v3", "v5", "v130", "v200", "v255"};
    const std::vector<std::string> sg = {"s1", "s2", "s3", "s101", "s102", "s104"};
    const std::vector<std::string> pairs = {"v[2:3]", "v[4:5]", "v[3:4]", "v[130:131]", "[v6,v7]", "v[8:9]"};
    const std::vector<std::string> sgprPairs = {"s[2:3]", "s[4:5]", "s[3:4]", "s[100:101]", "[s6,s7]"};
    const std::vector<std::string> quads = {"s[8:11]", "s[12:15]", "s[10:13]"};
    for (const TargetInfo &t : p2a::targets::allTargets()) {
      CAPTURE(t.name);
      std::mt19937 pick(11);
      auto any = [&](const std::vector<std::string> &from) { return from[pick() % from.size()]; };
      // Valid statements alone first (MC stops emitting at an error): the
      // reused object too; then the mixture, for its diagnostics.
      std::string valid, mixed;
      for (int i = 0; i < 400; ++i) {
        std::string line;
        for (char c : any(shapes))
          line += c == 'V' ? any(v) : c == 'S' ? any(sg) : c == 'P' ? any(pairs) : c == 'Q' ? any(sgprPairs)
                  : c == 'R' ? any(quads) : std::string(1, c);
        mixed += line + "\n";
        if (make(t.name)->assemble(line + "\n", OutputKind::Object).ok)
          valid += line + "\n";
      }
      CHECK(checkSameAsParsingEach(t.name, valid) > 100);
      checkSameAsParsingEach(t.name, mixed);
    }
  }
  // Bad statements of an accepted shape, and garbage after one.
  CHECK(checkSameAsParsingEach("gfx942", "v_mov_b32 v1, v2\nv_mov_b32 v3, v4\nv_mov_b32 v1, v4\n"
                                         "v_mov_b32 v5, v300\nv_mov_b32 v3, v2 v1\nv_mov_b32 v1, v2\n") == 2);
}

} // TEST_SUITE("mc")
