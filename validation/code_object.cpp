#include "validation/code_object.hpp"
#include "validation/memory.hpp"

#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstring>

namespace p2a::emu {

unsigned KernelDescriptor::vgprCount(const targets::TargetInfo &t) const {
  // Granule: 4 VGPRs on gfx9 and in wave64, 8 on gfx90a/gfx942 (unified
  // VGPR/AGPR file) and in wave32 on gfx10+ (AMDGPUUsage, COMPUTE_PGM_RSRC1).
  const unsigned granule = t.is_cdna ? 8 : (t.isGfx10Plus() && wavefrontSize32()) ? 8 : 4;
  return ((rsrc1 & 0x3f) + 1) * granule;
}

namespace {

uint32_t le32(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

} // namespace

std::optional<LoadedKernel> loadKernel(const std::string &elf, const std::string &name, const mc::Assembler &asmr,
                                       std::string &error) {
  llvm::MemoryBufferRef ref(llvm::StringRef(elf.data(), elf.size()), "kernel");
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> obj = llvm::object::ObjectFile::createObjectFile(ref);
  if (!obj) {
    error = "not an ELF object: " + llvm::toString(obj.takeError());
    return std::nullopt;
  }
  std::optional<std::vector<uint8_t>> code, kd;
  uint64_t codeAddress = 0;
  // The other functions of the kernel's section (clang keeps noinline
  // device functions as calls: s_swappc_b64), decoded after the kernel.
  struct Function {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Function> callees;
  for (const llvm::object::SymbolRef &sym : (*obj)->symbols()) {
    llvm::Expected<llvm::StringRef> n = sym.getName();
    llvm::Expected<uint64_t> value = sym.getValue();
    llvm::Expected<llvm::object::section_iterator> sec = sym.getSection();
    if (!n || !value || !sec || *sec == (*obj)->section_end()) {
      if (!n) llvm::consumeError(n.takeError());
      if (!value) llvm::consumeError(value.takeError());
      if (!sec) llvm::consumeError(sec.takeError());
      continue;
    }
    const bool isCode = *n == name, isKd = *n == name + ".kd";
    llvm::Expected<llvm::object::SymbolRef::Type> type = sym.getType();
    const bool isFunction = type && *type == llvm::object::SymbolRef::ST_Function;
    if (!type)
      llvm::consumeError(type.takeError());
    if (!isCode && !isKd && !isFunction)
      continue;
    llvm::Expected<llvm::StringRef> contents = (*sec)->getContents();
    if (!contents) {
      error = llvm::toString(contents.takeError());
      return std::nullopt;
    }
    // Section-relative in objects; relative to the section's address in a shared object.
    uint64_t start = *value;
    if ((*obj)->isRelocatableObject() == false)
      start -= (*sec)->getAddress();
    uint64_t size = llvm::object::ELFSymbolRef(sym).getSize();
    if (isKd)
      size = 64;
    if (start + size > contents->size()) {
      error = "symbol '" + n->str() + "' lies outside its section";
      return std::nullopt;
    }
    std::vector<uint8_t> bytes(contents->bytes_begin() + start, contents->bytes_begin() + start + size);
    if (!isCode && !isKd) {
      callees.push_back({*value, std::move(bytes)});
      continue;
    }
    (isKd ? kd : code) = std::move(bytes);
    if (isCode)
      codeAddress = *value;
  }
  if (!code || !kd) {
    error = "no kernel '" + name + "' (symbol and descriptor '" + name + ".kd') in the code object";
    return std::nullopt;
  }
  LoadedKernel k;
  k.name = name;
  k.linked = !(*obj)->isRelocatableObject();
  k.codeAddress = codeAddress;
  if (k.linked)
    for (const llvm::object::SectionRef &sec : (*obj)->sections()) {
      if (!(llvm::object::ELFSectionRef(sec).getFlags() & llvm::ELF::SHF_ALLOC))
        continue;
      k.imageEnd = std::max(k.imageEnd, sec.getAddress() + sec.getSize());
      if (sec.isBSS())
        continue;
      llvm::Expected<llvm::StringRef> contents = sec.getContents();
      if (!contents) {
        llvm::consumeError(contents.takeError());
        continue;
      }
      k.sections.push_back({sec.getAddress(), contents->str()});
    }
  if (k.linked)
    for (const llvm::object::SectionRef &sec : (*obj)->sections()) {
      if (llvm::object::ELFSectionRef(sec).getType() != llvm::ELF::SHT_RELA)
        continue;
      for (const llvm::object::RelocationRef &r : sec.relocations()) {
        if (r.getType() != llvm::ELF::R_AMDGPU_RELATIVE64)
          continue;
        llvm::Expected<int64_t> addend = llvm::object::ELFRelocationRef(r).getAddend();
        if (!addend) {
          llvm::consumeError(addend.takeError());
          continue;
        }
        k.relative64.push_back({r.getOffset(), *addend});
      }
    }
  const uint8_t *d = kd->data();
  k.descriptor.groupSegmentFixedSize = le32(d + 0);
  k.descriptor.privateSegmentFixedSize = le32(d + 4);
  k.descriptor.kernargSize = le32(d + 8);
  k.descriptor.rsrc3 = le32(d + 44);
  k.descriptor.rsrc1 = le32(d + 48);
  k.descriptor.rsrc2 = le32(d + 52);
  k.descriptor.properties = static_cast<uint16_t>(d[56] | d[57] << 8);
  std::optional<std::vector<mc::Assembler::DecodedInst>> insts = asmr.disassemble(code->data(), code->size(), error);
  if (!insts)
    return std::nullopt;
  k.code = std::move(*insts);
  // Callees follow the kernel's instructions, their offsets still relative
  // to the kernel's start (modulo 2^64 for one placed before it), so a
  // call's address finds them. In an unlinked object a call's target is an
  // unresolved relocation: the emulator then finds no instruction there.
  for (Function &f : callees) {
    std::string why;
    std::optional<std::vector<mc::Assembler::DecodedInst>> body = asmr.disassemble(f.bytes.data(), f.bytes.size(), why);
    if (!body)
      continue; // (data, or another target's code: reached only by a call, which then faults)
    for (mc::Assembler::DecodedInst &d : *body) {
      d.offset += f.address - codeAddress;
      k.code.push_back(std::move(d));
    }
  }
  return k;
}

void LoadedKernel::relocate(uint8_t *mapped, uint64_t base) const {
  for (const auto &[offset, addend] : relative64)
    storeLE(mapped + offset, 8, base + static_cast<uint64_t>(addend));
}

std::vector<uint8_t> LoadedKernel::image() const {
  uint64_t end = imageEnd;
  for (const auto &[addr, bytes] : sections)
    end = std::max<uint64_t>(end, addr + bytes.size());
  std::vector<uint8_t> img(static_cast<size_t>(end), 0);
  for (const auto &[addr, bytes] : sections)
    std::copy(bytes.begin(), bytes.end(), img.begin() + static_cast<std::ptrdiff_t>(addr));
  return img;
}

} // namespace p2a::emu
