// Per-GPU facts the rule table and the emitter depend on, as data. Every fact
// here was checked against LLVM 19's AMDGPU assembler (llvm-mc-19 -mcpu=X),
// which is the authority on what each GPU accepts; tests/mc_backend_test.cpp
// re-checks them through the in-process assembler (targets/mc_backend.hpp),
// and target_info.cpp cites the AMD ISA guide / LLVM source for each.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace p2a::targets {

// A GFX9/GFX10 mnemonic and its GFX11+ spelling.
struct MnemonicRename {
  std::string from; // e.g. "v_ffbh_u32"
  std::string to;   // e.g. "v_clz_i32_u32"
};

// The register budget of one wave on every target: v0..v255 are
// addressable, and SGPRs are allocated below VCC and the trap registers.
inline constexpr unsigned kMaxVgprs = 256;
inline constexpr unsigned kMaxSgprs = 100;
// LDS per workgroup: 64 KiB on every target here (Vega, CDNA and RDNA ISA
// guides, "Local data share").
inline constexpr unsigned kLdsBytesPerWorkgroup = 64 * 1024;

// Module .global/.const data in all: kernels address it PC-relative with a
// signed 32-bit offset (R_AMDGPU_REL32_LO/HI), so it must lie within 2 GiB of
// the code; 64 MiB of that is left for the code itself.
inline constexpr uint64_t kMaxModuleDataBytes = (1ull << 31) - (64ull << 20);

enum class Generation { GFX9 = 9, GFX10 = 10, GFX11 = 11, GFX12 = 12 };

struct TargetInfo {
  std::string name;        // LLVM -mcpu name
  std::string product;     // marketing family, for humans
  Generation generation;
  // LLVM's default wave size for amdgcn-amd-amdhsa: wave64 on gfx9/CDNA,
  // wave32 on gfx10+ (then masks are 32-bit: vcc_lo, exec_lo, s_*_b32).
  unsigned wave_size;
  // v_xnor_b32: added in gfx906 (Vega 20 dot-product extensions); absent on gfx900.
  bool has_xnor;
  // v_xor3_b32: RDNA (gfx10) VOP3 opcode; not on gfx9/CDNA in LLVM 19.
  bool has_xor3;
  // VOP3 literal operands: gfx10+ only ("literal operands are not supported" on gfx9/CDNA).
  bool has_literal_in_vop3;
  // Scalar values (SGPR or literal) one VALU instruction may read: 1 on gfx9,
  // 2 on gfx10+ (except the 64-bit shifts, which still allow one).
  unsigned constant_bus_limit;
  // 64-bit VGPR tuples must start at an even register on gfx90a and later
  // ("invalid register class: vgpr tuples must be 64 bit aligned").
  bool requires_aligned_vgpr_pairs; // gfx10+ accept odd pairs; the allocator aligns everywhere anyway

  // ---- added with the MC backend (defaults are the gfx942 values) ----
  // The 64-bit shifts (v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64) read at
  // most one scalar value on every target, gfx10+ included.
  unsigned constant_bus_limit_64bit_shift = 1;
  bool is_cdna = false;               // gfx90a (CDNA2), gfx942 (CDNA3)
  bool has_vop2_64bit_shift = false;  // gfx12: v_lshlrev_b64 has a VOP2 (_e32) form
  bool has_lshl_add_u64 = false;      // gfx942: v_lshl_add_u64 and v_mov_b64 (CDNA3 ISA; clang's 64-bit adds and copies)
  // gfx101x's VMEM-reads-SGPR-then-scalar-write hazard (LLVM
  // FeatureVMEMtoScalarWriteHazard, in FeatureISAVersion10_1_Common only):
  // gfx1030 does not have it, and clang's gfx1030 code does not mitigate it.
  // No supported target has it; the rule stays for a gfx101x TargetInfo.
  bool vmem_to_scalar_write_hazard = false;
  // gfx11's MAD_U64/I64 intra-instruction forwarding bug (LLVM
  // FeatureMADIntraFwdBug, in FeatureISAVersion11_Common): a
  // v_mad_u64_u32 / v_mad_i64_i32 whose destination overlaps a source
  // computes a wrong result, so LLVM selects V_MAD_*64_*32_gfx11 with an
  // early-clobber destination there (clang-19 -O3 accumulates in place on
  // gfx1030 and gfx1200, never on gfx1100). The verifier refuses a rule
  // whose template could overlap them on such a target.
  bool mad64_overlap_hazard = false;
  // Spellings that depend on wave size / generation.
  std::string vcc = "vcc";            // "vcc" (wave64) / "vcc_lo" (wave32)
  std::string exec = "exec";          // "exec" / "exec_lo"
  std::string mask_suffix = "b64";    // lane-mask SALU ops: s_and_b64 / s_and_b32
  std::string valu_add = "v_add_u32"; // no carry: v_add_u32 (gfx9) / v_add_nc_u32 (gfx10+)
  std::string valu_sub = "v_sub_u32"; // no carry: v_sub_u32 (gfx9) / v_sub_nc_u32 (gfx10+)
  std::string valu_addc = "v_addc_co_u32"; // carry in+out: v_addc_co_u32 / v_add_co_ci_u32 (gfx10+)
  bool gfx11_mnemonics = false;       // gfx11+ renamed many instructions (renames)
  // GFX9/GFX10 spelling -> this target's (empty before gfx11). LLVM on
  // gfx11+ still accepts most old names as aliases but prints the new ones.
  std::vector<MnemonicRename> renames;

