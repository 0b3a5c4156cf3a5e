// Semantics of prmt and the integer bit-manipulation instructions; called by
// evalPtx (ptx_semantics.cpp).
#pragma once

#include "semantics/bitvec.hpp"
#include "ptx/ptx_ir.hpp"

namespace p2a::sem::bits {

BV prmt(ptx::PrmtMode mode, const BV &a, const BV &b, const BV &c);
// The byte-index table of a non-default prmt mode: row c[1:0], entries d.b3..d.b0.
const unsigned char (&prmtModeRows(ptx::PrmtMode mode))[4][4];
BV bfe(bool isSigned, const BV &a, const BV &pos, const BV &len);
BV bfi(const BV &a, const BV &b, const BV &pos, const BV &len);
BV brev(const BV &a);
BV popc(const BV &a);
BV clz(const BV &a);
BV bfind(bool isSigned, bool shiftamt, const BV &a);
BV fns(const BV &mask, const BV &base, const BV &offset);
BV bmsk(bool clamp, const BV &a, const BV &b);
BV szext(bool clamp, bool isSigned, const BV &a, const BV &b);
// The scalar video instructions (PTX ISA 9.7.18.1) as NVIDIA hardware
// computes them, measured (tests/hardware/README.md): ptxas emulates them,
// and where that departs from the ISA's pseudocode the hardware wins.
// vshl / vshr: a extended by its type, shifted by b (.clamp: min(b, 32),
// .wrap: b & 31) in 64 bits; .sat cuts to .s34 and clamps; then the
// secondary operation with c.
BV videoShift(const ptx::Form &f, const BV &a, const BV &b, const BV *c);
// vadd, vsub, vabsdiff, vmin, vmax: the exact value of a and b extended by
// their types, .sat (.u32: only below 0), the secondary operation with c.
BV videoArith(const ptx::Form &f, const BV &a, const BV &b, const BV *c);
// vmad: the signed 64-bit product a*b plus c sign-extended, with the
// negation or .po of the form, the .shr7/.shr15 scale and .sat.
BV videoMad(const ptx::Form &f, const BV &a, const BV &b, const BV &c);
// vset: compare(ta, tb) ? 1 : 0, then the secondary operation with c
// (.min/.max signed where a is).
BV videoSet(const ptx::Form &f, const BV &a, const BV &b, const BV *c);

} // namespace p2a::sem::bits
