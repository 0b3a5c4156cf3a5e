// SHA-256 compression function, one 64-byte block per thread.
//
// Algorithm: FIPS 180-4 "Secure Hash Standard", section 6.2.2 (SHA-256 hash
// computation) with the functions of section 4.1.2:
//   Ch(x,y,z)  = (x & y) ^ (~x & z)
//   Maj(x,y,z) = (x & y) ^ (x & z) ^ (y & z)
//   Sigma0(x)  = ROTR2(x)  ^ ROTR13(x) ^ ROTR22(x)
//   Sigma1(x)  = ROTR6(x)  ^ ROTR11(x) ^ ROTR25(x)
//   sigma0(x)  = ROTR7(x)  ^ ROTR18(x) ^ SHR3(x)
//   sigma1(x)  = ROTR17(x) ^ ROTR19(x) ^ SHR10(x)
// Constants K (section 4.2.2) and the initial hash value H(0) (section 5.3.3).
//
// Rotations are written both ways so the PTX shows both idioms:
//   rotr_fs():    __funnelshift_r(x, x, n)        -> shf.r.wrap.b32
//   rotr_shift(): (x >> n) | (x << (32 - n))       -> recognised as a rotate,
//                                                    emitted as shf.l.wrap.b32 (32-n)
// Ch and Maj stay as and/or/xor/not in the PTX: nvcc's front end does not emit
// lop3.b32 (ptxas fuses them later), so they exercise the two-input forms.
#include <cstdint>

__constant__ uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

__device__ __forceinline__ uint32_t rotr_fs(uint32_t x, unsigned n) {
    return __funnelshift_r(x, x, n);          // shift amount taken mod 32
}
__device__ __forceinline__ uint32_t rotr_shift(uint32_t x, unsigned n) {
    return (x >> n) | (x << (32 - n));        // classic C rotate, n in 1..31
}

__device__ __forceinline__ uint32_t Ch(uint32_t x, uint32_t y, uint32_t z)  { return (x & y) ^ (~x & z); }
__device__ __forceinline__ uint32_t Maj(uint32_t x, uint32_t y, uint32_t z) { return (x & y) ^ (x & z) ^ (y & z); }
__device__ __forceinline__ uint32_t Sigma0(uint32_t x) { return rotr_fs(x, 2) ^ rotr_fs(x, 13) ^ rotr_fs(x, 22); }
__device__ __forceinline__ uint32_t Sigma1(uint32_t x) { return rotr_fs(x, 6) ^ rotr_fs(x, 11) ^ rotr_fs(x, 25); }
__device__ __forceinline__ uint32_t sigma0(uint32_t x) { return rotr_shift(x, 7) ^ rotr_shift(x, 18) ^ (x >> 3); }
__device__ __forceinline__ uint32_t sigma1(uint32_t x) { return rotr_shift(x, 17) ^ rotr_shift(x, 19) ^ (x >> 10); }

// Loads a big-endian 32-bit word (SHA-256 message words are big-endian).
__device__ __forceinline__ uint32_t load_be32(const uint8_t* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

// state: 8 words per thread (in/out); blocks: 64 bytes per thread.
extern "C" __global__ void sha256_compress(uint32_t* __restrict__ state,
                                           const uint8_t* __restrict__ blocks,
                                           int nblocks) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nblocks) return;

    uint32_t W[64];
    const uint8_t* blk = blocks + 64 * t;
#pragma unroll
    for (int i = 0; i < 16; ++i) W[i] = load_be32(blk + 4 * i);
#pragma unroll
    for (int i = 16; i < 64; ++i)                                  // message schedule, 6.2.2 step 1
        W[i] = sigma1(W[i - 2]) + W[i - 7] + sigma0(W[i - 15]) + W[i - 16];

    uint32_t* H = state + 8 * t;
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
#pragma unroll
    for (int i = 0; i < 64; ++i) {                                 // 6.2.2 step 3
        uint32_t T1 = h + Sigma1(e) + Ch(e, f, g) + K[i] + W[i];
        uint32_t T2 = Sigma0(a) + Maj(a, b, c);
        h = g; g = f; f = e; e = d + T1;
        d = c; c = b; b = a; a = T1 + T2;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d;                   // 6.2.2 step 4
    H[4] += e; H[5] += f; H[6] += g; H[7] += h;
}

// Writes the initial hash value H(0), FIPS 180-4 section 5.3.3, per thread.
extern "C" __global__ void sha256_init(uint32_t* state, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    for (int i = 0; i < 8; ++i) state[8 * t + i] = H0[i];
}
