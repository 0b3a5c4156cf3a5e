// Helpers as hash and key-search kernels write them: inline PTX, NVIDIA only.
#pragma once
#include <stdint.h>

__device__ __forceinline__ uint32_t rotr(uint32_t x, uint32_t n) {
  uint32_t r;
  asm("shf.r.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
  return r;
}

__device__ __forceinline__ uint32_t maj(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

__device__ __forceinline__ uint32_t bswap(uint32_t x) {
  uint32_t r;
  asm("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));
  return r;
}

__device__ __forceinline__ uint64_t add64(uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi) {
  uint32_t lo, hi;
  asm("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"(alo), "r"(blo));
  asm("addc.u32 %0, %1, %2;" : "=r"(hi) : "r"(ahi), "r"(bhi));
  return ((uint64_t)hi << 32) | lo;
}
