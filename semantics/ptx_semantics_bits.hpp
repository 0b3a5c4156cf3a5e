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
// vshl / vshr (Scalar Video Instructions) without .sat or selectors; `plus`
// is the secondary .add with c (ignored otherwise).
BV videoShift(bool left, bool clamp, bool signedA, const BV &a, const BV &b, const BV *plus);

} // namespace p2a::sem::bits
