#!/usr/bin/env python3
"""Generates tests/hardware/video_forms.ptx: the scalar video instructions
(PTX ISA 9.7.18.1) in every combination of operand types, with and without
.sat, and each secondary operation, for the hardware record
(tests/hardware/README.md). tests/fixtures/video.ptx holds the subset that
`check` runs on every target; this file pins what NVIDIA hardware computes
for all of them (the PTX interpreter must agree, and the rule proofs follow
the interpreter's definitions).

Fixture-shaped: thread i reads a, b, c from the 8-byte slots at in[32*i]
and stores d to out[8*i]. Run from the repository root:
python3 tests/hardware/generate_video.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
from generate import kernel, write_module  # the fixtures' kernel shape: sources in slots, d at out[8*i]

T = ("u32", "s32")
kernels = []

def add(name, instr, sources):
    """instr: a template over {s0} {s1} {s2} {d0}; sources: how many 32-bit inputs."""
    kernels.append(kernel(name, instr, [32] * sources, [32]))

def suffix(mods):
    return "".join("_" + m for m in mods)

# vadd vsub vabsdiff vmin vmax: .dtype.atype.btype{.sat}{.add|.min|.max}
for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
    for d in T:
        for a in T:
            for b in T:
                for mods in ([], ["sat"], ["add"], ["min"], ["max"], ["sat", "add"], ["sat", "min"], ["sat", "max"]):
                    withC = len(mods) > 0 and mods[-1] != "sat"
                    add(f"{op}_{d}_{a}_{b}{suffix(mods)}",
                        f"{op}.{d}.{a}.{b}{''.join('.' + m for m in mods)} {{d0}}, {{s0}}, {{s1}}" +
                        (", {s2}" if withC else ""), 3 if withC else 2)

# vset.atype.btype.cmp{.add|.min|.max} (d is .u32)
for a in T:
    for b in T:
        for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
            add(f"vset_{a}_{b}_{cmp}", f"vset.{a}.{b}.{cmp} {{d0}}, {{s0}}, {{s1}}", 2)
        for cmp in ("lt", "ge"):
            for m in ("add", "min", "max"):
                add(f"vset_{a}_{b}_{cmp}_{m}", f"vset.{a}.{b}.{cmp}.{m} {{d0}}, {{s0}}, {{s1}}, {{s2}}", 3)

# vshl / vshr: .dtype.atype.u32{.sat}.mode{.add|.min|.max}
for op in ("vshl", "vshr"):
    for d in T:
        for a in T:
            for mode in ("wrap", "clamp"):
                for mods in ([], ["sat"], ["add"], ["min"], ["max"], ["sat", "min"]):
                    sat = ".sat" if "sat" in mods else ""
                    second = [m for m in mods if m != "sat"]
                    add(f"{op}_{d}_{a}_{mode}{suffix(mods)}",
                        f"{op}.{d}.{a}.u32{sat}.{mode}{''.join('.' + m for m in second)} {{d0}}, {{s0}}, {{s1}}" +
                        (", {s2}" if second else ""), 3 if second else 2)

# vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15}, and negated product or c
for d in T:
    for a in T:
        for b in T:
            for name, mods, srcs in (("", "", "{s0}, {s1}, {s2}"), ("_po", ".po", "{s0}, {s1}, {s2}"),
                                     ("_sat", ".sat", "{s0}, {s1}, {s2}"), ("_shr7", ".shr7", "{s0}, {s1}, {s2}"),
                                     ("_shr15", ".shr15", "{s0}, {s1}, {s2}"),
                                     ("_neg_ab", "", "{s0}, -{s1}, {s2}"), ("_neg_c", "", "{s0}, {s1}, -{s2}"),
                                     ("_sat_shr15", ".sat.shr15", "{s0}, {s1}, {s2}"),
                                     ("_po_sat", ".po.sat", "{s0}, {s1}, {s2}"),
                                     ("_neg_ab_sat", ".sat", "{s0}, -{s1}, {s2}"),
                                     ("_neg_ab_shr7", ".shr7", "{s0}, -{s1}, {s2}"),
                                     ("_neg_c_sat", ".sat", "{s0}, {s1}, -{s2}"),
                                     ("_neg_c_shr15", ".shr15", "{s0}, {s1}, -{s2}")):
                add(f"vmad_{d}_{a}_{b}{name}", f"vmad.{d}.{a}.{b}{mods} {{d0}}, {srcs}", 3)

write_module(os.path.join(HERE, "video_forms.ptx"), "tests/hardware/generate_video.py",
             "The scalar video instructions in every operand-type combination, with and\nwithout .sat and each secondary operation (PTX ISA 9.7.18.1).", kernels)
print("wrote video_forms.ptx (%d kernels)" % len(kernels))
