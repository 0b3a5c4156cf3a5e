#!/usr/bin/env python3
"""Count the AMD GPU instructions LLVM 19 spends on each PTX Logic & Shift form.

For every PTX form (PTX ISA 9.7.8: and or xor not cnot lop3 shf shl shr) this
script writes one LLVM IR function with the same semantics, compiles the module
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
shift or select; shl/shr: select or widened shift).  All are compiled; the
JSON's "targets" holds the minimum and "formulations" each one's count.

Stdlib only; the output is deterministic (fixed form order, JSON keys in form
order, no timestamps).

Usage:
    python3 bench/llc_compare/generate.py            # writes llc_counts.json, prints a table
    python3 bench/llc_compare/generate.py --asm-dir /tmp/asm   # also keep the .ll and .s files
"""

import argparse
import json
import os
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
    parts += [
        "declare i32 @llvm.fshl.i32(i32, i32, i32)\n",
        "declare i32 @llvm.fshr.i32(i32, i32, i32)\n",
        "declare i32 @llvm.umin.i32(i32, i32)\n",
    ]
    return "\n".join(parts)


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
    args = ap.parse_args()

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
            targets[cpu][form] = min(per.values())
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
            "targets": "per form, the minimum over its IR formulations; every formulation's own "
                       "count is under 'formulations' (forms with a single formulation are not repeated there)",
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
