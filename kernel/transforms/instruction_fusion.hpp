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
//
// 3. Bytes assembled into a word (a message's big-endian words in sha256,
// siphash's little-endian 64-bit ones): a tree of cvt (zero extension and
// truncation), shifts, masks, bfi at constant positions, or/xor/add of
// disjoint bits and multiplies by powers of two, over eight (else four)
// ld.global.u8 of bytes base+o .., whose every value read elsewhere has
// each byte one loaded byte or zero, is one 64-bit (32-bit) load at base+o
// and one prmt (v_perm_b32) per 32-bit half placing the bytes, as clang
// combines them. A value that is the loaded bytes in order is loaded
// directly; a half in order is the dword itself, a half of zeros the
// immediate 0. The 64-bit load's dwords are one mov.b64 {lo, hi}, and the
// halves' prmts go in the places of statements folded away. AMDHSA runs
// global memory in unaligned mode (LLVM turns +unaligned-access-mode on for
// amdhsa; clang-19 makes siphash's bytes one global_load_dwordx2 on every
// target), so the load needs no alignment. Nothing may write memory between
// the byte loads unless they are .nc. Runs before the lop3 fusion, which
// would take the tree's or/and apart.
//
// 4. The negated low bit, -(x & 1) (neg or a subtraction from 0 of an and
// with 1): all ones where bit 0 is set, else zero, which is bfe.s32 x, 0, 1
// (one v_bfe_i32): the mask of a bitwise CRC step.
//
// 5. nvcc's 64-bit rotate: PTX has none, so nvcc writes a rotate left by a
// constant k as {shl.b64 l, a, k; shr.b64 r, a, 64-k; add.u64 d, l, r} in a
// scope of its own (keccak, siphash, blake2b, every 64-bit hash). The fused
// form rotl.b64 d, a, k is two v_alignbit_b32 (one per half) where the
// three instructions were four VALU (two 64-bit shifts, a carry chain).
// The add (or an or or xor) joins disjoint bits. Not where d is a itself.
//
// 6. A 64-bit value's halves, the way nvcc writes them for 32-bit work on
// halves (__funnelshift on a uint64_t's halves): `cvt.u32.u64 lo, x` with
// `shr.u64 t, x, 32; cvt.u32.u64 hi, t` is one `mov.b64 {lo, hi}, x`, and
// `bfi.b64 d, a, b, 32, 32` of two `cvt.u64.u32` is `mov.b64 d, {lo, hi}`:
// copies, which register assignment makes free where the registers can be
// shared (regalloc.hpp, CopyHint), where they were a 64-bit shift, moves
// and two v_bfi_b32.
//
// Each takes the kernel by value and edits it in place (the caller moves it
// in: a copy per rewrite was a sixth of a big module's translation). What a
// fusion decides by -- the Dataflow counts -- is taken before its first edit.
#pragma once

#include "targets/target_info.hpp"
#include "kernel/kernel_ir.hpp"
#include "isel/selector.hpp"

namespace p2a::kernel {

Kernel fuseLogicTrees(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost);
Kernel fuseAdds(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost);
Kernel fuseByteLoads(Kernel k);
Kernel fuseNegatedBits(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost);
Kernel fuseRotates(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost);
Kernel fuseHalves(Kernel k);

} // namespace p2a::kernel
