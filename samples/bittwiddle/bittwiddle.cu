// Bit-twiddling kernels: a grab bag of Logic & Shift idioms, each small and
// each computing something real.
//
//  * rotl7_asm / lop3_asm: inline PTX, so the exact instruction survives
//    (PTX ISA 9.7.8.6 shf, 9.7.8.5 lop3).  LUT 0x96 = a ^ b ^ c
//    (0xF0 ^ 0xCC ^ 0xAA), LUT 0xE8 = majority(a,b,c).
//  * cnot_asm: PTX cnot (9.7.8.4), d = (a == 0), plus the same in plain C.
//  * lop3 with a predicate output (PTX ISA 8.2+, sm_70+): d = lut(a,b,c) and
//    p = (d != 0) | q.
//  * funnel shifts with clamp: __funnelshift_lc / __funnelshift_rc
//    (CUDA Math API, integer intrinsics) -> shf.{l,r}.clamp.b32.
//  * shifts by run-time amounts on 16/32/64-bit, signed and unsigned.
//  * xorshift32 / xorshift64 RNG: G. Marsaglia, "Xorshift RNGs",
//    J. Stat. Software 8(14), 2003 (triples 13,17,5 and 13,7,17).
//  * Morton (Z-order) bit interleave of two 16-bit coordinates, the
//    "binary magic numbers" method (Bit Twiddling Hacks, S. E. Anderson).
#include <cstdint>

__device__ __forceinline__ uint32_t rotl7_asm(uint32_t x) {
    uint32_t d;
    asm("shf.l.wrap.b32 %0, %1, %1, 7;" : "=r"(d) : "r"(x));
    return d;
}
__device__ __forceinline__ uint32_t lop3_asm(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t x, m;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(x) : "r"(a), "r"(b), "r"(c));   // a^b^c
    asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(m) : "r"(a), "r"(b), "r"(c));   // maj(a,b,c)
    return x + m;
}
__device__ __forceinline__ uint32_t cnot_asm(uint32_t a) {
    uint32_t d;
    asm("cnot.b32 %0, %1;" : "=r"(d) : "r"(a));
    return d;
}
__device__ __forceinline__ uint16_t cnot16_asm(uint16_t a) {
    uint16_t d;
    asm("cnot.b16 %0, %1;" : "=h"(d) : "h"(a));
    return d;
}
// d = a^b^c, returns 1 when d != 0 or q was set (lop3.or with predicate out).
__device__ __forceinline__ uint32_t lop3_or_pred(uint32_t a, uint32_t b, uint32_t c,
                                                 uint32_t qin, uint32_t* d) {
    uint32_t r, dd;
    asm("{\n\t.reg .pred p, q;\n\t"
        "setp.ne.u32 q, %3, 0;\n\t"
        "lop3.or.b32 %1|p, %2, %4, %5, 0x96, q;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(r), "=r"(dd) : "r"(a), "r"(qin), "r"(b), "r"(c));
    *d = dd;
    return r;
}

__device__ __forceinline__ uint32_t xorshift32(uint32_t& s) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s;
}
__device__ __forceinline__ uint64_t xorshift64(uint64_t& s) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s;
}
__device__ __forceinline__ uint32_t part1by1(uint32_t x) {          // spread 16 bits to even positions
    x &= 0x0000ffff;
    x = (x | (x << 8)) & 0x00ff00ff;
    x = (x | (x << 4)) & 0x0f0f0f0f;
    x = (x | (x << 2)) & 0x33333333;
    x = (x | (x << 1)) & 0x55555555;
    return x;
}
__device__ __forceinline__ uint32_t morton2(uint32_t x, uint32_t y) {
    return part1by1(x) | (part1by1(y) << 1);
}

struct Out {
    uint32_t rot, lop, cnot_a, cnot_c, lop3p, lop3d, fsl, fsr, morton, rng32;
    uint64_t rng64, sh64u;
    int64_t sh64s;
    uint16_t cnot16, sh16u;
    int16_t sh16s;
    uint32_t sh32u;
    int32_t sh32s;
};

extern "C" __global__ void bittwiddle(Out* __restrict__ out, const uint32_t* __restrict__ in,
                                      const uint64_t* __restrict__ in64, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    uint32_t a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
    uint64_t w = in64[t];
    unsigned amt = c & 63;                       // run-time shift amount
    Out o;
    o.rot    = rotl7_asm(a);
    o.lop    = lop3_asm(a, b, c);
    o.cnot_a = cnot_asm(a);
    o.cnot_c = (b == 0) ? 1u : 0u;               // cnot written in C (setp + selp)
    o.cnot16 = cnot16_asm((uint16_t)c);
    o.lop3p  = lop3_or_pred(a, b, c, c & 1, &o.lop3d);
    o.fsl    = __funnelshift_lc(a, b, c);        // hi word of {b:a} << min(c,32)
    o.fsr    = __funnelshift_rc(a, b, c);        // lo word of {b:a} >> min(c,32)
    o.morton = morton2(a & 0xffff, b & 0xffff);
    uint32_t s32 = a | 1;
    for (int i = 0; i < 4; ++i) xorshift32(s32);
    o.rng32 = s32;
    uint64_t s64 = w | 1;
    for (int i = 0; i < 4; ++i) xorshift64(s64);
    o.rng64 = s64;
    // Variable shifts: C leaves amounts >= width undefined, so mask them.
    o.sh16u = (uint16_t)((uint16_t)a << (amt & 15)) ^ (uint16_t)((uint16_t)b >> (amt & 15));
    o.sh16s = (int16_t)((int16_t)b >> (amt & 15));
    o.sh32u = (a << (amt & 31)) ^ (b >> (amt & 31));
    o.sh32s = (int32_t)b >> (amt & 31);
    o.sh64u = (w << amt) ^ (w >> (63 - amt));
    o.sh64s = (int64_t)w >> amt;
    out[t] = o;
}
