// Uses of bignum.h's carry macros, directly and through ADD256.
#include "bignum.h"

__device__ __forceinline__ void sub256(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  USUBO(r[0], a[0], b[0]);
  USUBC(r[1], a[1], b[1]);
  USUBC(r[2], a[2], b[2]);
  USUB(r[3], a[3], b[3]);
}

__device__ __forceinline__ uint32_t mulhi_sum(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t lo, hi;
  mad_lo_cc(lo, a, b, c);
  madc_hi(hi, a, b, 0);
  return lo ^ hi;
}

// A 64x64 -> 192-bit multiply-accumulate, as secp256k1 code writes it.
__device__ __forceinline__ void mul_acc(uint64_t *r, uint64_t a, uint64_t b, uint64_t c0, uint64_t c1, int64_t s) {
  uint64_t lo, hi, t;
  UMULLO(lo, a, b);
  UMULHI(hi, a, b);
  MADDO(t, a, c0, hi);
  MADDC(r[1], b, c1, t);
  MADD(r[2], a, b, c1);
  MADDS(r[3], a, (uint64_t)s, c0);
  r[0] = lo;
}

__global__ void bignum_kernel(const uint64_t *in, uint64_t *out) {
  const uint32_t i = threadIdx.x;
  const uint64_t *a = in + 8 * i, *b = a + 4;
  uint64_t s[4], d[4];
  ADD256(s, a, b);
  sub256(d, a, b);
  for (int k = 0; k < 4; ++k)
    out[16 * i + k] = s[k] ^ d[k];
  out[16 * i + 4] = mulhi_sum((uint32_t)a[0], (uint32_t)b[0], (uint32_t)a[1]);
  mul_acc(out + 16 * i + 5, a[0], b[0], a[1], b[1], (int64_t)a[2]);
}
