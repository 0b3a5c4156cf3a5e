// Fusing PTX instructions into fewer AMD instructions, within a basic
// block, where an intermediate result is written once and read only by the
// instruction it feeds (and the operands it was computed from are
// unchanged up to there). Fused-away statements become Nop statements
// saying where they went; the PTX interpreter runs the kernel as written,
// so `check` validates every fusion like any other translation.
//
// 1. Bitwise expression trees as one lop3 (the way ptxas turns nvcc's and/or/
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
// 2. An add of an add's or a xor's result: the fused forms add3 (one
// v_add3_u32) and xad (one v_xad_u32); SHA-256's round additions are
// chains of adds.
#pragma once

#include "targets/target_info.hpp"
#include "kernel/kernel_ir.hpp"
#include "isel/selector.hpp"

namespace p2a::kernel {

Kernel fuseLogicTrees(const Kernel &k, const targets::TargetInfo &t, const select::RuleCostFn &cost);
Kernel fuseAdds(const Kernel &k, const targets::TargetInfo &t, const select::RuleCostFn &cost);

} // namespace p2a::kernel
