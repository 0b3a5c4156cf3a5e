// Per-GPU facts; see target_info.hpp. Each fact was verified with llvm-mc-19
// (`echo '<inst>' | llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=X -show-encoding`)
// and is re-checked in tests/mc_backend_test.cpp (TEST_SUITE "mc") through
// the in-process assembler. References:
//   [ISA-Vega]  AMD "Vega" Instruction Set Architecture (GCN5, gfx900)
//   [ISA-MI200] AMD Instinct MI200 "CDNA2" ISA Reference Guide (gfx90a)
//   [ISA-MI300] AMD Instinct MI300 "CDNA3" ISA Reference Guide (gfx942)
//   [ISA-RDNA2] AMD "RDNA2" Instruction Set Architecture (gfx1030)
//   [ISA-RDNA3] AMD "RDNA3" Instruction Set Architecture (gfx1100)
//   [ISA-RDNA4] AMD "RDNA4" Instruction Set Architecture (gfx1200)
//   [AMDGPU.td] llvm/lib/Target/AMDGPU/AMDGPU.td (processor feature lists)
//   [AsmParser] llvm/lib/Target/AMDGPU/AsmParser/AMDGPUAsmParser.cpp
//   [MCTD]      llvm/lib/Target/AMDGPU/MCTargetDesc/AMDGPUMCTargetDesc.cpp
//   [VOP*/SOP*/FLAT/DS/SMEM .td] llvm/lib/Target/AMDGPU/*Instructions.td
//   [AMDGPUUsage] llvm/docs/AMDGPUUsage.rst (processor table, wave size)
//
// Facts and where they come from:
// * wave_size: gfx9/CDNA processors list FeatureWavefrontSize64 in
//   [AMDGPU.td] (FeatureISAVersion9_*); GFX10+ processors list no wave size,
//   and [MCTD] createAMDGPUMCSubtargetInfo / [AsmParser] AMDGPUAsmParser()
//   then turn on FeatureWavefrontSize32. So `vcc` is rejected on gfx1030 by
//   default ("operands are not valid for this GPU or mode" for
//   `v_add_co_u32 v0, vcc, v1, v2`), while `vcc_lo` is accepted.
//   [AMDGPUUsage] "wavefrontsize64" target feature; [ISA-RDNA2] 2.1 "wave32
//   and wave64".
// * has_xnor: V_XNOR_B32 is predicated on HasDLInsts in [VOP2Instructions.td];
//   FeatureDLInsts is in gfx906+ / gfx90a / gfx942 / gfx10.1+ feature lists
//   but not gfx900's [AMDGPU.td]. llvm-mc-19 -mcpu=gfx900: "instruction not
//   supported on this GPU". [ISA-MI200] VOP2 opcode V_XNOR_B32.
// * has_xor3: V_XOR3_B32 is SubtargetPredicate isGFX10Plus in
//   [VOP3Instructions.td]; gfx90a/gfx942 reject it. [ISA-RDNA2] VOP3 V_XOR3_B32.
// * has_literal_in_vop3: FeatureVOP3Literal is in FeatureGFX10 [AMDGPU.td];
//   on gfx9/CDNA [AsmParser] validateVOPLiteral reports "literal operands are
//   not supported" (e.g. column 28 of `v_alignbit_b32 v0, v1, v2, 0x1234`).
//   [ISA-RDNA2] 6.2 "VOP3 ... may use a literal constant".
// * constant_bus_limit: [AsmParser] getConstantBusLimit returns 1 before
//   GFX10, 2 on GFX10+ except for V_LSHLREV_B64/V_LSHRREV_B64/V_ASHRREV_I64
//   (1 everywhere): `v_add3_u32 v0, s1, s2, v1` is rejected on gfx9 ("invalid
//   operand (violates constant bus restrictions)") and accepted on gfx10+;
//   `v_lshlrev_b64 v[2:3], s1, s[2:3]` is rejected everywhere. [ISA-RDNA2]
//   6.2.1 "Constant bus limit: 2"; [ISA-Vega] 6.2 "only one SGPR".
// * requires_aligned_vgpr_pairs: FeatureGFX90AInsts (gfx90a, gfx942)
//   [AMDGPU.td]; [AsmParser] "invalid register class: vgpr tuples must be 64
//   bit aligned" for `v_lshlrev_b64 v[1:2], 1, v[3:4]`. gfx10+ accept odd
//   pairs. [ISA-MI200] 3.6.x "64-bit VGPR operands must be even-aligned".
// * has_vop2_64bit_shift: gfx1200 prints `v_lshlrev_b64_e32` (VOP2 encoding,
//   [VOP2Instructions.td] V_LSHLREV_B64 isGFX12Plus); earlier only VOP3.
// * valu_add/valu_sub: V_ADD_U32/V_SUB_U32 are GFX9 VOP2 ops; GFX10 renamed
//   them V_ADD_NC_U32/V_SUB_NC_U32 ([VOP2Instructions.td] defm V_ADD_NC_U32;
//   [ISA-RDNA2] VOP2 opcode table). Each name is rejected on the other side.
// * valu_addc: gfx9 v_addc_co_u32, GFX10+ v_add_co_ci_u32 (VOP2 carry-in,
//   [VOP2Instructions.td] V_ADD_CO_CI_U32; [ISA-RDNA2]).
// * renames: GFX11 renamed SALU/VALU/memory mnemonics ([SOPInstructions.td]
//   S_AND_NOT1_B32 "s_andn2_b32" alias, [VOP1Instructions.td] V_CLZ_I32_U32,
//   [FLATInstructions.td] global_load_b32, [SMInstructions.td] s_load_b32,
//   [DSInstructions.td] ds_store_b32; [ISA-RDNA3] 1.1 "Changes from RDNA2");
//   GFX12 renamed v_max_f32->v_max_num_f32, v_mad_u64_u32->v_mad_co_u64_u32
//   ([VOP3Instructions.td], [ISA-RDNA4]). Verified: llvm-mc-19 on gfx1100 /
//   gfx1200 accepts each old name and prints the new one; gfx1030 rejects
//   every new name.
#include "targets/target_info.hpp"

