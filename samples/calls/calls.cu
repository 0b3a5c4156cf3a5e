// Device functions kept out of line (__noinline__), as a port meets them:
// nvcc emits .func bodies and call sequences through .param variables
// (PTX ISA 9.7.12.4 call, 7 "Abstracting the ABI"). The translator inlines
// each call. Helpers: a funnel-shift mixer (returns a value), a nested
// call, a 64-bit rotate (64-bit argument and result), a void helper
// storing through a pointer, and a call made only in some threads.

__device__ __noinline__ unsigned mix(unsigned a, unsigned b) {
  return __funnelshift_l(a, b, 7) ^ (a + b);
}

__device__ __noinline__ unsigned mix2(unsigned a, unsigned b) {
  return mix(mix(a, b), b ^ 0x9e3779b9u);
}

__device__ __noinline__ unsigned long long rotl64(unsigned long long x, int k) {
  return (x << k) | (x >> (64 - k));
}

__device__ __noinline__ void store2(unsigned *p, unsigned v) {
  p[0] = v;
  p[1] = v * 3u + 1u;
}

extern "C" __global__ void calls(const unsigned *in, unsigned *out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned a = in[2 * i], b = in[2 * i + 1];
  unsigned m = mix2(a, b);
  if (m & 1u)
    m = mix(m, a);
  const unsigned long long r = rotl64(((unsigned long long)a << 32) | b, 13);
  store2(out + 4 * i, m);
  out[4 * i + 2] = (unsigned)r;
  out[4 * i + 3] = (unsigned)(r >> 32);
}
