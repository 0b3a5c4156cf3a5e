// Local arrays in registers, as clang keeps them (LLVM's SROA, and
// AMDGPUPromoteAlloca for arrays indexed at run time): nvcc places every
// per-thread array of a kernel in one .local depot, addressed through
// %SPL, and leaves it to ptxas to keep what it can in registers. In
// scratch, each access is a private-segment load or store (hundreds of
// cycles); in VGPRs it is a move, or for an index known only at run time a
// compare and v_cndmask per element.
//
// A .local variable qualifies where its address never leaves the kernel's
// own arithmetic (PTX ISA 5.1.5: local memory is private to the thread):
// every register holding an address into it is written once, by a mov or
// add of the address and constants, or of the address and one register
// (the dynamic index); it is read only as the base of ld.local/st.local, by
// such arithmetic, or by a cvta to a generic address that nothing reads.
// The variable's bytes split into parts, the unions of overlapping access
// ranges. A part is kept in registers, one 32-bit register per dword,
// where every access to it is 32- or 64-bit, dword-aligned and provably
// inside it:
//  - at a constant offset (any number of values: st.local.v4);
//  - at a dynamic offset: one 32-bit value at an index register known to
//    be a multiple of 4 (from how it was computed: shifts, a multiply by
//    4, an `and` with a mask...). Where its largest value is known too
//    (the mask), the access touches that range; otherwise any dword of the
//    variable: the array's bounds are the source's (CUDA C, like C, leaves
//    an access outside an array undefined, and clang promotes such arrays
//    the same way). A part indexed so holds at most kMaxIndexedArrayDwords.
// A part indexed at run time costs per access about two instructions per
// element; scratch would cost one instruction and its latency.
//
// Accesses become ArrayLoad / ArrayStore statements (kernel_ir.hpp); the
// address arithmetic of a variable whose every part is in registers
// becomes Nop statements, and the variable leaves the private segment. The
// PTX interpreter runs the kernel as written, so `check` validates the
// rewrite like any other translation.
#pragma once

#include "kernel/kernel_ir.hpp"

namespace p2a::kernel {

// The most dwords a part indexed at run time keeps in registers, and the
// most dwords all promoted parts of a kernel take.
inline constexpr unsigned kMaxIndexedArrayDwords = 16;
inline constexpr unsigned kMaxPromotedDwords = 64;

Kernel promoteLocalArrays(Kernel k);

} // namespace p2a::kernel
