// The few CUDA built-ins the samples use, for compiling their .cu sources
// with clang-19 in HIP mode for AMD GPUs without a ROCm installation
// (`-nogpuinc -nogpulib`): the benchmark's "what LLVM makes of the same
// source" side. Only what bench/kernel_compare.sh needs.
#pragma once
#include <stddef.h>
#include <stdint.h>
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __constant__ __attribute__((constant))
#define __forceinline__ __attribute__((always_inline)) inline
#define __noinline__ __attribute__((noinline))
#define __shared__ __attribute__((shared))
// __syncthreads: a workgroup barrier ordering memory as CUDA's does.
#define __syncthreads()                                     \
  do {                                                      \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");  \
    __builtin_amdgcn_s_barrier();                           \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");  \
  } while (0)
struct __Idx { unsigned x, y, z; };
#define threadIdx (__Idx{__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()})
#define blockIdx (__Idx{__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()})
#define blockDim (__Idx{(unsigned)__builtin_amdgcn_workgroup_size_x(), (unsigned)__builtin_amdgcn_workgroup_size_y(), (unsigned)__builtin_amdgcn_workgroup_size_z()})
static __device__ __forceinline__ uint32_t __funnelshift_l(uint32_t lo, uint32_t hi, uint32_t s) {
  return (uint32_t)((((uint64_t)hi << 32) | lo) << (s & 31) >> 32);
}
static __device__ __forceinline__ uint32_t __funnelshift_r(uint32_t lo, uint32_t hi, uint32_t s) {
  return (uint32_t)((((uint64_t)hi << 32) | lo) >> (s & 31));
}
