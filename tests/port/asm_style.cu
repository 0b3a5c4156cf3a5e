// Inline PTX that port-asm --style=asm rewrites as AMDGPU inline asm
// (32- and 64-bit values in VGPRs; no predicates, halves of 64-bit values
// or carries between statements). port_test ports it, builds it with clang-19 for
// every target and runs it against nvcc's PTX (tests/port/asm_style.ptx).
#include <stdint.h>

__device__ __forceinline__ uint32_t rotl13(uint32_t x) {
  uint32_t r;
  asm("shf.l.wrap.b32 %0, %1, %1, 13;" : "=r"(r) : "r"(x));
  return r;
}
__device__ __forceinline__ uint32_t choose(uint32_t e, uint32_t f, uint32_t g) {
  uint32_t r;
  asm("lop3.b32 %0, %1, %2, %3, 0xCA;" : "=r"(r) : "r"(e), "r"(f), "r"(g));
  return r;
}
__device__ __forceinline__ uint32_t select_bytes(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ uint32_t field(uint32_t x, uint32_t pos, uint32_t len) {
  uint32_t r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}
__device__ __forceinline__ uint32_t mix(uint32_t x, uint32_t y) {
  uint32_t r;
  asm volatile("{\n\t.reg .b32 t;\n\tadd.u32 t, %1, %2;\n\txor.b32 %0, t, %1;\n\t}"
               : "=r"(r) : "r"(x), "r"(y) : "memory");
  return r;
}
__device__ __forceinline__ uint64_t shift64(uint64_t x) {
  uint64_t r;
  asm("shl.b64 %0, %1, 13;" : "=l"(r) : "l"(x));
  return r;
}
__device__ __forceinline__ void accumulate(uint32_t &acc, uint32_t v) {
  asm("xor.b32 %0, %0, %1;" : "+r"(acc) : "r"(v));
}

__global__ void asm_style_kernel(const uint32_t *in, uint64_t *out) {
  const uint32_t i = threadIdx.x;
  const uint32_t a = in[2 * i], b = in[2 * i + 1];
  uint32_t acc = rotl13(a) + choose(a, b, ~a) + select_bytes(a, b) + field(a, b & 31, (b >> 5) & 31);
  accumulate(acc, mix(a, b));
  out[i] = shift64(((uint64_t)a << 32) | acc);
}
