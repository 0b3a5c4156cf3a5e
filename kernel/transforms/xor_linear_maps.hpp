// Chains of 32-bit operations that are linear over GF(2) -- xor, shifts by
// constants, and with constants, the broadcast of one bit (bfe.s32 x, p, 1,
// or -(x & 1) once fused) -- computed from one register, rewritten into
// their shortest form: one shift of that register, xor-ed with each input
// bit that the shift does not account for, broadcast and masked.
//
// A bitwise CRC step, crc = (crc >> 1) ^ (P & -(crc & 1)), is such a map,
// and so is any number of them in a row. nvcc writes n unrolled steps as a
// serial chain of 4n instructions (each step's mask waits for the previous
// step); as one map they are crc >> n xor-ed with n terms
// bfe.s32(crc, j, 1) & R_j, independent of each other: 2n + 1 instructions
// and the xors (v_xor3_b32 on gfx10+, through the lop3 fusion), with a
// critical path of four instead of 4n. clang finds the same form from the
// CUDA source.
//
// Why it is exact: every operation in the region is linear over GF(2) in
// the input register x, so the region computes M x for a 32x32 bit matrix
// M, and M is known from its columns, the images of the 32 one-bit inputs
// 1 << j. The rewrite evaluates the region's statements on those columns,
// splits M into the shift that matches most columns and the remaining ones,
// and checks the new statements on the same columns before replacing any
// statement. The region's intermediate values must be written once and read
// only inside it, x unchanged across it; it is rewritten only where the new
// statements cost less (rule costs) and are no more than the old ones.
#pragma once

#include "isel/selector.hpp"
#include "kernel/kernel_ir.hpp"
#include "targets/target_info.hpp"

namespace p2a::kernel {

Kernel collapseXorLinearMaps(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost);

} // namespace p2a::kernel
