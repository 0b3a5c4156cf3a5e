// MurmurHash3 x86_32 of fixed 16-byte keys, one key per thread.
#include <stdint.h>
__device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) { return __funnelshift_l(x, x, r); }
__device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16; return h;
}
extern "C" __global__ void murmur3_32(const uint32_t *keys, uint32_t *out, uint32_t seed, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  uint32_t h = seed;
  for (int b = 0; b < 4; ++b) {
    uint32_t k = keys[4 * i + b];
    k *= c1; k = rotl32(k, 15); k *= c2;
    h ^= k; h = rotl32(h, 13); h = h * 5 + 0xe6546b64;
  }
  h ^= 16u;
  out[i] = fmix32(h);
}
