// Bit-vector semantics of each PTX form, from the PTX ISA pseudo-code
// (PTX ISA 8.x/9.x, section 9.7.8 "Logic and Shift Instructions"). Written
// once over sem::BV: evaluates concrete test vectors and builds the Z3
// formulas that rule proofs compare AMD sequences against.
#pragma once

#include "semantics/bitvec.hpp"
#include "ptx/ptx_ir.hpp"

#include <vector>

namespace p2a::sem {

// srcs[i] has width form.srcWidth(i); the result has form.numDsts() values of
// width form.dstWidth(i).
std::vector<BV> evalPtx(const ptx::Form &form, const std::vector<BV> &srcs);

// Conditions (1-bit) under which the PTX ISA defines the result at all; rule
// proofs assume them, test vectors respect them.
std::vector<BV> ptxPreconditions(const ptx::Form &form, const std::vector<BV> &srcs);

// setp.CmpOp.type (PTX ISA 9.7.3.1) on integers: a 1-bit result; lo/ls/hi/hs
// are the unsigned spellings of lt/le/gt/ge.
BV compare(ptx::CmpOp op, bool isSigned, const BV &a, const BV &b);

} // namespace p2a::sem
