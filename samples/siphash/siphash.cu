// SipHash-2-4: keyed 64-bit hash of one message per thread.
//
// Algorithm: J.-P. Aumasson and D. J. Bernstein, "SipHash: a fast short-input
// PRF", INDOCRYPT 2012 (reference implementation github.com/veorq/SipHash).
// State v0..v3 is initialised from the 128-bit key k0,k1 XOR the constants
// "somepseudorandomlygeneratedbytes"; each 8-byte little-endian message word
// m is absorbed with 2 SipRounds (v3 ^= m; SipRound x2; v0 ^= m); the last
// word carries the length in its top byte; finalisation is v2 ^= 0xff and
// 4 SipRounds; the result is v0^v1^v2^v3.
//
// SipRound uses 64-bit add-rotate-xor with rotations 13, 16, 21, 17, 32.
// The kernel is instantiated twice to give both 64-bit rotate shapes:
//  * kFunnel=false: C idiom (x << b) | (x >> (64 - b)); nvcc 13 emits it as a
//    braced block { .reg .b64 %lhs, %rhs; shl.b64; shr.b64; add.u64 }.
//  * kFunnel=true: rotate on the 32-bit halves with __funnelshift_l, as GPU
//    crypto code often does -> split (shr.u64, cvt.u32.u64), two
//    shf.l.wrap.b32, join (cvt.u64.u32, bfi.b64).
// A 64-bit rotate by a run-time amount (rotl64_var, used for the key tweak
// below) gives the same braced shl.b64/shr.b64 block with a sub.u32.
#include <cstdint>

__device__ __forceinline__ uint64_t rotl64_c(uint64_t x, int b) {
    return (x << b) | (x >> (64 - b));
}
__device__ __forceinline__ uint64_t rotl64_halves(uint64_t x, int b) {
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    if (b >= 32) { uint32_t t = lo; lo = hi; hi = t; b -= 32; }   // b is a constant
    if (b == 0) return ((uint64_t)hi << 32) | lo;
    uint32_t nhi = __funnelshift_l(lo, hi, b);    // upper 32 of {hi:lo} << b
    uint32_t nlo = __funnelshift_l(hi, lo, b);    // upper 32 of {lo:hi} << b
    return ((uint64_t)nhi << 32) | nlo;
}
template <bool kFunnel>
__device__ __forceinline__ uint64_t rotl64(uint64_t x, int b) {
    return kFunnel ? rotl64_halves(x, b) : rotl64_c(x, b);
}
__device__ __forceinline__ uint64_t rotl64_var(uint64_t x, unsigned b) {
    b &= 63;
    return (x << b) | (x >> ((64 - b) & 63));
}

#define SIPROUND                                                            \
    do {                                                                    \
        v0 += v1; v1 = rotl64<kFunnel>(v1, 13); v1 ^= v0;                   \
        v0 = rotl64<kFunnel>(v0, 32);                                       \
        v2 += v3; v3 = rotl64<kFunnel>(v3, 16); v3 ^= v2;                   \
        v0 += v3; v3 = rotl64<kFunnel>(v3, 21); v3 ^= v0;                   \
        v2 += v1; v1 = rotl64<kFunnel>(v1, 17); v1 ^= v2;                   \
        v2 = rotl64<kFunnel>(v2, 32);                                       \
    } while (0)

// Reads 8 bytes little-endian.
__device__ __forceinline__ uint64_t load_le64(const uint8_t* p) {
    uint64_t r = 0;
#pragma unroll
    for (int i = 0; i < 8; ++i) r |= (uint64_t)p[i] << (8 * i);
    return r;
}

template <bool kFunnel>
__device__ uint64_t siphash24(const uint8_t* msg, int len, uint64_t k0, uint64_t k1) {
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;   // "somepseu"
    uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;   // "dorandom"
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;   // "lygenera"
    uint64_t v3 = k1 ^ 0x7465646279746573ULL;   // "tedbytes"
    int full = len & ~7;
    for (int i = 0; i < full; i += 8) {
        uint64_t m = load_le64(msg + i);
        v3 ^= m;
        SIPROUND; SIPROUND;
        v0 ^= m;
    }
    uint64_t last = (uint64_t)len << 56;         // length byte in the top byte
    for (int i = 0; i < (len & 7); ++i) last |= (uint64_t)msg[full + i] << (8 * i);
    v3 ^= last;
    SIPROUND; SIPROUND;
    v0 ^= last;
    v2 ^= 0xff;
    SIPROUND; SIPROUND; SIPROUND; SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

// msgs: n messages of stride bytes each; lens[i] <= stride.  key: k0,k1.
// Thread t hashes message t with key k1 rotated by t (a per-lane key tweak).
template <bool kFunnel>
__device__ void siphash24_body(uint64_t* __restrict__ out, const uint8_t* __restrict__ msgs,
                               const int* __restrict__ lens, int stride,
                               const uint64_t* __restrict__ key, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    uint64_t k0 = key[0], k1 = rotl64_var(key[1], (unsigned)t);
    out[t] = siphash24<kFunnel>(msgs + (size_t)t * stride, lens[t], k0, k1);
}
extern "C" __global__ void siphash24_kernel(uint64_t* out, const uint8_t* msgs, const int* lens,
                                            int stride, const uint64_t* key, int n) {
    siphash24_body<false>(out, msgs, lens, stride, key, n);
}
extern "C" __global__ void siphash24_kernel_shf(uint64_t* out, const uint8_t* msgs, const int* lens,
                                                int stride, const uint64_t* key, int n) {
    siphash24_body<true>(out, msgs, lens, stride, key, n);
}
