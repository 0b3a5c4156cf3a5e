// Constant operands across statements: a PTX register whose only write in
// the kernel is an unguarded `mov` of an immediate holds that constant
// wherever it is read, so a rule form reading it may take the immediate
// instead -- where some rule for the target accepts one, which also picks
// the constant-specialised rules (shf by a known amount is one
// v_alignbit_b32 instead of four instructions). nvcc -O3 often materialises
// shift amounts and masks this way (`mov.u32 %r34, 15; shf.l.wrap.b32 ...,
// %r34`). A mov whose register is then read nowhere is dropped.
//
// A read that runs before the write would have read an undefined register;
// the constant is a valid value for it too. The PTX interpreter runs the
// kernel as written, so `check` validates this rewrite like any other.
#pragma once

#include "targets/target_info.hpp"
#include "kernel/kernel_ir.hpp"
#include "isel/selector.hpp"

namespace p2a::kernel {

// The kernel with constant registers substituted into rule-form sources;
// dropped movs become Nop statements (indices and labels are unchanged).
Kernel substituteConstantOperands(Kernel k, const targets::TargetInfo &t);

} // namespace p2a::kernel
