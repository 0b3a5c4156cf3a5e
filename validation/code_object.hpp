// A kernel as the ELF object from LLVM MC holds it: its machine code,
// decoded back by LLVM's AMDGPU disassembler, and its 64-byte kernel
// descriptor (`NAME.kd`), decoded field by field. The emulator runs exactly
// this: the instructions the assembler encoded, with the initial state the
// descriptor requests.
#pragma once

#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace p2a::emu {

// AMDGPUUsage "Kernel Descriptor" (code object v3+): byte offsets and bit
// fields of COMPUTE_PGM_RSRC1/2 and kernel_code_properties.
struct KernelDescriptor {
  uint32_t groupSegmentFixedSize = 0;   // +0
  uint32_t privateSegmentFixedSize = 0; // +4
  uint32_t kernargSize = 0;             // +8
  uint32_t rsrc3 = 0, rsrc1 = 0, rsrc2 = 0; // +44, +48, +52
  uint16_t properties = 0;              // +56

  bool userPrivateSegmentBuffer() const { return properties & 1u; }
  bool userDispatchPtr() const { return properties & 2u; }
  bool userQueuePtr() const { return properties & 4u; }
  bool userKernargSegmentPtr() const { return properties & 8u; }
  bool userDispatchId() const { return properties & 16u; }
  bool userFlatScratchInit() const { return properties & 32u; }
  bool userPrivateSegmentSize() const { return properties & 64u; }
  bool wavefrontSize32() const { return properties & (1u << 10); }
  unsigned userSgprCount() const { return (rsrc2 >> 1) & 0x1f; }
  bool privateSegmentEnabled() const { return rsrc2 & 1u; }
  bool workgroupId(unsigned dim) const { return rsrc2 & (1u << (7 + dim)); }
  bool workgroupInfo() const { return rsrc2 & (1u << 10); }
  unsigned workItemIdDims() const { return (rsrc2 >> 11) & 3; } // 0: x, 1: x y, 2: x y z
  // VGPRs the wave is given: (GRANULATED_WORKITEM_VGPR_COUNT + 1) * granule.
  unsigned vgprCount(const targets::TargetInfo &t) const;
};

struct LoadedKernel {
  std::string name;
  KernelDescriptor descriptor;
  std::vector<mc::Assembler::DecodedInst> code;
  // A linked code object (.hsaco) is loaded whole: its allocated sections at
  // their virtual addresses, and the kernel's entry address among them, so
  // that PC-relative code (s_getpc_b64 + relocated literals) finds its data.
  bool linked = false;
  uint64_t codeAddress = 0;
  std::vector<std::pair<uint64_t, std::string>> sections; // (address, bytes)
  uint64_t imageEnd = 0; // end of the highest allocated section, .bss (zero-filled, no bytes in the file) included
  // Its dynamic relocations R_AMDGPU_RELATIVE64 (offset, addend): a module
  // variable whose initializer holds another's address; the loader writes
  // base + addend at base + offset (AMDGPUUsage "Relocation Records").
  std::vector<std::pair<uint64_t, int64_t>> relative64;
  // The image to map: bytes from address 0 to the end of the last section.
  std::vector<uint8_t> image() const;
  // The image once mapped at `base`: its relative relocations applied.
  void relocate(uint8_t *mapped, uint64_t base) const;
};

// Finds kernel `name` (its code symbol and `name.kd`) in an ELF object or
// shared object and decodes it for `asmr`'s processor.
std::optional<LoadedKernel> loadKernel(const std::string &elf, const std::string &name, const mc::Assembler &asmr,
                                       std::string &error);

} // namespace p2a::emu
