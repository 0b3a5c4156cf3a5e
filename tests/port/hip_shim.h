// What a ported file needs from the HIP headers, for compiling it with
// clang-19 in HIP mode where no ROCm is installed (-nogpuinc -nogpulib):
// the platform macro hip_common.h defines and CUDA's function qualifiers.
#pragma once
#include <stddef.h>
#include <stdint.h>
#define __HIP_PLATFORM_AMD__ 1
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __forceinline__ __attribute__((always_inline)) inline