  // ---- added for whole kernels (AMDGPUUsage "Initial Kernel Execution
  // State", AMD ISA guides "Memory counters" / FLAT offsets) ----
  // Work-item IDs packed into v0 (x in bits 9:0, y 19:10, z 29:20) rather than
  // v0, v1, v2: gfx90a, gfx942 and gfx11+ (LLVM FeaturePackedTID).
  bool packed_work_item_ids = false;
  // Signed immediate offset bits of global_load/global_store: 13 on gfx9 and
  // gfx11, 12 on gfx10, 24 on gfx12.
  unsigned global_offset_bits = 13;
  // User SGPRs the descriptor must declare at least: gfx1100/gfx1102 in
  // wave32 need user + system SGPRs >= 16 enabled (LLVM
  // FeatureUserSGPRInit16Bug; AMDGPU.td "Bug requiring at least 16 user+system
  // SGPRs to be enabled"), so LLVM pads USER_SGPR_COUNT to 13 and the
  // workgroup IDs arrive in s13..s15. 0: no padding.
  unsigned min_user_sgpr_count = 0;
  // gfx12 (FeatureArchitectedSGPRs): the workgroup IDs are in TTMP9 (x) and
  // TTMP7 (y in bits 15:0, z in 31:16), as llc-19 reads them, not in the
  // system SGPRs after the user SGPRs.
  bool architected_workgroup_ids = false;
  // s_getpc_b64 zero-extends the 48-bit PC instead of sign-extending it:
  // gfx12 (LLVM GCNSubtarget::hasGetPCZeroExtension); code that adds an
  // offset to it first sign-extends the high word (s_sext_i32_i16), as
  // LLVM's SI_PC_ADD_REL_OFFSET and long branches do.
  bool getpc_zero_extends = false;
  // Scratch (private memory): gfx942 and gfx11+ set up FLAT_SCRATCH
  // themselves (LLVM FeatureArchitectedFlatScratch; the descriptor says
  // .amdhsa_enable_private_segment); gfx900/gfx90a/gfx1030 get the base in
  // user SGPRs (flat_scratch_init) plus a per-wave offset system SGPR, and
  // the kernel must write FLAT_SCRATCH itself (gfx10: through s_setreg).
  bool architected_flat_scratch = false;
  // Signed immediate offset bits of scratch_load/scratch_store: 13 on gfx9
  // and gfx11, 12 on gfx10, 24 on gfx12 (as for global).
  // The memory counters code must wait on (see waitInstruction).
  enum class Counters {
    Gfx9,  // vmcnt counts VMEM loads and stores, lgkmcnt SMEM/LDS
    Gfx10, // stores move to vscnt (s_waitcnt_vscnt)
    Gfx12, // split counters: s_wait_loadcnt, s_wait_storecnt, s_wait_kmcnt
  } counters = Counters::Gfx9;

  bool wave32() const { return wave_size == 32; }
  // Scratch one lane may use: the wave's scratch size field
  // (COMPUTE_TMPRING_SIZE.WAVESIZE; as LLVM's GCNSubtarget::getMaxWaveScratchSize)
  // is 13 bits of 1 KiB units on gfx9/gfx10, 15 bits of 256-byte units on
  // gfx11 and 18 bits of 256-byte units on gfx12, shared by the wave's lanes.
  uint64_t maxScratchBytesPerLane() const {
    const uint64_t wave = generation >= Generation::GFX12   ? 256ull * ((1u << 18) - 1)
                          : generation == Generation::GFX11 ? 256ull * ((1u << 15) - 1)
                                                            : 1024ull * ((1u << 13) - 1);
    return wave / wave_size;
  }
  bool isGfx10Plus() const { return generation >= Generation::GFX10; }
  // A mnemonic in GFX9/GFX10 spelling -> this target's spelling.
  std::string mnemonic(std::string_view gfx9Name) const;
  // Lane-mask SALU op of the right width, renames applied:
  // maskOp("s_andn2") -> "s_andn2_b64" (gfx9), "s_andn2_b32" (gfx10),
  // "s_and_not1_b32" (gfx11+).
  std::string maskOp(std::string_view op) const;
};

const std::vector<TargetInfo> &allTargets();
const TargetInfo *findTarget(std::string_view name);
const TargetInfo &defaultTarget(); // gfx942
const char *generationName(Generation g); // "GFX9", ...

} // namespace p2a::targets
