// What a ported file needs from the HIP headers, for compiling it with
// clang-19 in HIP mode where no ROCm is installed (-nogpuinc -nogpulib):
// the platform macro hip_common.h defines, CUDA's qualifiers, threadIdx and blockIdx.
#pragma once
#include <stddef.h>
#include <stdint.h>
#define __HIP_PLATFORM_AMD__ 1
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __forceinline__ __attribute__((always_inline)) inline
#define __noinline__ __attribute__((noinline))
#define __constant__ __attribute__((constant))
struct __P2aIdx { unsigned x, y, z; };
#define threadIdx (__P2aIdx{__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()})
#define blockIdx (__P2aIdx{__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()})
