// Inline PTX in the styles CUDA code bases write it (port_test ports this
// file, proves each statement, and compiles the result for every target).
#include <stdint.h>

// One-line helpers.
__device__ __forceinline__ uint32_t rotl32(uint32_t x, uint32_t n) {
  uint32_t r;
  asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
  return r;
}
__device__ __forceinline__ uint32_t rotr7(uint32_t x) {
  uint32_t r;
  asm("shf.r.wrap.b32 %0, %1, %1, 7;" : "=r"(r) : "r"(x));
  return r;
}
__device__ __forceinline__ uint32_t funnel_clamp(uint32_t lo, uint32_t hi, uint32_t n) {
  uint32_t r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(n));
  return r;
}
__device__ __forceinline__ uint32_t maj(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__device__ __forceinline__ uint32_t byte_swap(uint32_t x) {
  uint32_t r;
  asm("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));
  return r;
}
__device__ __forceinline__ uint32_t sign_bytes(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, 0x89AB;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t field(uint32_t x, uint32_t pos) {
  uint32_t r;
  asm("bfe.u32 %0, %1, %2, 8;" : "=r"(r) : "r"(x), "r"(pos));
  return r;
}

// A block with local registers, over several string literals.
__device__ __forceinline__ uint32_t sigma0(uint32_t x) {
  uint32_t r;
  asm("{\n\t"
      ".reg .b32 t1, t2;\n\t"
      "shf.r.wrap.b32 t1, %1, %1, 7;\n\t"
      "shf.r.wrap.b32 t2, %1, %1, 18;\n\t"
      "shr.b32 %0, %1, 3;\n\t"
      "xor.b32 %0, %0, t1;\n\t"
      "xor.b32 %0, %0, t2;\n\t"
      "}"
      : "=r"(r)
      : "r"(x));
  return r;
}

// 64-bit values split into halves and back.
__device__ __forceinline__ uint64_t swap_halves(uint64_t v) {
  uint32_t lo, hi;
  uint64_t r;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(v));
  asm("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(hi), "r"(lo));
  return r;
}

// A carry chain across statements.
__device__ __forceinline__ void add96(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t a0, uint32_t a1,
                                      uint32_t a2, uint32_t b0, uint32_t b1, uint32_t b2) {
  asm("add.cc.u32 %0, %1, %2;" : "=r"(r0) : "r"(a0), "r"(b0));
  asm("addc.cc.u32 %0, %1, %2;" : "=r"(r1) : "r"(a1), "r"(b1));
  asm("addc.u32 %0, %1, %2;" : "=r"(r2) : "r"(a2), "r"(b2));
}

// Macros, one of them a statement expression.
#define ROTL64_HI(x, n) ({ uint32_t _r; \
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(_r) : "r"((uint32_t)(x)), "r"((uint32_t)((x) >> 32)), "n"(n)); \
  _r; })
#define XOR3(d, a, b, c) asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

// volatile, a memory clobber, a read-write operand and a 16-bit one.
__device__ __forceinline__ uint32_t mix(uint32_t x, uint16_t h) {
  asm volatile("xor.b32 %0, %0, 0x9e3779b9;" : "+r"(x) : : "memory");
  uint32_t r;
  asm volatile("mov.b32 %0, {%1, %1};" : "=r"(r) : "h"(h));
  return x + r;
}

__global__ void helpers_kernel(const uint32_t *in, uint32_t *out) {
  const uint32_t i = threadIdx.x;
  const uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  uint32_t x = rotl32(a, b) ^ rotr7(b) ^ funnel_clamp(a, b, c & 63) ^ maj(a, b, c);
  x += byte_swap(a) + sign_bytes(b, c) + field(a, c & 31) + sigma0(x);
  const uint64_t w = swap_halves(((uint64_t)a << 32) | b);
  uint32_t s0, s1, s2;
  add96(s0, s1, s2, a, b, c, (uint32_t)w, (uint32_t)(w >> 32), x);
  uint32_t t;
  XOR3(t, s0, s1, s2);
  out[i] = t + ROTL64_HI(w, 13) + mix(x, (uint16_t)c);
}
