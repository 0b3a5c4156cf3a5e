// Carry-chain macros in the style of secp256k1 key-search code: each
// statement sets or reads PTX's carry flag, and the chain runs across
// macro expansions (port_test ports this file with bignum.cu).
#pragma once
#include <stdint.h>

#define UADDO(c, a, b) asm volatile("add.cc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b) : "memory");
#define UADDC(c, a, b) asm volatile("addc.cc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b) : "memory");
#define UADD(c, a, b) asm volatile("addc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b));
#define USUBO(c, a, b) asm volatile("sub.cc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b) : "memory");
#define USUBC(c, a, b) asm volatile("subc.cc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b) : "memory");
#define USUB(c, a, b) asm volatile("subc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b));
#define UMULLO(lo, a, b) asm volatile("mul.lo.u64 %0, %1, %2;" : "=l"(lo) : "l"(a), "l"(b));
#define UMULHI(hi, a, b) asm volatile("mul.hi.u64 %0, %1, %2;" : "=l"(hi) : "l"(a), "l"(b));
#define MADDO(r, a, b, c) asm volatile("mad.hi.cc.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "l"(b), "l"(c) : "memory");
#define MADDC(r, a, b, c) asm volatile("madc.hi.cc.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "l"(b), "l"(c) : "memory");
#define MADD(r, a, b, c) asm volatile("madc.hi.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "l"(b), "l"(c));
#define MADDS(r, a, b, c) asm volatile("madc.hi.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "l"(b), "l"(c));
#define mad_lo_cc(d, a, b, c) asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define madc_hi(d, a, b, c) asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

// A macro made of carry macros.
#define ADD256(r, a, b)        \
  {                            \
    UADDO(r[0], a[0], b[0]);   \
    UADDC(r[1], a[1], b[1]);   \
    UADDC(r[2], a[2], b[2]);   \
    UADD(r[3], a[3], b[3]);    \
  }
