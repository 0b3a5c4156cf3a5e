// The operands of the hardware record (tests/hardware/README.md): every
// fixture-shaped kernel (thread i reads four 8-byte slots at in[32*i],
// writes out[8*i]) runs on an NVIDIA GPU and in our PTX interpreter over
// these same inputs. This header is compiled on both sides -- by nvcc into
// the device program and into the test suite -- so it uses nothing but
// <cstdint>, and the sequence is fixed forever: changing it invalidates
// tests/hardware/sm90_record.txt.
//
// Uniform random words would almost never hit the cases where PTX
// definitions differ from a naive model: shift amounts and bit positions
// just below and above the width, 8-bit fields with garbage in bits 8..31
// (bfe/bfi take `& 0xff` of 32-bit forms but the whole value in 64-bit
// ones), INT_MIN, -1, 0, sign boundaries of 8-, 16-, 32- and 64-bit views.
// So half the slots come from such edge classes and half are random.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace p2a::hardware {

inline constexpr unsigned kSlotsPerThread = 4;
inline constexpr unsigned kInBytesPerThread = 32;
inline constexpr unsigned kOutBytesPerThread = 8;
inline constexpr unsigned kBlocks = 4;
inline constexpr unsigned kThreadsPerBlock = 256;
inline constexpr unsigned kThreads = kBlocks * kThreadsPerBlock;
inline constexpr unsigned kThreadsPerDigest = 32; // one digest per warp

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

private:
  uint64_t state_;
};

inline uint64_t edgeSlot(SplitMix64 &rng) {
  static const uint64_t kEdges[] = {0,
                                    1,
                                    0x7f,
                                    0x80,
                                    0xff,
                                    0x7fff,
                                    0x8000,
                                    0xffff,
                                    0x7fffffff,
                                    0x80000000,
                                    0xffffffff,
                                    0x100000000ull,
                                    0xffffffff00000000ull,
                                    0x7fffffffffffffffull,
                                    0x8000000000000000ull,
                                    0xffffffffffffffffull};
  const uint64_t r = rng.next();
  switch (r % 16) {
  case 0:
  case 1: return rng.next() % 80;                 // amounts, positions, lengths
  case 2: return uint64_t(0) - (1 + rng.next() % 80); // small negatives
  case 3: {                                        // an 8-bit field with garbage above it
    const uint64_t low = rng.next() % 80;
    return (rng.next() & ~uint64_t(0xff)) | low;
  }
  case 4: {                                        // 32-bit powers of two, +-1
    const unsigned k = rng.next() % 32;
    return uint32_t((uint64_t(1) << k) + (rng.next() % 3) - 1);
  }
  case 5: {                                        // 64-bit powers of two, +-1
    const unsigned k = rng.next() % 64;
    return (uint64_t(1) << k) + (rng.next() % 3) - 1;
  }
  case 6:
  case 7: return kEdges[rng.next() % (sizeof kEdges / sizeof kEdges[0])];
  case 8: {                                        // bytes that are sign boundaries
    static const uint8_t kBytes[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; ++b)
      v |= uint64_t(kBytes[rng.next() % 5]) << (8 * b);
    return v;
  }
  default: return rng.next();
  }
}

// The `in` buffer of the launch: kThreads * 32 bytes, little-endian slots.
inline std::vector<uint8_t> slotInputs() {
  SplitMix64 rng(0x5eed0f9a2d1b7c03ull);
  std::vector<uint8_t> bytes(size_t(kThreads) * kInBytesPerThread);
  for (size_t slot = 0; slot < size_t(kThreads) * kSlotsPerThread; ++slot) {
    const uint64_t v = rng.next() % 2 ? edgeSlot(rng) : rng.next();
    for (unsigned b = 0; b < 8; ++b)
      bytes[slot * 8 + b] = uint8_t(v >> (8 * b));
  }
  return bytes;
}

// FNV-1a over one warp's output bytes: the record keeps these, one per 32
// threads, so that a difference is located to a warp without committing
// megabytes of outputs.
inline uint32_t digest(const uint8_t *bytes, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ bytes[i]) * 16777619u;
  return h;
}

} // namespace p2a::hardware
