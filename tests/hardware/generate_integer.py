#!/usr/bin/env python3
"""Generates tests/hardware/integer_forms.ptx: integer forms the translator
supports that the single-instruction fixtures leave out (cvt between every
pair of types, with .sat where it can clamp, 16-bit division and widening multiplies, 64-bit
min/max, carry chains through 64-bit and high-half multiply-adds), for the
hardware record (tests/hardware/README.md).

Fixture-shaped (tests/fixtures/generate.py's kernel()). Run from the
repository root: python3 tests/hardware/generate_integer.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
from generate import kernel, write_module  # the fixtures' kernel shape: sources in slots, d at out[8*i]

TYPES = ("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64")

def width(t):
    return int(t[1:])

def register(t):  # 8-bit values live in 16-bit registers
    return max(16, width(t))

kernels = []

def add(name, instr, srcs, dsts):
    kernels.append(kernel(name, instr, srcs, dsts))

# cvt.dtype.atype between every pair of types, and cvt.sat where it can
# clamp (the ranges below are the ones ptxas takes .sat for).
def bounds(t):
    w = width(t)
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if t[0] == "s" else (0, (1 << w) - 1)

for d in TYPES:
    for a in TYPES:
        if d == a:
            continue
        add(f"cvt_{d}_{a}", f"cvt.{d}.{a} {{d0}}, {{s0}}", [register(a)], [register(d)])
        (dlo, dhi), (alo, ahi) = bounds(d), bounds(a)
        if alo < dlo or ahi > dhi:
            add(f"cvt_sat_{d}_{a}", f"cvt.sat.{d}.{a} {{d0}}, {{s0}}", [register(a)], [register(d)])
for t in ("u16", "s16"):
    for op in ("div", "rem"):  # divisors never 0
        add(f"{op}_{t}", f"max.u16 %h30, {{s1}}, 1; {op}.{t} {{d0}}, {{s0}}, %h30", [16, 16], [16])
    add(f"mul_wide_{t}", f"mul.wide.{t} {{d0}}, {{s0}}, {{s1}}", [16, 16], [32])
for t in ("u64", "s64"):
    for op in ("min", "max"):
        add(f"{op}_{t}", f"{op}.{t} {{d0}}, {{s0}}, {{s1}}", [64, 64], [64])
add("add_cc_chain_u64", "add.cc.u64 %rd30, {s0}, {s1}; addc.cc.u64 %rd31, {s0}, {s1}; addc.u64 {d0}, %rd30, %rd31",
    [64, 64], [64])
add("sub_cc_chain_u64", "sub.cc.u64 %rd30, {s0}, {s1}; subc.cc.u64 %rd31, {s0}, {s1}; subc.u64 {d0}, %rd30, %rd31",
    [64, 64], [64])
add("madc_hi_u64", "add.cc.u64 %rd30, {s0}, {s1}; madc.hi.u64 {d0}, {s0}, {s1}, %rd30", [64, 64], [64])
add("madc_hi_cc_s64", "add.cc.u64 %rd30, {s0}, {s1}; madc.hi.cc.s64 %rd31, {s0}, {s1}, %rd30; addc.u64 {d0}, %rd31, 0",
    [64, 64], [64])
add("mad_hi_cc_u32", "mad.hi.cc.u32 %r30, {s0}, {s1}, {s2}; addc.u32 {d0}, %r30, 0", [32, 32, 32], [32])
add("bfind_shiftamt_u64_of_product", "mul.lo.u64 %rd30, {s0}, {s1}; bfind.shiftamt.u64 {d0}, %rd30", [64, 64], [32])

write_module(os.path.join(HERE, "integer_forms.ptx"), "tests/hardware/generate_integer.py",
             "Integer forms beyond the single-instruction fixtures, for the hardware\nrecord (tests/hardware/README.md).", kernels)
print("wrote integer_forms.ptx (%d kernels)" % len(kernels))
