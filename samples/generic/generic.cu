// Generic pointers into shared, local and global memory (PTX ISA 6.4.1
// "generic addressing"): one out-of-line helper mixes words through a
// pointer it cannot see the space of, so nvcc converts each array with
// cvta.shared / cvta.local / (a global pointer is generic already) and the
// helper reads and writes through generic ld/st.
#include <cstdint>

__device__ __noinline__ uint32_t mix(uint32_t *words, unsigned n, uint32_t seed) {
  uint32_t h = seed;
  for (unsigned i = 0; i < n; ++i) {
    h = __funnelshift_l(h ^ words[i], h ^ words[i], 13) * 5u + 0xe6546b64u;
    words[i] = h;
  }
  return h;
}

__global__ void generic_mix(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t tile[256 * 4];
  uint32_t priv[4];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  for (unsigned k = 0; k < 4; ++k) {
    tile[t * 4 + k] = in[4 * i + k];
    priv[k] = in[4 * i + k] ^ 0x9e3779b9u;
  }
  __syncthreads();
  // A neighbour's row in shared memory, this thread's own local copy, and its
  // global output row, all through the one generic helper.
  const unsigned nb = (t + 1) & (blockDim.x - 1); // (blocks of a power-of-two size)
  uint32_t h = mix(&tile[nb * 4], 4, i);
  h = mix(priv, 4, h);
  __syncthreads();
  for (unsigned k = 0; k < 4; ++k)
    out[4 * i + k] = priv[k] ^ tile[t * 4 + k];
  h = mix(&out[4 * i], 4, h);
  out[4 * i] ^= h;
}
