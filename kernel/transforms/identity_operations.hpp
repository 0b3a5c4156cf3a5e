// Operations that leave their source as it is: x + 0, x - 0, x | 0, x ^ 0,
// x << 0, x >> 0 (an unguarded integer instruction whose other operand is
// the immediate 0, no carry in or out) become a `mov` of x. nvcc writes
// them (`add.u64 %rd4, %SP, 0` for a local array's address), and the
// constant substitution before this makes more. A mov is a copy, which
// register assignment makes free where the registers can be shared
// (regalloc.hpp, CopyHint); the add it replaces was one or two VALU
// instructions. The PTX interpreter runs the kernel as written, so `check`
// validates this rewrite like any other.
#pragma once

#include "kernel/kernel_ir.hpp"

namespace p2a::kernel {

Kernel dropIdentityOperations(Kernel k);

} // namespace p2a::kernel