namespace p2a::targets {
namespace {

std::vector<MnemonicRename> gfx11Renames() {
  return {
      // VALU bit counting (v_ffb* -> v_clz/v_ctz/v_cls)
      {"v_ffbh_u32", "v_clz_i32_u32"},
      {"v_ffbl_b32", "v_ctz_i32_b32"},
      {"v_ffbh_i32", "v_cls_i32"},
      {"v_cvt_pkrtz_f16_f32", "v_cvt_pk_rtz_f16_f32"},
      // SALU
      {"s_andn2_b32", "s_and_not1_b32"},
      {"s_andn2_b64", "s_and_not1_b64"},
      {"s_orn2_b32", "s_or_not1_b32"},
      {"s_orn2_b64", "s_or_not1_b64"},
      {"s_andn2_saveexec_b32", "s_and_not1_saveexec_b32"},
      {"s_andn2_saveexec_b64", "s_and_not1_saveexec_b64"},
      {"s_orn2_saveexec_b32", "s_or_not1_saveexec_b32"},
      {"s_orn2_saveexec_b64", "s_or_not1_saveexec_b64"},
      {"s_andn1_saveexec_b32", "s_and_not0_saveexec_b32"},
      {"s_ff1_i32_b32", "s_ctz_i32_b32"},
      {"s_ff1_i32_b64", "s_ctz_i32_b64"},
      {"s_flbit_i32_b32", "s_clz_i32_u32"},
      {"s_flbit_i32_b64", "s_clz_i32_u64"},
      {"s_flbit_i32", "s_cls_i32"},
      {"s_flbit_i32_i64", "s_cls_i32_i64"},
      // SMEM
      {"s_load_dword", "s_load_b32"},
      {"s_load_dwordx2", "s_load_b64"},
      {"s_load_dwordx4", "s_load_b128"},
      {"s_load_dwordx8", "s_load_b256"},
      {"s_load_dwordx16", "s_load_b512"},
      // global memory
      {"global_load_dword", "global_load_b32"},
      {"global_load_dwordx2", "global_load_b64"},
      {"global_load_dwordx3", "global_load_b96"},
      {"global_load_dwordx4", "global_load_b128"},
      {"global_load_ubyte", "global_load_u8"},
      {"global_load_sbyte", "global_load_i8"},
      {"global_load_ushort", "global_load_u16"},
      {"global_load_sshort", "global_load_i16"},
      {"global_store_dword", "global_store_b32"},
      {"global_store_dwordx2", "global_store_b64"},
      {"global_store_dwordx3", "global_store_b96"},
      {"global_store_dwordx4", "global_store_b128"},
      {"global_store_byte", "global_store_b8"},
      {"global_store_short", "global_store_b16"},
      // global atomics
      {"global_atomic_add", "global_atomic_add_u32"},
      {"global_atomic_inc", "global_atomic_inc_u32"},
      {"global_atomic_dec", "global_atomic_dec_u32"},
      {"global_atomic_umin", "global_atomic_min_u32"},
      {"global_atomic_smin", "global_atomic_min_i32"},
      {"global_atomic_umax", "global_atomic_max_u32"},
      {"global_atomic_smax", "global_atomic_max_i32"},
      {"global_atomic_and", "global_atomic_and_b32"},
      {"global_atomic_or", "global_atomic_or_b32"},
      {"global_atomic_xor", "global_atomic_xor_b32"},
      {"global_atomic_swap", "global_atomic_swap_b32"},
      {"global_atomic_cmpswap", "global_atomic_cmpswap_b32"},
      {"global_atomic_add_x2", "global_atomic_add_u64"},
      {"global_atomic_umin_x2", "global_atomic_min_u64"},
      {"global_atomic_smin_x2", "global_atomic_min_i64"},
      {"global_atomic_umax_x2", "global_atomic_max_u64"},
      {"global_atomic_smax_x2", "global_atomic_max_i64"},
      {"global_atomic_and_x2", "global_atomic_and_b64"},
      {"global_atomic_or_x2", "global_atomic_or_b64"},
      {"global_atomic_xor_x2", "global_atomic_xor_b64"},
      {"global_atomic_swap_x2", "global_atomic_swap_b64"},
      {"global_atomic_cmpswap_x2", "global_atomic_cmpswap_b64"},
      // LDS exchange (gfx11's ds_cmpstore is no alias of ds_cmpst: its data
      // operands come in the other order; the printer spells it)
      {"ds_wrxchg_rtn_b32", "ds_storexchg_rtn_b32"},
      {"ds_wrxchg_rtn_b64", "ds_storexchg_rtn_b64"},
      {"s_ff1_i32_b64", "s_ctz_i32_b64"},
      {"s_ff1_i32_b32", "s_ctz_i32_b32"},
      // flat (generic addresses)
      {"flat_load_dword", "flat_load_b32"},
      {"flat_load_dwordx2", "flat_load_b64"},
      {"flat_load_dwordx3", "flat_load_b96"},
      {"flat_load_dwordx4", "flat_load_b128"},
      {"flat_load_ubyte", "flat_load_u8"},
      {"flat_load_sbyte", "flat_load_i8"},
      {"flat_load_ushort", "flat_load_u16"},
      {"flat_load_sshort", "flat_load_i16"},
      {"flat_store_dword", "flat_store_b32"},
      {"flat_store_dwordx2", "flat_store_b64"},
      {"flat_store_dwordx3", "flat_store_b96"},
      {"flat_store_dwordx4", "flat_store_b128"},
      {"flat_store_byte", "flat_store_b8"},
      {"flat_store_short", "flat_store_b16"},
      // scratch (private memory)
      {"scratch_load_ubyte", "scratch_load_u8"},
      {"scratch_load_sbyte", "scratch_load_i8"},
      {"scratch_load_ushort", "scratch_load_u16"},
      {"scratch_load_sshort", "scratch_load_i16"},
      {"scratch_load_dword", "scratch_load_b32"},
      {"scratch_load_dwordx2", "scratch_load_b64"},
      {"scratch_load_dwordx3", "scratch_load_b96"},
      {"scratch_load_dwordx4", "scratch_load_b128"},
      {"scratch_store_byte", "scratch_store_b8"},
      {"scratch_store_short", "scratch_store_b16"},
      {"scratch_store_dword", "scratch_store_b32"},
      {"scratch_store_dwordx2", "scratch_store_b64"},
      {"scratch_store_dwordx3", "scratch_store_b96"},
      {"scratch_store_dwordx4", "scratch_store_b128"},
      // LDS
      {"ds_write_b32", "ds_store_b32"},
      {"ds_write_b64", "ds_store_b64"},
      {"ds_read_b32", "ds_load_b32"},
      {"ds_read_b64", "ds_load_b64"},
      {"ds_read_b96", "ds_load_b96"},
      {"ds_read_b128", "ds_load_b128"},
      {"ds_write_b96", "ds_store_b96"},
      {"ds_write_b128", "ds_store_b128"},
      {"ds_write_b8", "ds_store_b8"},
      {"ds_write_b16", "ds_store_b16"},
      {"ds_read_u8", "ds_load_u8"},
      {"ds_read_i8", "ds_load_i8"},
      {"ds_read_u16", "ds_load_u16"},
      {"ds_read_i16", "ds_load_i16"},
  };
}

std::vector<MnemonicRename> gfx12Renames() {
  std::vector<MnemonicRename> r = gfx11Renames();
  r.push_back({"v_max_f32", "v_max_num_f32"});
  r.push_back({"v_min_f32", "v_min_num_f32"});
  r.push_back({"v_mad_u64_u32", "v_mad_co_u64_u32"});
  r.push_back({"v_mad_i64_i32", "v_mad_co_i64_i32"});
  r.push_back({"s_add_i32", "s_add_co_i32"});
  r.push_back({"s_sub_i32", "s_sub_co_i32"});
  r.push_back({"s_add_u32", "s_add_co_u32"});
  r.push_back({"s_addc_u32", "s_add_co_ci_u32"});
  r.push_back({"s_load_dwordx3", "s_load_b96"}); // (gfx12 adds 96-bit scalar loads)
  return r;
}

TargetInfo gfx9Like(std::string name, std::string product, bool cdna) {
  TargetInfo t;
  t.name = std::move(name);
  t.product = std::move(product);
  t.generation = Generation::GFX9;
  t.wave_size = 64;
  t.has_xnor = cdna; // gfx900 lacks FeatureDLInsts
  t.has_xor3 = false;
  t.has_literal_in_vop3 = false;
  t.constant_bus_limit = 1;
  t.requires_aligned_vgpr_pairs = cdna;
  t.constant_bus_limit_64bit_shift = 1;
  t.is_cdna = cdna;
  t.has_vop2_64bit_shift = false;
  t.vcc = "vcc";
  t.exec = "exec";
  t.mask_suffix = "b64";
  t.valu_add = "v_add_u32";
  t.valu_sub = "v_sub_u32";
  t.valu_addc = "v_addc_co_u32";
  t.gfx11_mnemonics = false;
  t.packed_work_item_ids = cdna; // gfx90a and gfx942; not gfx900
  t.architected_flat_scratch = t.name == "gfx942";
  t.has_lshl_add_u64 = t.name == "gfx942";
  t.global_offset_bits = 13;
  t.counters = TargetInfo::Counters::Gfx9;
  return t;
}

TargetInfo rdna(std::string name, std::string product, Generation gen) {
  TargetInfo t;
  t.name = std::move(name);
  t.product = std::move(product);
  t.generation = gen;
  t.wave_size = 32;
  t.has_xnor = true;
  t.has_xor3 = true;
  t.has_literal_in_vop3 = true;
  t.constant_bus_limit = 2; // except the 64-bit shifts
  t.requires_aligned_vgpr_pairs = false;
  t.constant_bus_limit_64bit_shift = 1;
  t.is_cdna = false;
  t.has_vop2_64bit_shift = gen >= Generation::GFX12;
  t.vcc = "vcc_lo";
  t.exec = "exec_lo";
  t.mask_suffix = "b32";
  t.valu_add = "v_add_nc_u32";
  t.valu_sub = "v_sub_nc_u32";
  t.valu_addc = "v_add_co_ci_u32";
  t.gfx11_mnemonics = gen >= Generation::GFX11;
  t.packed_work_item_ids = gen >= Generation::GFX11;
  t.global_offset_bits = gen == Generation::GFX10 ? 12 : gen == Generation::GFX11 ? 13 : 24;
  t.counters = gen >= Generation::GFX12 ? TargetInfo::Counters::Gfx12 : TargetInfo::Counters::Gfx10;
  // gfx1100 is the wave32 gfx11 target with the user-SGPR bug (gfx1101 and
  // gfx1103 are not affected); llc-19 -mcpu=gfx1100 emits user_sgpr_count 13.
  t.min_user_sgpr_count = t.name == "gfx1100" ? 13 : 0;
  t.mad64_overlap_hazard = gen == Generation::GFX11;
  t.architected_workgroup_ids = gen >= Generation::GFX12;
  t.getpc_zero_extends = gen >= Generation::GFX12;
  t.architected_flat_scratch = gen >= Generation::GFX11;
  if (gen == Generation::GFX11)
    t.renames = gfx11Renames();
  else if (gen >= Generation::GFX12)
    t.renames = gfx12Renames();
  return t;
}

} // namespace

std::string TargetInfo::mnemonic(std::string_view gfx9Name) const {
  for (const MnemonicRename &r : renames)
    if (r.from == gfx9Name)
      return r.to;
  // FLAT atomics are renamed as the global ones (flat_atomic_add_u32 on gfx11+).
  if (gfx9Name.substr(0, 12) == "flat_atomic_") {
    const std::string global = mnemonic("global_atomic_" + std::string(gfx9Name.substr(12)));
    return global.rfind("global_", 0) == 0 ? "flat_" + global.substr(7) : std::string(gfx9Name);
  }
  if (isGfx10Plus()) {
    if (gfx9Name == "v_add_u32") return valu_add;
    if (gfx9Name == "v_sub_u32") return valu_sub;
    if (gfx9Name == "v_subrev_u32") return "v_subrev_nc_u32";
    if (gfx9Name == "v_addc_co_u32") return valu_addc;
    if (gfx9Name == "v_subb_co_u32") return "v_sub_co_ci_u32";
    if (gfx9Name == "v_subbrev_co_u32") return "v_subrev_co_ci_u32";
  }
  return std::string(gfx9Name);
}

std::string TargetInfo::maskOp(std::string_view op) const {
  return mnemonic(std::string(op) + "_" + mask_suffix);
}

const std::vector<TargetInfo> &allTargets() {
  static const std::vector<TargetInfo> targets = {
      gfx9Like("gfx900", "Vega 10 (GCN5)", /*cdna=*/false),
      gfx9Like("gfx90a", "MI200 (CDNA2)", /*cdna=*/true),
      gfx9Like("gfx942", "MI300 (CDNA3)", /*cdna=*/true),
      rdna("gfx1030", "RX 6800 (RDNA2)", Generation::GFX10),
      rdna("gfx1100", "RX 7900 (RDNA3)", Generation::GFX11),
      rdna("gfx1200", "RX 9070 (RDNA4)", Generation::GFX12),
  };
  return targets;
}

const TargetInfo *findTarget(std::string_view name) {
  for (const TargetInfo &t : allTargets())
    if (t.name == name)
      return &t;
  return nullptr;
}

const TargetInfo &defaultTarget() { return *findTarget("gfx942"); }

const char *generationName(Generation g) {
  switch (g) {
  case Generation::GFX9: return "GFX9";
  case Generation::GFX10: return "GFX10";
  case Generation::GFX11: return "GFX11";
  case Generation::GFX12: return "GFX12";
  }
  return "?";
}

} // namespace p2a::targets
