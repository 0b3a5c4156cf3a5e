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
// vshl / vshr (PTX ISA 9.7.18.1.2): a extended by its type, shifted exactly
// by b (.clamp: min(b, 32), .wrap: b & 31), then optSaturate and the
// secondary operation with c as in videoArith.
BV videoShift(const ptx::Form &f, const BV &a, const BV &b, const BV *c);
// vadd, vsub, vabsdiff, vmin, vmax (PTX ISA 9.7.18.1.1 with the stages of
// 9.7.18.1): a and b extended by their types, the operation in the wide
// intermediate, optSaturate to dtype, the secondary operation with c
// (extended by dtype), the low 32 bits.
BV videoArith(const ptx::Form &f, const BV &a, const BV &b, const BV *c);
// vmad (9.7.18.1.4): (a*b) + c with the negation or .po of the form, the
// .shr7/.shr15 scale and .sat, in the ISA's 128-bit intermediate.
BV videoMad(const ptx::Form &f, const BV &a, const BV &b, const BV &c);
// vset (9.7.18.1.3): compare(ta, tb) ? 1 : 0, then the secondary operation
// with c, all unsigned.
BV videoSet(const ptx::Form &f, const BV &a, const BV &b, const BV *c);

} // namespace p2a::sem::bits
