// ChaCha20 block function: one 64-byte keystream block per thread, XORed into
// the input (encryption == decryption).
//
// Algorithm: RFC 8439 "ChaCha20 and Poly1305 for IETF Protocols",
//   section 2.1   quarter round:  a += b; d ^= a; d <<<= 16;
//                                 c += d; b ^= c; b <<<= 12;
//                                 a += b; d ^= a; d <<<= 8;
//                                 c += d; b ^= c; b <<<= 7;
//   section 2.3   block function: 20 rounds (10 column + 10 diagonal double
//                 rounds), then add the input state;
//   section 2.4   encryption: ciphertext = plaintext XOR keystream,
//                 block counter = initial counter + block index.
// State layout: constants "expand 32-byte k", 8 key words, 1 counter word,
// 3 nonce words (all little-endian).
//
// The rotate-left is written as the C idiom (x << n) | (x >> (32 - n)),
// which nvcc recognises and emits as shf.l.wrap.b32 with an immediate amount.
#include <cstdint>

__device__ __forceinline__ uint32_t rotl32(uint32_t x, int n) {
    return (x << n) | (x >> (32 - n));
}

#define QR(a, b, c, d)                      \
    a += b; d ^= a; d = rotl32(d, 16);      \
    c += d; b ^= c; b = rotl32(b, 12);      \
    a += b; d ^= a; d = rotl32(d, 8);       \
    c += d; b ^= c; b = rotl32(b, 7);

__device__ void chacha20_block(uint32_t out[16], const uint32_t key[8],
                               uint32_t counter, const uint32_t nonce[3]) {
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,   // "expand 32-byte k"
                       key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
                       counter, nonce[0], nonce[1], nonce[2]};
    uint32_t x[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) x[i] = in[i];
#pragma unroll
    for (int i = 0; i < 10; ++i) {
        QR(x[0], x[4], x[8],  x[12]);   // column rounds
        QR(x[1], x[5], x[9],  x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);   // diagonal rounds
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8],  x[13]);
        QR(x[3], x[4], x[9],  x[14]);
    }
#pragma unroll
    for (int i = 0; i < 16; ++i) out[i] = x[i] + in[i];
}

// data: nblocks * 16 little-endian words, encrypted in place.
extern "C" __global__ void chacha20_xor(uint32_t* __restrict__ data,
                                        const uint32_t* __restrict__ key,
                                        const uint32_t* __restrict__ nonce,
                                        uint32_t counter0, int nblocks) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nblocks) return;
    uint32_t k[8], n[3], ks[16];
#pragma unroll
    for (int i = 0; i < 8; ++i) k[i] = key[i];
    n[0] = nonce[0]; n[1] = nonce[1]; n[2] = nonce[2];
    chacha20_block(ks, k, counter0 + (uint32_t)t, n);
    uint32_t* p = data + 16 * t;
#pragma unroll
    for (int i = 0; i < 16; ++i) p[i] ^= ks[i];
}
