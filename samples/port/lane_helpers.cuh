// Warp helpers with inline PTX: what port-asm leaves, and why.
#pragma once
#include <stdint.h>

__device__ __forceinline__ uint32_t lane_id() {
  uint32_t r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ float fast_rcp(float x) {
  float r;
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ uint32_t bit_reverse(uint32_t x) {
  uint32_t r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x));
  return r;
}
