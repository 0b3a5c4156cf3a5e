// Vector loads of 32-bit elements as 64-bit ones. PTX's ld .v2/.v4 of
// .b32/.u32/.s32/.f32 (PTX ISA 9.7.9.8: the address aligned to the whole
// vector's size) is one access per element in the lowering, which has no
// register tuple wider than a pair. Here each pair of elements is one
// 64-bit element: `ld.v4.u32 {a, b, c, d}` is `ld.v2.b64 {q0, q1}` then
// `mov.b64 {a, b}, q0` and `mov.b64 {c, d}, q1`: copies that register
// assignment makes free (regalloc.hpp, CopyHint) where each of a .. d is
// written by this load alone, so it starts at the copy. A .v2 is one
// global_load_dwordx2 (ds_read_b64, scratch_load_dwordx2) where it was two
// dword loads, a .v4 two where it was four. Weak unguarded loads only (a strong
// or ordered one keeps its per-element form; a guarded one would keep the
// pair live up to it, a guarded write reading what it keeps). Stores stay per element: their values are made apart, and
// packing them into a pair costs copies where their registers are not
// already one (measured on the samples: more VALU and VGPRs).
#pragma once

#include "kernel/kernel_ir.hpp"

namespace p2a::kernel {

Kernel widenVectorAccesses(Kernel k);

} // namespace p2a::kernel
