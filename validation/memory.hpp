// Flat global memory shared by the PTX interpreter and the AMDGPU emulator:
// named buffers at 64-bit addresses, with bounds checks. The same buffer
// contents at the same addresses go to both sides, so a pointer argument
// means the same thing to the PTX kernel and to its translation.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace p2a {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

class GlobalMemory {
public:
  struct Buffer {
    std::string name;
    uint64_t base = 0;
    std::vector<uint8_t> bytes;
  };

  // Places a buffer at the next free base (256-byte aligned, with a 1 GiB
  // unmapped gap after each buffer so that an overrun faults -- and is
  // attributed to the buffer it ran past -- instead of landing in a
  // neighbour). Returns the base address.
  uint64_t add(std::string name, std::vector<uint8_t> bytes) {
    const uint64_t base = next_;
    next_ += ((bytes.size() + 0xff) & ~uint64_t(0xff)) + (uint64_t(1) << 30);
    buffers_.push_back({std::move(name), base, std::move(bytes)});
    return base;
  }

  // The bytes at [addr, addr+size) if one buffer holds all of them.
  uint8_t *find(uint64_t addr, uint64_t size) {
    for (Buffer &b : buffers_)
      if (addr >= b.base && addr - b.base <= b.bytes.size() && size <= b.bytes.size() - (addr - b.base))
        return b.bytes.data() + (addr - b.base);
    return nullptr;
  }
  const Buffer *byName(const std::string &n) const {
    for (const Buffer &b : buffers_)
      if (b.name == n)
        return &b;
    return nullptr;
  }
  // A human description of where `addr` lies ("8 bytes past the end of 'out'").
  std::string describe(uint64_t addr) const {
    const Buffer *best = nullptr;
    for (const Buffer &b : buffers_)
      if (addr >= b.base && (!best || b.base > best->base))
        best = &b;
    if (!best)
      return "below every buffer";
    if (addr - best->base < best->bytes.size())
      return "inside '" + best->name + "'";
    return std::to_string(addr - best->base - best->bytes.size()) + " bytes past the end of '" + best->name + "' (" +
           std::to_string(best->bytes.size()) + " bytes)";
  }
  std::vector<Buffer> &buffers() { return buffers_; }
  const std::vector<Buffer> &buffers() const { return buffers_; }

private:
  // Buffers start well above 0 so that a null pointer faults.
  uint64_t next_ = 0x100000000ull;
  std::vector<Buffer> buffers_;
};

// Generic (flat) addresses of shared and local memory, as both sides see
// them: PTX's cvta adds these window bases (PTX ISA 6.4.1 "generic
// addressing"); on AMD they are the apertures src_shared_base and
// src_private_base read, so an address whose high half is one of theirs
// reaches LDS or the lane's scratch at its low half. Equal on both sides, a
// generic pointer means the same to the PTX kernel and its translation.
constexpr uint64_t kSharedAperture = 0x00007f0000000000ull;
constexpr uint64_t kPrivateAperture = 0x00007e0000000000ull;
constexpr uint64_t kApertureSize = 0x100000000ull; // the low 32 bits address the segment

inline uint64_t loadLE(const uint8_t *p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

inline void storeLE(uint8_t *p, unsigned bytes, uint64_t v) {
  for (unsigned i = 0; i < bytes; ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}

} // namespace p2a
