#!/usr/bin/env python3
"""Count the AMD GPU instructions LLVM 19 spends on each PTX Logic & Shift and bit-manipulation form.

For every PTX form (PTX ISA 9.7.8: and or xor not cnot lop3 shf shl shr; 9.7.9.7
prmt; 9.7.1: bfe bfi brev popc clz bfind fns bmsk szext) this script writes one LLVM IR function with the same semantics, compiles the module
for each AMD target with

    opt-19 -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=X   |   llc-19 -O3 -mtriple=... -mcpu=X

and counts the machine instructions in each function body.  opt runs first
because llc has no instcombine: without it the lop3 sum-of-products IR below
would be lowered almost literally instead of being simplified to the few
instructions LLVM really needs (SelectionDAG combines only part of it).  The
same pipeline is used for every form so all counts are comparable.

Functions use the plain (non-kernel) calling convention, so the inputs arrive
in VGPRs (v0, v1, ...; i64 in v[0:1], v[2:3]) and the result goes back in v0
or v[0:1]; no loads, stores or kernel prologue are counted.

Not counted: s_waitcnt* (the entry wait of the callee ABI), s_wait_* (gfx12
split wait counters), s_setpc_b64 (the return), s_delay_alu, s_nop, labels,
assembler directives and comments.

Some forms have several equivalent IR formulations (lop3: sum of products,
product of sums, smallest and/or/xor/not formula; clamp funnel shifts: i64
shift or select; shl/shr: select or widened shift; most bit-manipulation
forms: see the ir_* docstrings).  All are compiled; the JSON's "targets" holds
the minimum and "formulations" each one's count.  The one exception is the
fns.b32 "loop" formulation (NOT_IN_MIN): it is recorded but left out of the
minimum, because a loop's static instruction count is not comparable with
straight-line code.

The bit-manipulation IR encodes semantics/ptx_semantics_bits.cpp.  --check
runs every formulation of those forms on the host with lli-19, before and after
a host opt -O3, and compares the results with a Python port of that file
(model_*), which must first reproduce measured hardware values (MODEL_VECTORS).

Stdlib only; the output is deterministic (fixed form order, JSON keys in form
order, no timestamps).

Usage:
    python3 bench/llc_compare/generate.py            # writes llc_counts.json, prints a table
    python3 bench/llc_compare/generate.py --asm-dir /tmp/asm   # also keep the .ll and .s files
    python3 bench/llc_compare/generate.py --check   # only the equivalence check (needs lli-19)
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys

TARGETS = ["gfx900", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
TRIPLE = "amdgcn-amd-amdhsa"
LLC = os.environ.get("LLC", "llc-19")
OPT = os.environ.get("OPT", "opt-19")

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "llc_counts.json")

WIDTH = {"16": "i16", "32": "i32", "64": "i64"}


# --------------------------------------------------------------------------
# IR for each form.  Each builder returns (signature_args, ret_type, body).
# --------------------------------------------------------------------------

def fn(name, ret, args, body_lines):
    body = "\n".join("  " + l for l in body_lines)
    return f"define {ret} @{name}({args}) {{\n{body}\n}}\n"


def amount(ty, c="%c"):
    """Shift amount (i32 %c) converted to the operand width -> (lines, value)."""
    if ty == "i32":
        return [], c
    op = "zext" if ty == "i64" else "trunc"
    return [f"%cw = {op} i32 {c} to {ty}"], "%cw"


def ir_binop(name, op, ty):
    return fn(name, ty, f"{ty} %a, {ty} %b", [f"%d = {op} {ty} %a, %b", f"ret {ty} %d"])


def ir_not(name, ty):
    allones = "true" if ty == "i1" else "-1"
    return fn(name, ty, f"{ty} %a", [f"%d = xor {ty} %a, {allones}", f"ret {ty} %d"])


def ir_cnot(name, ty):
    # PTX cnot: d = (a == 0) ? 1 : 0
    return fn(name, ty, f"{ty} %a",
              [f"%z = icmp eq {ty} %a, 0", f"%d = zext i1 %z to {ty}", f"ret {ty} %d"])


def lop3_lines(lut, dst="%d"):
    """Sum of products: OR over the minterms m set in lut of
    (a or ~a) & (b or ~b) & (c or ~c), with m = (a<<2)|(b<<1)|c."""
    if lut == 0x00:
        return [f"{dst} = or i32 0, 0"]
    if lut == 0xFF:
        return [f"{dst} = or i32 -1, 0"]
    lines = ["%na = xor i32 %a, -1", "%nb = xor i32 %b, -1", "%nc = xor i32 %c, -1"]
    terms = []
    for m in range(8):
        if not (lut >> m) & 1:
            continue
        x = "%a" if m & 4 else "%na"
        y = "%b" if m & 2 else "%nb"
        z = "%c" if m & 1 else "%nc"
        lines.append(f"%t{m}x = and i32 {x}, {y}")
        lines.append(f"%t{m} = and i32 %t{m}x, {z}")
        terms.append(f"%t{m}")
    acc = terms[0]
    for i, t in enumerate(terms[1:]):
        nxt = dst if i == len(terms) - 2 else f"%s{i}"
        lines.append(f"{nxt} = or i32 {acc}, {t}")
        acc = nxt
    if len(terms) == 1:
        lines.append(f"{dst} = or i32 {acc}, 0")
    return lines


def lop3_pos_lines(lut, dst="%d"):
    """Product of sums: AND over the maxterms m clear in lut of
    (~a or a) | (~b or b) | (~c or c) (the literal that is false at m)."""
    if lut in (0x00, 0xFF):
        return lop3_lines(lut, dst)
    lines = ["%na = xor i32 %a, -1", "%nb = xor i32 %b, -1", "%nc = xor i32 %c, -1"]
    terms = []
    for m in range(8):
        if (lut >> m) & 1:
            continue
        x = "%na" if m & 4 else "%a"
        y = "%nb" if m & 2 else "%b"
        z = "%nc" if m & 1 else "%c"
        lines.append(f"%t{m}x = or i32 {x}, {y}")
        lines.append(f"%t{m} = or i32 %t{m}x, {z}")
        terms.append(f"%t{m}")
    acc = terms[0]
    for i, t in enumerate(terms[1:]):
        nxt = dst if i == len(terms) - 2 else f"%s{i}"
        lines.append(f"{nxt} = and i32 {acc}, {t}")
        acc = nxt
    if len(terms) == 1:
        lines.append(f"{dst} = and i32 {acc}, -1")
    return lines


TT_A, TT_B, TT_C = 0xF0, 0xCC, 0xAA      # PTX ISA lop3: ta, tb, tc


def _min_formulas():
    """Smallest formula (tree) over and/or/xor/not, each gate costing 1, for
    every 3-input truth table.  Fixed-point relaxation; ties are broken by
    the deterministic iteration order, so the output never changes."""
    best = {0x00: (0, ("k", 0x00)), 0xFF: (0, ("k", 0xFF)),
            TT_A: (0, ("v", "%a")), TT_B: (0, ("v", "%b")), TT_C: (0, ("v", "%c"))}
    changed = True
    while changed:
        changed = False
        for t in sorted(best):
            ct = best[t][0]
            n = ~t & 0xFF
            if n not in best or best[n][0] > ct + 1:
                best[n] = (ct + 1, ("not", t))
                changed = True
        keys = sorted(best)
        for t1 in keys:
            for t2 in keys:
                if t2 < t1:
                    continue
                c = best[t1][0] + best[t2][0] + 1
                for op, r in (("and", t1 & t2), ("or", t1 | t2), ("xor", t1 ^ t2)):
                    if r not in best or best[r][0] > c:
                        best[r] = (c, (op, t1, t2))
                        changed = True
    return best


MIN_FORMULA = _min_formulas()


def lop3_formula_lines(lut, dst="%d"):
    """The smallest and/or/xor/not formula for lut (see _min_formulas)."""
    lines, memo = [], {}

    def emit(t):
        kind = MIN_FORMULA[t][1]
        if kind[0] == "v":
            return kind[1]
        if kind[0] == "k":
            return "0" if kind[1] == 0 else "-1"
        if t in memo:
            return memo[t]
        if kind[0] == "not":
            x = emit(kind[1])
            lines.append(f"%f{t:02x} = xor i32 {x}, -1")
        else:
            x, y = emit(kind[1]), emit(kind[2])
            lines.append(f"%f{t:02x} = {kind[0]} i32 {x}, {y}")
        memo[t] = f"%f{t:02x}"
        return memo[t]

    v = emit(lut)
    return lines + [f"{dst} = or i32 {v}, 0"]


LOP3_STYLES = {"sop": lop3_lines, "pos": lop3_pos_lines, "formula": lop3_formula_lines}


def ir_lop3(name, lut, style):
    return fn(name, "i32", "i32 %a, i32 %b, i32 %c",
              LOP3_STYLES[style](lut) + ["ret i32 %d"])


def ir_lop3_pred(name, boolop, style, lut=0x96):
    # lop3.BoolOp.b32 d|p, a, b, c, immLut, q:  d = lut(a,b,c); p = (d != 0) BoolOp q
    lines = LOP3_STYLES[style](lut) + [
        "%nz = icmp ne i32 %d, 0",
        f"%p = {boolop} i1 %nz, %q",
        "%r0 = insertvalue { i32, i1 } poison, i32 %d, 0",
        "%r1 = insertvalue { i32, i1 } %r0, i1 %p, 1",
        "ret { i32, i1 } %r1",
    ]
    return fn(name, "{ i32, i1 }", "i32 %a, i32 %b, i32 %c, i1 %q", lines)


def ir_shf(name, direction, mode, style="i64"):
    args = "i32 %a, i32 %b, i32 %c"
    if mode == "clamp" and style == "select":
        # c >= 32 ? (l: a, r: b) : funnel shift by c (mod 32 == c here)
        intr = "fshl" if direction == "l" else "fshr"
        keep = "%a" if direction == "l" else "%b"
        return fn(name, "i32", args, [
            f"%f = call i32 @llvm.{intr}.i32(i32 %b, i32 %a, i32 %c)",
            "%big = icmp uge i32 %c, 32",
            f"%d = select i1 %big, i32 {keep}, i32 %f",
            "ret i32 %d"])
    if mode == "wrap":
        # n = c & 31; fshl/fshr take the amount modulo 32 themselves.
        intr = "fshl" if direction == "l" else "fshr"
        return fn(name, "i32", args,
                  [f"%d = call i32 @llvm.{intr}.i32(i32 %b, i32 %a, i32 %c)", "ret i32 %d"])
    # clamp: n = umin(c, 32), 64-bit funnel {b,a} done in i64 arithmetic
    lines = [
        "%n = call i32 @llvm.umin.i32(i32 %c, i32 32)",
        "%n64 = zext i32 %n to i64",
        "%hi = zext i32 %b to i64",
        "%lo = zext i32 %a to i64",
        "%hs = shl i64 %hi, 32",
        "%ba = or i64 %hs, %lo",
    ]
    if direction == "l":
        lines += ["%s = shl i64 %ba, %n64", "%u = lshr i64 %s, 32", "%d = trunc i64 %u to i32"]
    else:
        lines += ["%s = lshr i64 %ba, %n64", "%d = trunc i64 %s to i32"]
    return fn(name, "i32", args, lines + ["ret i32 %d"])


def ir_shift(name, kind, bits, style="select"):
    # shl / logical shr: (c >= width) ? 0 : a op c      (c: unsigned i32)
    # arithmetic shr:    a >> umin(c, width - 1)
    ty = WIDTH[bits]
    w = int(bits)
    args = f"{ty} %a, i32 %c"
    if style == "widen":
        # shl / logical shr in twice the width, amount clamped to the width:
        # shifting by exactly `width` in the wide type leaves 0 in the low half.
        wide = WIDTH[str(2 * w)]
        conv, amt = amount(wide, "%m")
        return fn(name, ty, args, [
            f"%m = call i32 @llvm.umin.i32(i32 %c, i32 {w})",
            f"%aw = zext {ty} %a to {wide}",
        ] + conv + [
            f"%s = {kind} {wide} %aw, {amt}",
            f"%d = trunc {wide} %s to {ty}",
            f"ret {ty} %d"])
    if kind == "ashr":
        lines = [f"%m = call i32 @llvm.umin.i32(i32 %c, i32 {w - 1})"]
        conv, amt = amount(ty, "%m")
        lines += conv + [f"%d = ashr {ty} %a, {amt}", f"ret {ty} %d"]
        return fn(name, ty, args, lines)
    conv, amt = amount(ty)
    lines = conv + [
        f"%s = {kind} {ty} %a, {amt}",
        f"%big = icmp uge i32 %c, {w}",
        f"%d = select i1 %big, {ty} 0, {ty} %s",
        f"ret {ty} %d",
    ]
    return fn(name, ty, args, lines)


# --------------------------------------------------------------------------
# Bit manipulation: prmt (PTX ISA 9.7.9.7) and bfe bfi brev popc clz bfind
# fns bmsk szext (9.7.1).  The semantics follow semantics/ptx_semantics_bits.cpp
# (the spec); model_* below is a Python port of it, used by --check.
# All operands are registers (function arguments).  Value names: inputs %a %b
# %c (%pos %len for bfi), result %d.
# --------------------------------------------------------------------------

# prmt mode tables, one row per c[1:0]; a row lists the byte indices of
# d.b3 d.b2 d.b1 d.b0 (bytes of {b,a}: a = 0..3, b = 4..7).
PRMT_ROWS = {
    "f4e": [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
    "b4e": [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
    "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    "ecl": [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
    "ecr": [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
    "rc16": [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
}


def _ab_vector(L):
    """{b,a} as <8 x i8> (element k = byte k; little-endian on every target)."""
    L += ["%v0 = insertelement <2 x i32> poison, i32 %a, i32 0",
          "%v1 = insertelement <2 x i32> %v0, i32 %b, i32 1",
          "%x = bitcast <2 x i32> %v1 to <8 x i8>"]


def _ab_i64(L):
    L += ["%al = zext i32 %a to i64", "%bh = zext i32 %b to i64",
          "%bs = shl i64 %bh, 32", "%x = or i64 %bs, %al"]


def ir_prmt(name, style):
    """Default mode: nibble i of c selects byte c[4i+2:4i] of {b,a} for d.bi;
    if c[4i+3] is set, d.bi is that byte's sign bit replicated.
    i64shift: shift the 64-bit {b,a}; vector: extractelement of <8 x i8>;
    word: pick a or b with selector bit 2, then a 32-bit shift."""
    L = []
    if style == "i64shift":
        _ab_i64(L)
    elif style == "vector":
        _ab_vector(L)
    for i in range(4):
        n = "%c" if i == 0 else f"%n{i}"
        if i:
            L.append(f"%n{i} = lshr i32 %c, {4 * i}")
        if style == "i64shift":
            L += [f"%s{i} = and i32 {n}, 7", f"%k{i} = shl nuw nsw i32 %s{i}, 3",
                  f"%kw{i} = zext i32 %k{i} to i64", f"%y{i} = lshr i64 %x, %kw{i}",
                  f"%t{i} = trunc i64 %y{i} to i8"]
        elif style == "vector":
            L += [f"%s{i} = and i32 {n}, 7", f"%t{i} = extractelement <8 x i8> %x, i32 %s{i}"]
        else:  # word
            L += [f"%h{i} = and i32 {n}, 4", f"%ib{i} = icmp ne i32 %h{i}, 0",
                  f"%w{i} = select i1 %ib{i}, i32 %b, i32 %a", f"%q{i} = and i32 {n}, 3",
                  f"%k{i} = shl nuw nsw i32 %q{i}, 3", f"%y{i} = lshr i32 %w{i}, %k{i}",
                  f"%t{i} = trunc i32 %y{i} to i8"]
        L += [f"%g{i} = ashr i8 %t{i}, 7", f"%m{i} = and i32 {n}, 8", f"%f{i} = icmp ne i32 %m{i}, 0",
              f"%e{i} = select i1 %f{i}, i8 %g{i}, i8 %t{i}"]
    if style == "vector":
        prev = "poison"
        for i in range(4):
            L.append(f"%o{i} = insertelement <4 x i8> {prev}, i8 %e{i}, i32 {i}")
            prev = f"%o{i}"
        L.append("%d = bitcast <4 x i8> %o3 to i32")
    else:
        for i in range(4):
            L.append(f"%z{i} = zext i8 %e{i} to i32")
            L.append(f"%p{i} = shl nuw i32 %z{i}, {8 * i}" if i else f"%p0 = or i32 %z0, 0")
        L += ["%u0 = or i32 %p0, %p1", "%u1 = or i32 %p2, %p3", "%d = or i32 %u0, %u1"]
    return fn(name, "i32", "i32 %a, i32 %b, i32 %c", L + ["ret i32 %d"])


def ir_prmt_mode(name, mode, style):
    """Mode forms: row r = c & 3 of PRMT_ROWS[mode].
    rows: the four constant byte shuffles, then a select on r;
    arith: a closed form per mode (funnel shift, bswap+rotate, replicate, masks)."""
    L = ["%r = and i32 %c, 3"]
    if style == "rows":
        _ab_vector(L)
        for r, row in enumerate(PRMT_ROWS[mode]):
            mask = ", ".join(f"i32 {row[3 - i]}" for i in range(4))
            L += [f"%R{r}v = shufflevector <8 x i8> %x, <8 x i8> poison, <4 x i32> <{mask}>",
                  f"%R{r} = bitcast <4 x i8> %R{r}v to i32"]
        L += ["%is0 = icmp eq i32 %r, 0", "%is1 = icmp eq i32 %r, 1", "%is2 = icmp eq i32 %r, 2",
              "%s2 = select i1 %is2, i32 %R2, i32 %R3", "%s1 = select i1 %is1, i32 %R1, i32 %s2",
              "%d = select i1 %is0, i32 %R0, i32 %s1"]
        return fn(name, "i32", "i32 %a, i32 %b, i32 %c", L + ["ret i32 %d"])
    L.append("%k = shl nuw nsw i32 %r, 3")
    rep = ["%y = lshr i32 %a, %k", "%z = and i32 %y, 255", "%rep = mul i32 %z, 16843009"]
    if mode == "f4e":      # low 32 bits of {b,a} >> 8r
        L += ["%d = call i32 @llvm.fshr.i32(i32 %b, i32 %a, i32 %k)"]
    elif mode == "b4e":    # d.bi = byte (r - i) mod 8: rotate the byte-reversed {b,a}
        _ab_i64(L)
        L += ["%rv = call i64 @llvm.bswap.i64(i64 %x)", "%amt = sub nuw nsw i32 56, %k",
              "%amtw = zext i32 %amt to i64",
              "%rot = call i64 @llvm.fshr.i64(i64 %rv, i64 %rv, i64 %amtw)", "%d = trunc i64 %rot to i32"]
    elif mode == "rc8":    # byte r of a, replicated
        L += rep[:2] + ["%d = mul i32 %z, 16843009"]
    elif mode == "ecl":    # d.bi = a.byte[max(i, r)]
        L += rep + ["%hm = shl i32 -1, %k", "%nh = xor i32 %hm, -1", "%q1 = and i32 %a, %hm",
                    "%q2 = and i32 %rep, %nh", "%d = or i32 %q1, %q2"]
    elif mode == "ecr":    # d.bi = a.byte[min(i, r)]
        L += rep + ["%k2 = sub nuw nsw i32 24, %k", "%lm = lshr i32 -1, %k2", "%nl = xor i32 %lm, -1",
                    "%q1 = and i32 %a, %lm", "%q2 = and i32 %rep, %nl", "%d = or i32 %q1, %q2"]
    elif mode == "rc16":   # half-word c[0] of a, replicated
        L = ["%h = and i32 %c, 1", "%k = shl nuw nsw i32 %h, 4", "%y = lshr i32 %a, %k",
             "%z = and i32 %y, 65535", "%d = mul i32 %z, 65537"]
    return fn(name, "i32", "i32 %a, i32 %b, i32 %c", L + ["ret i32 %d"])


def _wide(W, v, nm):
    """An i32 value used as an amount in a W-bit operation -> (lines, value)."""
    return ([], v) if W == 32 else ([f"{nm} = zext i32 {v} to i64"], nm)


def _posw(W, L, p_in, l_in):
    """8-bit pos/len for the 32-bit forms, all 32 bits for the 64-bit forms."""
    if W == 32:
        L += [f"%p = and i32 {p_in}, 255", f"%l = and i32 {l_in}, 255"]
        return "%p", "%l"
    return p_in, l_in


def ir_bfe(name, signed, bits, style):
    """bfe d, a, pos(b), len(c).  mask: (a >> pos) & lowmask, plus the sign fill
    above the field for .s; shifts: (a << s) >> (s + pos), s = W - pos - count."""
    ty, W = WIDTH[bits], int(bits)
    L = []
    p, l = _posw(W, L, "%b", "%c")
    umin = lambda d, x, y: f"{d} = call i32 @llvm.umin.i32(i32 {x}, i32 {y})"
    if style == "shifts":
        # count = umin(len, W - umin(pos, W)); s = W - pos - count (>= 0); the
        # field is (a << s) >> (W - count); for .s with pos >= W: a >>s (W-1).
        L += [umin("%pc", p, W), f"%room = sub nuw nsw i32 {W}, %pc", umin("%cnt", l, "%room"),
              "%s = sub nuw nsw i32 %room, %cnt", f"%sp = sub nuw nsw i32 {W}, %cnt"]
        ls, s = _wide(W, "%s", "%sw")
        L += ls + [f"%t = shl {ty} %a, {s}"]
        if signed:
            L.append(umin("%spc", "%sp", W - 1))
            ls, sp = _wide(W, "%spc", "%spw")
            L += ls + [f"%u = ashr {ty} %t, {sp}", f"%z = icmp eq i32 {l}, 0"]
        else:
            ls, sp = _wide(W, "%sp", "%spw")
            L += ls + [f"%u = lshr {ty} %t, {sp}", "%z = icmp eq i32 %cnt, 0"]
        L += [f"%d = select i1 %z, {ty} 0, {ty} %u"]
        return fn(name, ty, f"{ty} %a, i32 %b, i32 %c", L + [f"ret {ty} %d"])
    # mask
    ls, pw = _wide(W, p, "%pw")
    L += [f"%pbig = icmp uge i32 {p}, {W}"] + ls + [
        f"%sh = lshr {ty} %a, {pw}", f"%f = select i1 %pbig, {ty} 0, {ty} %sh"]
    if not signed:
        ls, lw = _wide(W, l, "%lw")
        L += [f"%lbig = icmp uge i32 {l}, {W}"] + ls + [
            f"%one = shl {ty} 1, {lw}", f"%m1 = add {ty} %one, -1",
            f"%mask = select i1 %lbig, {ty} -1, {ty} %m1", f"%d = and {ty} %f, %mask"]
        return fn(name, ty, f"{ty} %a, i32 %b, i32 %c", L + [f"ret {ty} %d"])
    ls, cw = _wide(W, "%cnt", "%cw")
    L += [umin("%pc", p, W), f"%room = sub nuw nsw i32 {W}, %pc", umin("%cnt", l, "%room"),
          f"%cbig = icmp eq i32 %cnt, {W}"] + ls + [
        f"%one = shl {ty} 1, {cw}", f"%m1 = add {ty} %one, -1",
        f"%mask = select i1 %cbig, {ty} -1, {ty} %m1", f"%field = and {ty} %f, %mask",
        # sign bit: pos + count - 1 (W - 1 when pos >= W); none when len == 0
        "%si0 = add nuw nsw i32 %pc, %cnt", "%si = add i32 %si0, -1"]
    ls, siw = _wide(W, "%si", "%siw")
    L += ls + [f"%sb = lshr {ty} %a, {siw}", f"%sbit = and {ty} %sb, 1", f"%neg = sub {ty} 0, %sbit",
               f"%nm = xor {ty} %mask, -1", f"%ext = and {ty} %neg, %nm", f"%r = or {ty} %field, %ext",
               f"%z = icmp eq i32 {l}, 0", f"%d = select i1 %z, {ty} 0, {ty} %r"]
    return fn(name, ty, f"{ty} %a, i32 %b, i32 %c", L + [f"ret {ty} %d"])


def ir_bfi(name, bits, style):
    """bfi d, a, b, pos, len: insert the low len bits of a into b at pos; bits past
    the msb are dropped.  select: m = lowmask(len) << pos in W bits, pos >= W -> b;
    lshrmask: lowmask as -1 >> (W - umin(len, W)); wide (.b32): the masks in i64."""
    ty, W = WIDTH[bits], int(bits)
    L = []
    p, l = _posw(W, L, "%pos", "%len")
    umin = lambda d, x, y: f"{d} = call i32 @llvm.umin.i32(i32 {x}, i32 {y})"
    tail = [f"%nm = xor {ty} %m, -1", f"%keep = and {ty} %b, %nm", f"%ins = and {ty} %as, %m",
            f"%r = or {ty} %keep, %ins"]
    if style == "wide":
        L += [umin("%lc", l, 32), umin("%pc", p, 32), "%lc64 = zext i32 %lc to i64",
              "%pc64 = zext i32 %pc to i64", "%one = shl nuw i64 1, %lc64", "%lm = add i64 %one, -1",
              "%m64 = shl i64 %lm, %pc64", "%m = trunc i64 %m64 to i32", "%a64 = zext i32 %a to i64",
              "%as64 = shl i64 %a64, %pc64", "%as = trunc i64 %as64 to i32"] + tail + ["%d = or i32 %r, 0"]
        return fn(name, ty, f"{ty} %a, {ty} %b, i32 %pos, i32 %len", L + [f"ret {ty} %d"])
    if style == "select":
        ls, lw = _wide(W, l, "%lw")
        L += [f"%lbig = icmp uge i32 {l}, {W}"] + ls + [
            f"%one = shl {ty} 1, {lw}", f"%m1 = add {ty} %one, -1", f"%lm = select i1 %lbig, {ty} -1, {ty} %m1"]
    else:  # lshrmask
        L += [umin("%lc", l, W), f"%inv = sub nuw nsw i32 {W}, %lc", "%lz = icmp eq i32 %lc, 0"]
        ls, iw = _wide(W, "%inv", "%iw")
        L += ls + [f"%m1 = lshr {ty} -1, {iw}", f"%lm = select i1 %lz, {ty} 0, {ty} %m1"]
    ls, pw = _wide(W, p, "%pw")
    L += [f"%pbig = icmp uge i32 {p}, {W}"] + ls + [f"%m = shl {ty} %lm, {pw}", f"%as = shl {ty} %a, {pw}"]
    L += tail + [f"%d = select i1 %pbig, {ty} %b, {ty} %r"]
    return fn(name, ty, f"{ty} %a, {ty} %b, i32 %pos, i32 %len", L + [f"ret {ty} %d"])


def ir_unary_intr(name, intr, bits, extra=""):
    """brev / popc / clz: one intrinsic; popc and clz return .u32 (trunc for .b64)."""
    ty = WIDTH[bits]
    L = [f"%r = call {ty} @llvm.{intr}.{ty}({ty} %a{extra})"]
    if intr == "bitreverse":
        return fn(name, ty, f"{ty} %a", L + [f"ret {ty} %r"])
    L += ["%d = trunc i64 %r to i32" if ty == "i64" else "%d = or i32 %r, 0", "ret i32 %d"]
    return fn(name, "i32", f"{ty} %a", L)


def ir_bfind(name, signed, shiftamt, bits, style):
    """bfind: msb position of x (x = a, or ~a when .s and a < 0); .shiftamt gives
    W-1 - position; 0xffffffff when x == 0.  style = [inv_]zero:
    inv (.s only) xor = a ^ (a >>s W-1) / sel = a < 0 ? ~a : a;
    zero select = x == 0 ? -1 : f(ctlz(x, true)); arith = W-1 - ctlz(x, false) (-1 for x == 0
    by itself) or, for .shiftamt, ctlz(x, false) | sext(x == 0)."""
    ty, W = WIDTH[bits], int(bits)
    inv, zero = style.split("_") if signed else (None, style)
    L, x = [], "%a"
    if inv == "xor":
        L += [f"%sg = ashr {ty} %a, {W - 1}", f"%x = xor {ty} %a, %sg"]
        x = "%x"
    elif inv == "sel":
        L += [f"%neg = icmp slt {ty} %a, 0", f"%na = xor {ty} %a, -1", f"%x = select i1 %neg, {ty} %na, {ty} %a"]
        x = "%x"
    poison = "true" if zero == "select" else "false"
    L += [f"%lzw = call {ty} @llvm.ctlz.{ty}({ty} {x}, i1 {poison})",
          "%lz = trunc i64 %lzw to i32" if ty == "i64" else "%lz = or i32 %lzw, 0"]
    if zero == "select":
        val = "%lz" if shiftamt else "%pos"
        if not shiftamt:
            L.append(f"%pos = sub nuw nsw i32 {W - 1}, %lz")
        L += [f"%z = icmp eq {ty} {x}, 0", f"%d = select i1 %z, i32 -1, i32 {val}"]
    elif shiftamt:
        L += [f"%z = icmp eq {ty} {x}, 0", "%zm = sext i1 %z to i32", "%d = or i32 %lz, %zm"]
    else:
        L += [f"%d = sub i32 {W - 1}, %lz"]
    return fn(name, "i32", f"{ty} %a", L + ["ret i32 %d"])


def _fns_common(L):
    """b5 = base & 31 (the base <= 31 precondition), the offset == 0 answer,
    up = mask bits >= base, down = mask bits <= base."""
    L += ["%b5 = and i32 %b, 31", "%bit1 = shl nuw i32 1, %b5", "%bit = and i32 %a, %bit1",
          "%set = icmp ne i32 %bit, 0", "%atbase = select i1 %set, i32 %b5, i32 -1",
          "%hm = shl i32 -1, %b5", "%up = and i32 %a, %hm",
          "%lm1 = shl i32 2, %b5", "%lm = add i32 %lm1, -1", "%down = and i32 %a, %lm",
          "%zero = icmp eq i32 %c, 0", "%posv = icmp sgt i32 %c, 0"]


def _fns_rank(L):
    """x = up or down; k = the 1-based rank of the wanted bit from the bottom of x
    (offset, or popc(down) + 1 + offset for a negative offset); valid iff 1 <= k <= popc(x)."""
    L += ["%x = select i1 %posv, i32 %up, i32 %down", "%pc = call i32 @llvm.ctpop.i32(i32 %x)",
          "%k0 = add nuw nsw i32 %pc, 1", "%kn = add i32 %k0, %c", "%k = select i1 %posv, i32 %c, i32 %kn",
          "%km1 = add i32 %k, -1", "%valid = icmp ult i32 %km1, %pc"]


def ir_fns(name, style):
    """fns d, mask(a), base(b), offset(c).
    chain: the spec's bit-by-bit select chains (a running popcount per bit);
    search: rank k (see _fns_rank), then a 5-step binary search with ctpop;
    loop: clear the lowest set bit k-1 times, then cttz (a loop: llc's static count,
    not comparable with straight-line code, so it is not in the minimum)."""
    L = []
    _fns_common(L)
    if style == "chain":
        L += ["%m = sub i32 0, %c"]
        for dirn, src, want, order in (("u", "%up", "%c", range(32)), ("w", "%down", "%m", range(31, -1, -1))):
            cnt, res = "0", "-1"
            for pos in order:
                L += [f"%{dirn}s{pos} = lshr i32 {src}, {pos}", f"%{dirn}b{pos} = and i32 %{dirn}s{pos}, 1",
                      f"%{dirn}c{pos} = add i32 {cnt}, %{dirn}b{pos}", f"%{dirn}e{pos} = icmp eq i32 %{dirn}c{pos}, {want}",
                      f"%{dirn}t{pos} = icmp ne i32 %{dirn}b{pos}, 0", f"%{dirn}h{pos} = and i1 %{dirn}t{pos}, %{dirn}e{pos}",
                      f"%{dirn}r{pos} = select i1 %{dirn}h{pos}, i32 {pos}, i32 {res}"]
                cnt, res = f"%{dirn}c{pos}", f"%{dirn}r{pos}"
            L.append(f"%{dirn}res = or i32 {res}, 0")
        L += ["%nz = select i1 %posv, i32 %ures, i32 %wres", "%d = select i1 %zero, i32 %atbase, i32 %nz",
              "ret i32 %d"]
        return fn(name, "i32", "i32 %a, i32 %b, i32 %c", L)
    _fns_rank(L)
    if style == "search":
        p, r = "0", "%k"
        for i, s in enumerate((16, 8, 4, 2, 1)):
            xs = "%x" if p == "0" else f"%xs{i}"
            if p != "0":
                L.append(f"%xs{i} = lshr i32 %x, {p}")
            L += [f"%lo{i} = and i32 {xs}, {(1 << s) - 1}", f"%cn{i} = call i32 @llvm.ctpop.i32(i32 %lo{i})",
                  f"%go{i} = icmp ult i32 %cn{i}, {r}", f"%rs{i} = sub i32 {r}, %cn{i}",
                  f"%r{i} = select i1 %go{i}, i32 %rs{i}, i32 {r}", f"%ps{i} = add nuw nsw i32 {p}, {s}",
                  f"%p{i} = select i1 %go{i}, i32 %ps{i}, i32 {p}"]
            p, r = f"%p{i}", f"%r{i}"
        L += [f"%res = select i1 %valid, i32 {p}, i32 -1", "%d = select i1 %zero, i32 %atbase, i32 %res",
              "ret i32 %d"]
        return fn(name, "i32", "i32 %a, i32 %b, i32 %c", L)
    # loop
    L = ["entry:"] + L + ["br i1 %valid, label %head, label %done",
          "head:",
          "%xi = phi i32 [ %x, %entry ], [ %xn, %body ]",
          "%i = phi i32 [ %km1, %entry ], [ %inext, %body ]",
          "%fin = icmp eq i32 %i, 0",
          "br i1 %fin, label %found, label %body",
          "body:",
          "%xm = add i32 %xi, -1", "%xn = and i32 %xi, %xm", "%inext = add i32 %i, -1",
          "br label %head",
          "found:",
          "%tz = call i32 @llvm.cttz.i32(i32 %xi, i1 true)",
          "br label %done",
          "done:",
          "%res = phi i32 [ -1, %entry ], [ %tz, %found ]",
          "%d = select i1 %zero, i32 %atbase, i32 %res",
          "ret i32 %d"]
    return fn(name, "i32", "i32 %a, i32 %b, i32 %c", L)


def ir_bmsk(name, clamp, style):
    """bmsk d, a(pos), b(width): bits [pos, pos + width) clipped at 31.
    select: (-1 << a) & ~(a + b >= 32 ? 0 : -1 << (a + b)) with a, b & 31; .clamp:
    a >= 32 -> 0, b >= 32 -> -1 << a.  bfm: lowmask(umin(b, 32 - a)) << a
    (in i64 for .clamp, where the width can reach 32)."""
    L = ["%a1 = and i32 %a, 31", "%b1 = and i32 %b, 31"]
    if style == "select":
        L += ["%sum = add nuw nsw i32 %a1, %b1", "%lo = shl i32 -1, %a1", "%sbig = icmp uge i32 %sum, 32",
              "%hi0 = shl i32 -1, %sum", "%hi = select i1 %sbig, i32 0, i32 %hi0", "%nhi = xor i32 %hi, -1",
              "%r = and i32 %lo, %nhi"]
        if clamp:
            L += ["%abig = icmp uge i32 %a, 32", "%bbig = icmp uge i32 %b, 32",
                  "%r2 = select i1 %bbig, i32 %lo, i32 %r", "%d = select i1 %abig, i32 0, i32 %r2"]
        else:
            L += ["%d = or i32 %r, 0"]
    elif not clamp:
        L += ["%room = sub nuw nsw i32 32, %a1", "%len = call i32 @llvm.umin.i32(i32 %b1, i32 %room)",
              "%one = shl nuw i32 1, %len", "%lm = add i32 %one, -1", "%d = shl i32 %lm, %a1"]
    else:
        L += ["%abig = icmp uge i32 %a, 32", "%room = sub i32 32, %a1",
              "%len = call i32 @llvm.umin.i32(i32 %b, i32 %room)", "%len64 = zext i32 %len to i64",
              "%one = shl nuw i64 1, %len64", "%lm64 = add i64 %one, -1", "%lm = trunc i64 %lm64 to i32",
              "%m = shl i32 %lm, %a1", "%d = select i1 %abig, i32 0, i32 %m"]
    return fn(name, "i32", "i32 %a, i32 %b", L + ["ret i32 %d"])


def ir_szext(name, clamp, signed, style):
    """szext d, a, b: the low n bits of a, zero/sign-extended; n = b & 31 (.wrap;
    n = 0 gives 0) or umin(b, 32) (.clamp).  mask: (a & ~(-1 << n)) | sign fill;
    shifts: (a << (32 - n)) >> (32 - n), lshr or ashr."""
    L = []
    sh = "ashr" if signed else "lshr"
    if style == "shifts":
        if clamp:
            L += ["%n = call i32 @llvm.umin.i32(i32 %b, i32 32)"]
        else:
            L += ["%n = and i32 %b, 31"]
        L += ["%s = sub nuw nsw i32 32, %n", "%t = shl i32 %a, %s", f"%u = {sh} i32 %t, %s",
              "%z = icmp eq i32 %n, 0", "%d = select i1 %z, i32 0, i32 %u"]
        return fn(name, "i32", "i32 %a, i32 %b", L + ["ret i32 %d"])
    n = "%b" if clamp else "%n"
    if not clamp:
        L += ["%n = and i32 %b, 31"]
    L += [f"%hm = shl i32 -1, {n}", "%lm = xor i32 %hm, -1", "%low = and i32 %a, %lm"]
    if signed:
        L += [f"%sp = add i32 {n}, -1", "%sb = lshr i32 %a, %sp", "%sbit = and i32 %sb, 1",
              "%neg = sub i32 0, %sbit", "%fill = and i32 %neg, %hm", "%v = or i32 %low, %fill",
              f"%z = icmp eq i32 {n}, 0", "%r = select i1 %z, i32 0, i32 %v"]
    else:
        L += ["%r = or i32 %low, 0"]
    if clamp:
        L += ["%big = icmp uge i32 %b, 32", "%d = select i1 %big, i32 %a, i32 %r"]
    else:
        L += ["%d = or i32 %r, 0"]
    return fn(name, "i32", "i32 %a, i32 %b", L + ["ret i32 %d"])


# --------------------------------------------------------------------------
# Python model of semantics/ptx_semantics_bits.cpp, for --check.  BV shifts by
# >= the width give 0 there, as _shl/_lshr do here.
# --------------------------------------------------------------------------

def _mask(w):
    return (1 << w) - 1


def _shl(x, n, w):
    return (x << n) & _mask(w) if n < w else 0


def _lshr(x, n, w):
    return x >> n if n < w else 0


def _low_mask(n, w):
    """The low n bits set, n <= w (the BV lowMask: (1 << n) - 1 mod 2^w)."""
    return (_shl(1, n, w) - 1) & _mask(w)


def _bit(x, i):
    return (x >> i) & 1


def model_prmt(mode, a, b, c):
    byts = [(((b << 32) | a) >> (8 * k)) & 0xFF for k in range(8)]
    out = []
    for i in range(4):
        if mode is None:
            nib = (c >> (4 * i)) & 0xF
            ch = byts[nib & 7]
            out.append((0xFF if ch & 0x80 else 0) if nib & 8 else ch)
        else:
            out.append(byts[PRMT_ROWS[mode][c & 3][3 - i]])
    return out[0] | out[1] << 8 | out[2] << 16 | out[3] << 24


def model_bfe(signed, w, a, b, c):
    pos = b & 0xFF if w == 32 else b
    ln = c & 0xFF if w == 32 else c
    count = 0 if w <= pos else min(ln, w - pos)
    mask = _low_mask(count, w)
    field = _lshr(a, pos, w) & mask
    if not signed:
        return field
    sign_index = min((pos + ln - 1) & _mask(64), w - 1)
    sbit = 0 if ln == 0 else _bit(a, sign_index)
    return field | ((_mask(w) if sbit else 0) & ~mask & _mask(w))


def model_bfi(w, a, b, c, d):
    pos = c & 0xFF if w == 32 else c
    ln = d & 0xFF if w == 32 else d
    count = min(ln, w)
    m = _shl(_low_mask(count, w), pos, w)
    return (b & ~m & _mask(w)) | (_shl(a, pos, w) & m)


def model_brev(w, a):
    return int(format(a, f"0{w}b")[::-1], 2)


def model_popc(w, a):
    return bin(a).count("1")


def model_clz(w, a):
    return w - a.bit_length()


def model_bfind(signed, shiftamt, w, a):
    if signed and _bit(a, w - 1):
        a = ~a & _mask(w)
    if a == 0:
        return 0xFFFFFFFF
    i = a.bit_length() - 1
    return w - 1 - i if shiftamt else i


def model_fns(mask, base, offset):
    not_found = 0xFFFFFFFF
    base5 = base & 31
    off = offset - (1 << 32) if offset & 0x80000000 else offset     # signed view
    if off == 0:
        return base if _bit(mask, base5) else not_found
    if off > 0:
        up = mask & _shl(0xFFFFFFFF, base5, 32)
        cnt = 0
        for pos in range(32):
            if _bit(up, pos):
                cnt += 1
                if cnt == off:
                    return pos
        return not_found
    down = mask & ((_shl(2, base5, 32) - 1) & 0xFFFFFFFF)
    m = (-offset) & 0xFFFFFFFF
    cnt = 0
    for pos in range(31, -1, -1):
        if _bit(down, pos):
            cnt += 1
            if cnt == m:
                return pos
    return not_found


def model_bmsk(clamp, a, b):
    a1, b1 = a & 31, b & 31
    s = a1 + b1
    ones = 0xFFFFFFFF
    pos_ovf = clamp and a >= 32
    width_ovf = clamp and b >= 32
    mask0 = 0 if pos_ovf else _shl(ones, a1, 32)
    mask1 = 0 if (s >= 32 or pos_ovf or width_ovf) else (ones if b1 == 0 else _shl(ones, s, 32))
    return mask0 & ~mask1 & ones


def model_szext(clamp, signed, a, b):
    b1 = b & 31
    too_large = clamp and b >= 32
    mask = 0 if too_large else _shl(0xFFFFFFFF, b1, 32)
    sign_pos = (b1 - 1) & 31
    sbit = signed and not (b1 == 0 or too_large) and _bit(a, sign_pos)
    return (a & ~mask & 0xFFFFFFFF) | ((0xFFFFFFFF if sbit else 0) & mask)


# Values measured on NVIDIA hardware (and the PTX ISA examples): the model must
# reproduce them before it is trusted to judge the IR.
MODEL_VECTORS = [
    ("prmt.b32", lambda: model_prmt(None, 0x70c507d6, 0x6fbd4b5c, 0x7604), 0x6fbdd65c),
    ("prmt.b32", lambda: model_prmt(None, 0x0100FE80, 0, 0x0A08), 0x800080FF),
    ("bfe.u32", lambda: model_bfe(False, 32, 0xF8C122A0, 16, 8), 0xC1),
    ("bfi.b32", lambda: model_bfi(32, 2, 5, 0, 2), 6),
    ("brev.b32", lambda: model_brev(32, 0xC75CAEFB), 0xDF753AE3),
    ("popc.b32", lambda: model_popc(32, 0xBC92498A), 14),
    ("popc.b64", lambda: model_popc(64, 0x99427D688BCB5258), 30),
    ("clz.b32", lambda: model_clz(32, 0x052D13AB), 5),
    ("bfind.shiftamt.u32", lambda: model_bfind(False, True, 32, 0), 0xFFFFFFFF),
    ("bfind.shiftamt.u32", lambda: model_bfind(False, True, 32, 0xFFFFFFFF), 0),
    ("bfind.shiftamt.u32", lambda: model_bfind(False, True, 32, 0x2CD1A4C1), 2),
    ("bmsk.clamp.b32", lambda: model_bmsk(True, 24, 12), 0xFF000000),
    ("fns.b32", lambda: model_fns(0xaaaaaaaa, 3, 1), 3),
    ("fns.b32", lambda: model_fns(0xaaaaaaaa, 3, 0xFFFFFFFF), 3),
    ("fns.b32", lambda: model_fns(0xaaaaaaaa, 2, 1), 3),
    ("fns.b32", lambda: model_fns(0xaaaaaaaa, 2, 0xFFFFFFFF), 1),
]


# The bit-manipulation forms: (form, arg widths, result width, model(*args),
# input kinds, [(formulation, builder)]).  Input kinds: "v32"/"v64" values,
# "a32"/"a64" shift-like amounts (pos/len/width; a32 also has bits above 0xff),
# "sel" prmt selectors, "base" (0..31, the fns precondition), "off" fns offsets.
def bits_forms():
    out = []

    def add(form, args, ret, model, kinds, variants):
        out.append((form, args, ret, model, kinds, variants))

    add("prmt.b32", [32, 32, 32], 32, lambda a, b, c: model_prmt(None, a, b, c), ["v32", "v32", "sel"],
        [(st, lambda n, st=st: ir_prmt(n, st)) for st in ("i64shift", "vector", "word")])
    for mode in PRMT_ROWS:
        add(f"prmt.b32.{mode}", [32, 32, 32], 32, lambda a, b, c, m=mode: model_prmt(m, a, b, c),
            ["v32", "v32", "sel"],
            [(st, lambda n, m=mode, st=st: ir_prmt_mode(n, m, st)) for st in ("rows", "arith")])
    for bits in ("32", "64"):
        for sg in ("u", "s"):
            w = int(bits)
            add(f"bfe.{sg}{bits}", [w, 32, 32], w, lambda a, b, c, s=sg == "s", w=w: model_bfe(s, w, a, b, c),
                [f"v{bits}", f"a{bits}", f"a{bits}"],
                [(st, lambda n, s=sg == "s", b=bits, st=st: ir_bfe(n, s, b, st)) for st in ("mask", "shifts")])
    for bits in ("32", "64"):
        w = int(bits)
        styles = ("select", "lshrmask", "wide") if w == 32 else ("select", "lshrmask")
        add(f"bfi.b{bits}", [w, w, 32, 32], w, lambda a, b, c, d, w=w: model_bfi(w, a, b, c, d),
            [f"v{bits}", f"v{bits}", f"a{bits}", f"a{bits}"],
            [(st, lambda n, b=bits, st=st: ir_bfi(n, b, st)) for st in styles])
    for op, intr, model, extra, rw in (("brev", "bitreverse", model_brev, "", None),
                                       ("popc", "ctpop", model_popc, "", 32),
                                       ("clz", "ctlz", model_clz, ", i1 false", 32)):
        for bits in ("32", "64"):
            w = int(bits)
            add(f"{op}.b{bits}", [w], rw or w, lambda a, m=model, w=w: m(w, a), [f"v{bits}"],
                [("ir", lambda n, i=intr, b=bits, e=extra: ir_unary_intr(n, i, b, e))])
    for sa in (False, True):
        for bits in ("32", "64"):
            for sg in ("u", "s"):
                w, s = int(bits), sg == "s"
                styles = [f"{i}_{z}" for i in ("xor", "sel") for z in ("select", "arith")] if s \
                    else ["select", "arith"]
                add(f"bfind.{'shiftamt.' if sa else ''}{sg}{bits}", [w], 32,
                    lambda a, s=s, sa=sa, w=w: model_bfind(s, sa, w, a), [f"v{bits}"],
                    [(st, lambda n, s=s, sa=sa, b=bits, st=st: ir_bfind(n, s, sa, b, st)) for st in styles])
    add("fns.b32", [32, 32, 32], 32, model_fns, ["v32", "base", "off"],
        [(st, lambda n, st=st: ir_fns(n, st)) for st in ("chain", "search", "loop")])
    for clamp in (True, False):
        add(f"bmsk.{'clamp' if clamp else 'wrap'}.b32", [32, 32], 32, lambda a, b, c=clamp: model_bmsk(c, a, b),
            ["a32", "a32"], [(st, lambda n, c=clamp, st=st: ir_bmsk(n, c, st)) for st in ("select", "bfm")])
    for clamp in (True, False):
        for sg in ("u", "s"):
            add(f"szext.{'clamp' if clamp else 'wrap'}.{sg}32", [32, 32], 32,
                lambda a, b, c=clamp, s=sg == "s": model_szext(c, s, a, b), ["v32", "a32"],
                [(st, lambda n, c=clamp, s=sg == "s", st=st: ir_szext(n, c, s, st)) for st in ("mask", "shifts")])
    return out


# Formulations compiled and recorded, but left out of the minimum in "targets":
# a loop's static instruction count is not comparable with straight-line code.
NOT_IN_MIN = {("fns.b32", "loop")}


_INTRINSIC_SIG = {"fshl": 3, "fshr": 3, "umin": 2, "bswap": 1, "bitreverse": 1, "ctpop": 1,
                  "ctlz": "poison", "cttz": "poison"}


def intrinsic_decls(text):
    """Declarations for the llvm.* intrinsics that text calls, sorted by name."""
    out = []
    for name in sorted(set(re.findall(r"@llvm\.(\w+)\.(i\d+)\(", text))):
        op, ty = name
        n = _INTRINSIC_SIG[op]
        params = f"{ty}, i1" if n == "poison" else ", ".join([ty] * n)
        out.append(f"declare {ty} @llvm.{op}.{ty}({params})\n")
    return out


def forms():
    """Ordered list of (ptx_form, [(formulation, builder(ir_name) -> IR text), ...])."""
    out = []

    def one(form, build):
        out.append((form, [("ir", build)]))

    for op in ("and", "or", "xor"):
        for bits in ("16", "32", "64"):
            one(f"{op}.b{bits}", lambda n, op=op, t=WIDTH[bits]: ir_binop(n, op, t))
        one(f"{op}.pred", lambda n, op=op: ir_binop(n, op, "i1"))
    for bits in ("16", "32", "64"):
        one(f"not.b{bits}", lambda n, t=WIDTH[bits]: ir_not(n, t))
    one("not.pred", lambda n: ir_not(n, "i1"))
    for bits in ("16", "32", "64"):
        one(f"cnot.b{bits}", lambda n, t=WIDTH[bits]: ir_cnot(n, t))
    for boolop in ("and", "or"):
        out.append((f"lop3.{boolop}.b32",
                    [(st, lambda n, b=boolop, st=st: ir_lop3_pred(n, b, st)) for st in LOP3_STYLES]))
    for d in ("l", "r"):
        one(f"shf.{d}.wrap.b32", lambda n, d=d: ir_shf(n, d, "wrap"))
        out.append((f"shf.{d}.clamp.b32",
                    [(st, lambda n, d=d, st=st: ir_shf(n, d, "clamp", st)) for st in ("i64", "select")]))
    shifts = [("shl.b", "shl")] + [(f"shr.{s}", k) for s, k in (("u", "lshr"), ("b", "lshr"), ("s", "ashr"))]
    for prefix, kind in shifts:
        for bits in ("16", "32", "64"):
            if kind == "ashr":
                styles = ["umin"]
            elif bits == "64":
                styles = ["select"]            # no wider type worth using
            else:
                styles = ["select", "widen"]
            out.append((f"{prefix}{bits}",
                        [(st, lambda n, k=kind, b=bits, st=st: ir_shift(n, k, b, st)) for st in styles]))
    for form, _args, _ret, _model, _kinds, variants in bits_forms():
        out.append((form, variants))
    for lut in range(256):
        out.append((f"lop3.b32/0x{lut:02x}",
                    [(st, lambda n, l=lut, st=st: ir_lop3(n, l, st)) for st in LOP3_STYLES]))
    return out


def ir_name(form, style):
    return "f_" + re.sub(r"[^A-Za-z0-9]", "_", form) + "__" + style


def build_module(form_list):
    parts = [
        "; Generated by bench/llc_compare/generate.py -- one function per PTX form.\n",
        f'target triple = "{TRIPLE}"\n',
    ]
    for form, variants in form_list:
        for style, build in variants:
            parts.append(f"; PTX: {form}  (formulation: {style})\n" + build(ir_name(form, style)))
    parts += intrinsic_decls("".join(parts))
    return "\n".join(parts)


# --------------------------------------------------------------------------
# --check: run every bit-manipulation formulation on the host with lli and
# compare it with the model, on edge-value grids plus seeded random inputs.
# --------------------------------------------------------------------------

LLI = os.environ.get("LLI", "lli-19")

_V32 = [0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
        0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0xAAAAAAAA, 0x55555555, 0x0F0F0F0F, 0xF0F0F0F0, 0x01010101,
        0x80808080, 0x7F7F7F7F, 0xF8C122A0, 0x70C507D6, 0x6FBD4B5C, 0x0100FE80, 0xC75CAEFB, 0xBC92498A,
        0x052D13AB, 0x2CD1A4C1]
_V64 = _V32 + [1 << 32, (1 << 63), (1 << 63) - 1, (1 << 63) + 1, (1 << 64) - 1, (1 << 64) - 2,
               0xFFFFFFFF00000000, 0x8000000080000000, 0xAAAAAAAAAAAAAAAA, 0x5555555555555555,
               0x99427D688BCB5258, 0x00000001FFFFFFFF, 0xFFFFFFFE00000000]
_A32 = list(range(0, 40)) + [63, 64, 65, 127, 128, 0xFF, 0x100, 0x101, 0x108, 0x11F, 0x120, 0x121, 0x1FF,
                             0x200, 0x7FFFFFFF, 0x80000000, 0xFFFFFFE0, 0xFFFFFFFF]
_A64 = list(range(0, 10)) + list(range(28, 37)) + list(range(56, 70)) + [
    127, 128, 0xFF, 0x100, 0x101, 0x120, 0x140, 0x141, 0x7FFFFFFF, 0x80000000, 0xFFFFFFC0, 0xFFFFFFFF]
_OFF = [x & 0xFFFFFFFF for x in list(range(-34, 35)) + [100, -100, 1000, -1000, 0x7FFFFFFF, -0x7FFFFFFF,
                                                          -0x80000000]]
_EDGES = {"v32": _V32, "v64": _V64, "a32": _A32, "a64": _A64, "base": list(range(32)), "off": _OFF,
          "sel": list(range(16)) + [0x3210, 0x7654, 0x8888, 0xFFFF, 0x7604, 0x0A08, 0xBA98, 0xFEDC]}
_GRID = ("a32", "a64", "base", "off")


def _draw(kind, rng):
    """An edge value (1 in 3), else a random one: uniform, sparse, dense or small."""
    if rng.random() < 1 / 3:
        return rng.choice(_EDGES[kind])
    if kind == "base":
        return rng.randrange(32)
    if kind == "off":
        return rng.randrange(-40, 41) & 0xFFFFFFFF
    if kind in ("a32", "a64"):
        return rng.choice([rng.randrange(80), rng.randrange(512), rng.getrandbits(32)])
    w = 64 if kind == "v64" else 32
    how = rng.randrange(4)
    if how == 0:
        return rng.getrandbits(w)
    few = 0
    for _ in range(rng.randrange(1, 5)):
        few |= 1 << rng.randrange(w)
    if how == 1:
        return few
    if how == 2:
        return ~few & ((1 << w) - 1)
    return rng.randrange(-300, 300) & ((1 << w) - 1)


def check_cases(kinds, rng, n_random=1500, per_point=2):
    """The grid over the amount-like operands (all edge values, each point with
    per_point random draws of the others) plus n_random random draws."""
    grid_ix = [i for i, k in enumerate(kinds) if k in _GRID]
    cases = []
    points = [()]
    for i in grid_ix:
        points = [p + (v,) for p in points for v in _EDGES[kinds[i]]]
    if grid_ix:
        for p in points:
            for _ in range(per_point):
                vals = [_draw(k, rng) for k in kinds]
                for i, v in zip(grid_ix, p):
                    vals[i] = v
                cases.append(tuple(vals))
    else:
        n_random += 2500
    for _ in range(n_random):
        cases.append(tuple(_draw(k, rng) for k in kinds))
    return cases


def _cstr(name, text):
    """A private NUL-terminated string constant (ASCII; newline escaped)."""
    esc = text.replace("\n", "\\0A")
    return f'{name} = private constant [{len(text) + 1} x i8] c"{esc}\\00"'


def _ity(w):
    return f"i{w}"


def check_module(bits_list, rng):
    """IR with the bit-manipulation functions, a constant table of
    {args..., expected} per form, a driver per formulation and @main."""
    parts, drivers, total = [], [], 0
    parts.append(_cstr("@.fmt", "MISMATCH %s case %lld: %llx %llx %llx %llx got %llx want %llx\n"))
    parts.append(_cstr("@.res", "RESULT %s %lld %lld\n"))
    parts.append("declare i32 @printf(ptr, ...)")
    for fi, (form, args, ret, model, kinds, variants) in enumerate(bits_list):
        cases = check_cases(kinds, rng)
        rows = []
        for cs in cases:
            exp = model(*cs)
            vals = list(cs) + [0] * (4 - len(cs)) + [exp]
            rows.append("[5 x i64] [" + ", ".join(f"i64 {v - (1 << 64) if v >= 1 << 63 else v}" for v in vals) + "]")
        n = len(cases)
        total += n
        parts.append(f"@in{fi} = private constant [{n} x [5 x i64]] [" + ", ".join(rows) + "]")
        for st, build in variants:
            fname = ir_name(form, st)
            parts.append(build(fname))
            label = f"{form}[{st}]"
            sname = f"@nm_{fname[1:] if fname.startswith('@') else fname}"
            parts.append(_cstr(sname, label))
            argv = []
            body = ["entry:", "br label %loop", "loop:",
                    "%i = phi i64 [ 0, %entry ], [ %i1, %next ]",
                    "%bad = phi i64 [ 0, %entry ], [ %bad1, %next ]"]
            for j in range(5):
                body += [f"%p{j} = getelementptr inbounds [{n} x [5 x i64]], ptr @in{fi}, i64 0, i64 %i, i64 {j}",
                         f"%x{j} = load i64, ptr %p{j}"]
            for j, w in enumerate(args):
                if w == 64:
                    argv.append(f"i64 %x{j}")
                else:
                    body.append(f"%y{j} = trunc i64 %x{j} to i{w}")
                    argv.append(f"i{w} %y{j}")
            body.append(f"%r = call {_ity(ret)} @{fname}({', '.join(argv)})")
            body.append("%r64 = zext i32 %r to i64" if ret == 32 else "%r64 = or i64 %r, 0")
            body += ["%ok = icmp eq i64 %r64, %x4", "%inc = select i1 %ok, i64 0, i64 1",
                     "%bad1 = add i64 %bad, %inc", "%few = icmp ult i64 %bad, 5",
                     "%nok = xor i1 %ok, true", "%pr = and i1 %nok, %few",
                     "br i1 %pr, label %print, label %next", "print:",
                     f"call i32 (ptr, ...) @printf(ptr @.fmt, ptr {sname}, i64 %i, i64 %x0, i64 %x1, i64 %x2, "
                     "i64 %x3, i64 %r64, i64 %x4)",
                     "br label %next", "next:", "%i1 = add i64 %i, 1", f"%done = icmp eq i64 %i1, {n}",
                     "br i1 %done, label %exit, label %loop", "exit:",
                     f"call i32 (ptr, ...) @printf(ptr @.res, ptr {sname}, i64 {n}, i64 %bad1)", "ret void"]
            drivers.append(f"chk_{fname}")
            parts.append(fn(f"chk_{fname}", "void", "", body))
    parts.append(fn("main", "i32", "", [f"call void @{d}()" for d in drivers] + ["ret i32 0"]))
    parts += intrinsic_decls("\n".join(parts))
    return "\n".join(parts), total


def run_check():
    bad = 0
    for form, f, want in MODEL_VECTORS:
        got = f()
        if got != want:
            print(f"MODEL WRONG: {form}: got {got:#x}, want {want:#x}")
            bad += 1
    print(f"model: {len(MODEL_VECTORS) - bad}/{len(MODEL_VECTORS)} hardware vectors reproduced")
    if bad:
        return 1
    module, total = check_module(bits_forms(), random.Random(20240611))
    failures = 0
    for stage in ("as written", "after host opt -O3"):
        text = module
        if stage != "as written":
            text = subprocess.run([OPT, "-O3", "-S", "-o", "-", "-"], input=module, capture_output=True,
                                  text=True, check=True).stdout
        res = subprocess.run([LLI, "-"], input=text, capture_output=True, text=True)
        if res.returncode != 0:
            print(res.stderr[-3000:])
            return 1
        results = [l.split() for l in res.stdout.splitlines() if l.startswith("RESULT")]
        for l in res.stdout.splitlines():
            if l.startswith("MISMATCH"):
                print("  " + l)
        nbad = sum(int(r[3]) for r in results)
        ncalls = sum(int(r[2]) for r in results)
        failures += nbad
        print(f"IR {stage}: {len(results)} formulations, {ncalls} calls "
              f"({total} cases), {nbad} mismatches")
        for r in results:
            if int(r[3]):
                print(f"  {r[1]}: {r[3]} of {r[2]} wrong")
    return 1 if failures else 0


# --------------------------------------------------------------------------
# Compile and count.
# --------------------------------------------------------------------------

SKIP_MNEMONIC = re.compile(r"^(s_waitcnt\w*|s_wait_\w+|s_setpc_b64|s_delay_alu|s_nop)$")
LABEL = re.compile(r"^[\w.$\"]+:")


def compile_target(ir_text, cpu):
    common = [f"-mtriple={TRIPLE}", f"-mcpu={cpu}"]
    opt = subprocess.run([OPT, "-O3", *common, "-S", "-o", "-", "-"], input=ir_text,
                         capture_output=True, text=True, check=True)
    llc = subprocess.run([LLC, "-O3", *common, "-o", "-", "-"], input=opt.stdout,
                         capture_output=True, text=True, check=True)
    return opt.stdout, llc.stdout


def count_functions(asm, names):
    """Map function name -> list of counted instruction lines."""
    result = {}
    cur = None
    for raw in asm.splitlines():
        line = raw.split(";", 1)[0].strip()
        if cur is None:
            m = re.match(r"^([\w.$]+):", line)
            if m and m.group(1) in names:
                cur = m.group(1)
                result[cur] = []
            continue
        if line.startswith(".Lfunc_end"):
            cur = None
            continue
        if not line or line.startswith(".") or LABEL.match(line):
            continue
        mnemonic = line.split()[0]
        if SKIP_MNEMONIC.match(mnemonic):
            continue
        result[cur].append(line)
    return result


def llc_version():
    out = subprocess.run([LLC, "--version"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if "LLVM version" in line:
            return line.strip()
    return out.splitlines()[0].strip()


def dump_json(obj, indent=0, inline_from=3):
    """json.dumps with one line per entry down to depth inline_from, then inline.
    Keeps llc_counts.json readable and diff-friendly."""
    if not isinstance(obj, dict) or indent >= inline_from or not obj:
        return json.dumps(obj, separators=(", ", ": "))
    pad = " " * (indent + 1)
    items = [f"{pad}{json.dumps(k)}: {dump_json(v, indent + 1, inline_from)}" for k, v in obj.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--asm-dir", help="also write the module (forms.ll), post-opt IR (<cpu>.opt.ll) "
                                      "and llc output (<cpu>.s) here")
    ap.add_argument("--out", default=OUT_JSON, help="JSON output (default: %(default)s)")
    ap.add_argument("--show", metavar="FORM", action="append", default=[],
                    help="print the counted instructions of every formulation of FORM (repeatable)")
    ap.add_argument("--check", action="store_true",
                    help="only check every bit-manipulation formulation against the Python model of "
                         "semantics/ptx_semantics_bits.cpp (host lli-19); exit 1 on a mismatch")
    args = ap.parse_args()
    if args.check:
        sys.exit(run_check())

    form_list = forms()
    names = {ir_name(f, st): (f, st) for f, variants in form_list for st, _ in variants}
    module = build_module(form_list)
    if args.asm_dir:
        os.makedirs(args.asm_dir, exist_ok=True)
        with open(os.path.join(args.asm_dir, "forms.ll"), "w") as f:
            f.write(module)

    targets, formulations, shown = {}, {}, []
    for cpu in TARGETS:
        opt_ir, asm = compile_target(module, cpu)
        if args.asm_dir:
            with open(os.path.join(args.asm_dir, f"{cpu}.opt.ll"), "w") as f:
                f.write(opt_ir)
            with open(os.path.join(args.asm_dir, f"{cpu}.s"), "w") as f:
                f.write(asm)
        bodies = count_functions(asm, names)
        missing = [n for n in names if n not in bodies]
        if missing:
            sys.exit(f"{cpu}: functions not found in llc output: {missing[:5]}")
        targets[cpu], formulations[cpu] = {}, {}
        for form, variants in form_list:
            per = {st: len(bodies[ir_name(form, st)]) for st, _ in variants}
            targets[cpu][form] = min(v for st, v in per.items() if (form, st) not in NOT_IN_MIN)
            if len(per) > 1:
                formulations[cpu][form] = per
            if form in args.show:
                for st, _ in variants:
                    shown.append((form, st, cpu, bodies[ir_name(form, st)]))

    doc = {
        "llvm": llc_version(),
        "pipeline": f"{OPT} -O3 -mtriple={TRIPLE} -mcpu=<target> | {LLC} -O3 -mtriple={TRIPLE} -mcpu=<target>",
        "counting": "instructions in the function body; not counted: s_waitcnt*, s_wait_*, "
                    "s_setpc_b64, s_delay_alu, s_nop, labels, directives, comments",
        "notes": {
            "targets": "per form, the minimum over its IR formulations (except fns.b32 'loop', see "
                       "there); every formulation's own count is under 'formulations' (forms with a "
                       "single formulation are not repeated there)",
            "calling_convention": "plain (non-kernel) functions: inputs in VGPRs, result in v0 or v[0:1]",
            "pred": "and/or/xor/not.pred and the predicate of lop3.{and,or}.b32 are i1 lane values "
                    "(passed and returned as 0/1 in a VGPR), not wave-wide VCC/SGPR masks; the "
                    "comparison is of lane-value semantics only",
            "lop3.and.b32/lop3.or.b32": "representative LUT 0x96: d = a^b^c, p = (d != 0) and/or q; returns {i32, i1}",
            "lop3.b32/0xNN": "formulations: sop = OR of minterm ANDs, pos = AND of maxterm ORs, "
                             "formula = smallest and/or/xor/not tree; each simplified by opt -O3",
            "shf.*.clamp.b32": "formulations: i64 = 64-bit {b,a} shifted by umin(c,32); "
                               "select = c >= 32 ? a|b : fshl/fshr",
            "shl/shr.u/shr.b": "formulations: select = (c >= w) ? 0 : a op c; "
                               "widen = trunc(zext2w(a) op umin(c, w)) (16/32-bit only)",
            "shr.s": "a >> umin(c, w-1)",
            "bit_manipulation": "prmt bfe bfi brev popc clz bfind fns bmsk szext encode "
                                "semantics/ptx_semantics_bits.cpp; all operands are registers; every "
                                "formulation passed generate.py --check (host lli-19 vs a Python model)",
            "prmt.b32": "default mode, selector c in a register; formulations: i64shift = per byte "
                        "({b,a} >> 8*sel) as i64; vector = extractelement of <8 x i8>; word = a or b by "
                        "sel bit 2, then an i32 shift; sign replication by select on nibble bit 3",
            "prmt.b32.<mode>": "c in a register, row = c & 3; formulations: rows = the four constant "
                               "byte shuffles (shufflevector) then a select on the row; arith = fshr "
                               "(f4e), bswap + 64-bit rotate (b4e), byte/half replicate by multiply "
                               "(rc8, rc16), replicate + byte masks (ecl, ecr)",
            "bfe": "pos/len & 0xff for .u32/.s32, all 32 bits for .u64/.s64; formulations: mask = "
                   "(a >> pos) & lowmask (+ sign fill above the field for .s); shifts = "
                   "(a << s) >> (s + pos) with s = w - pos - count (lshr/ashr)",
            "bfi": "pos/len & 0xff for .b32, all 32 bits for .b64; formulations: select = "
                   "m = ((1 << len) - 1) << pos with selects for len/pos >= w; lshrmask = the low mask "
                   "as -1 >> (w - umin(len, w)); wide (.b32) = masks built in i64",
            "brev/popc/clz": "llvm.bitreverse / llvm.ctpop / llvm.ctlz(is_zero_poison=false); popc and "
                             "clz return .u32 (trunc for .b64)",
            "bfind": "result i32, 0xffffffff when no bit; formulations (.s: inversion_zero): inversion "
                     "xor = a ^ (a >>s w-1) or sel = a < 0 ? ~a : a; zero select = x == 0 ? -1 : ..., "
                     "arith = w-1 - ctlz(x, false) (-1 by itself) or, for .shiftamt, "
                     "ctlz(x, false) | sext(x == 0)",
            "fns.b32": "base <= 31 assumed (and i32 %base, 31); formulations: chain = the spec's "
                       "bit-by-bit select chains (loop-free); search = rank k, then a 5-step ctpop "
                       "binary search (loop-free); loop = clear the lowest set bit k-1 times then cttz: "
                       "llc's static instruction count of a loop, recorded under 'formulations' "
                       "but not used for 'targets'",
            "bmsk": "formulations: select = (-1 << a) & ~(a + b >= 32 ? 0 : -1 << (a + b)) with "
                    "a, b & 31 (.clamp: a >= 32 -> 0, b >= 32 -> -1 << a); bfm = "
                    "lowmask(umin(b, 32 - a)) << a (i64 lowmask for .clamp)",
            "szext": "n = b & 31 (.wrap) or umin(b, 32) (.clamp); formulations: mask = "
                     "(a & ~(-1 << n)) | sign fill; shifts = (a << (32 - n)) >> (32 - n), lshr/ashr, "
                     "0 for n == 0",
            "wave_size": "default for each target (wave64 on gfx9, wave32 on gfx10+)",
        },
        "targets": targets,
        "formulations": formulations,
    }
    with open(args.out, "w") as f:
        f.write(dump_json(doc) + "\n")

    print_table(doc, form_list)
    for form, st, cpu, lines in shown:
        print(f"\n{form} [{st}] @ {cpu} ({len(lines)}):")
        for l in lines:
            print("   ", l)


def print_table(doc, form_list):
    t = doc["targets"]
    print(doc["llvm"])
    print("minimum over formulations; * = more than one formulation tried (see 'formulations')")
    w = max(len(f) for f, _ in form_list if not f.startswith("lop3.b32/")) + 3
    print("form".ljust(w) + "".join(c.rjust(9) for c in TARGETS))
    for f, variants in form_list:
        if f.startswith("lop3.b32/"):
            continue
        label = f + ("*" if len(variants) > 1 else "")
        print(label.ljust(w) + "".join(str(t[c][f]).rjust(9) for c in TARGETS))
    print("lop3.b32 over all 256 LUTs (min over sop/pos/formula): min / median / max   histogram count:LUTs")
    for c in TARGETS:
        v = sorted(t[c][f] for f in t[c] if f.startswith("lop3.b32/"))
        hist = {}
        for x in v:
            hist[x] = hist.get(x, 0) + 1
        histo = " ".join(f"{k}:{hist[k]}" for k in sorted(hist))
        print(f"  {c:8} {v[0]} / {v[len(v) // 2]} / {v[-1]}   {histo}")


if __name__ == "__main__":
    main()
