// Per-GPU facts the rule table and the emitter depend on, as data. Every fact
// here was checked against LLVM 19's AMDGPU assembler (llvm-mc-19 -mcpu=X),
// which is the authority on what each GPU accepts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace p2a::targets {

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
};

const std::vector<TargetInfo> &allTargets();
const TargetInfo *findTarget(std::string_view name);
const TargetInfo &defaultTarget(); // gfx942

} // namespace p2a::targets
