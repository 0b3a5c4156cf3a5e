// A three-input logic function that takes two instructions (a lop3 with no
// single AMD equivalent, such as SHA-2's majority 0xE8 = v_xor_b32 then
// v_bfi_b32) is split into its two steps where the first step can be made
// from the two older inputs alone: the step of the youngest input then
// waits for one instruction instead of two.
//
// Why: RDNA issues a wave32's VALU instruction every cycle but its result is
// ready five cycles later (RDNA3 ISA "s_delay_alu"; targets/alu_delay.hpp),
// and the statement scheduler (statement_scheduling.cpp) moves statements,
// not the instructions inside one. In SHA-256's rounds Maj(a, b, c) reads
// the `a` just computed: as one statement its v_xor_b32 of b and c (known a
// round earlier) sits between a and the v_bfi_b32, which stalls four
// cycles every round. As two statements, the xor is scheduled early.
//
// The split is exact: the two truth tables compose to the original one
// (checked on all eight input rows), and it is made only where the two
// statements' rules cost no more than the lop3's. Only wave32 targets:
// a wave64 issues one instruction every four cycles, which hides the latency.
// (The kernel is taken by value: on wave64 it is handed back as it came,
// without a copy.)
#pragma once

#include "isel/selector.hpp"
#include "kernel/kernel_ir.hpp"
#include "targets/target_info.hpp"

namespace p2a::kernel {

Kernel splitLogicForLatency(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost);

} // namespace p2a::kernel
