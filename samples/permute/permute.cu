// A per-thread table indexed by the data itself: nvcc keeps it in local
// memory (a .local depot addressed through %SPL, st.local.v4 / ld.local);
// the translator keeps it in VGPRs (kernel/transforms/local_array_promotion.hpp).
extern "C" __global__ void permute(const unsigned *in, unsigned *out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned t[16];
  for (int k = 0; k < 16; ++k)
    t[k] = in[16 * i + k];
  unsigned acc = 0;
  for (int r = 0; r < 16; ++r) {
    const unsigned j = (t[r] ^ acc) & 15;
    const unsigned x = t[j];
    t[j] = t[r] + 0x9e3779b9u;
    t[r] = x;
    acc = __funnelshift_l(acc, acc, 5) ^ x;
  }
  out[i] = acc ^ t[acc & 15];
}
