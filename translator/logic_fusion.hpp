// Bitwise expression trees as one lop3 (the way ptxas turns nvcc's and/or/
// xor/not chains into LOP3): within a basic block, an and/or/xor/not/lop3
// (.b32) whose sources are results of other such instructions, each read
// only there and written only there, over at most three distinct leaf
// operands, is one 3-input function. Its truth table is the lop3 LUT
// (evaluated on a = 0xF0, b = 0xCC, c = 0xAA, PTX ISA 9.7.8.6), and the
// lop3 rule table -- minimal sequences from the exhaustive search, proved
// -- lowers it: SHA-256's Ch, (e & f) ^ (~e & g), four PTX instructions, is
// one v_bfi_b32; its Sigma xors of three rotates are one v_xor3_b32 on
// gfx10+. The tree is fused only where the lop3 rule costs no more than the
// instructions it replaces; those become Nop statements.
//
// The PTX interpreter runs the kernel as written, so `check` validates the
// rewrite like any other translation.
#pragma once

#include "targets/target_info.hpp"
#include "translator/kernel_ir.hpp"
#include "translator/selector.hpp"

namespace p2a::kernel {

Kernel fuseLogicTrees(const Kernel &k, const targets::TargetInfo &t, const select::RuleCostFn &cost);

} // namespace p2a::kernel
