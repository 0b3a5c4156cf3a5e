#!/usr/bin/env python3
"""Seeded input generators for bench/run_benchmarks.sh (python3 stdlib only).

  gen_corpus.py snippet --n 20000 --seed 1 -o corpus.ptx
      A straight-line inline-asm style snippet of N PTX Logic & Shift
      instructions (and/or/xor/not/cnot/lop3/shf/shl/shr), mixing every form
      that `ptx2amdgpu explain` accepts, with registers declared by `.reg` lines.

  gen_corpus.py snippet --n 20000 --seed 1 --wrap 200 -o corpus_module.ptx
      The same N instructions as one PTX module (.version/.target header),
      cut into `.entry` functions bench_k0, bench_k1, ... of at most 200
      instructions each, each function with the full set of `.reg` lines.
      The stream depends only on the seed, so `--n 200` gives bench_k0's body.
      This is the input for `ptx2amdgpu FILE.ptx -filetype=obj`, which
      translates and allocates registers per function.

  gen_corpus.py module --copies 40 -o big.ptx samples/sha256/sha256.ptx
      One PTX module: the source module's header and globals once, then every
      function in it repeated COPIES times, copy k renamed NAME_c<k> (including
      its `NAME_param_N` parameters), so that every entry point is unique.

Output is a pure function of the arguments.
"""

import argparse
import random
import re
import sys

# Register pools. Small on purpose: the translator gives each PTX register its
# own VGPR (see README), so the pool sizes bound that part of the register use.
POOLS = {
    16: ("%rs", 12),
    32: ("%r", 24),
    64: ("%rd", 12),
    1: ("%p", 8),
}
# Extra named registers declared with .u/.s types (PTX allows b/u/s of the
# same width wherever a .bN operand is expected).
NAMED = [(".u32", "%amt", 4, 32), (".s64", "%sd", 4, 64), (".u16", "%h", 4, 16)]


def reg(rng, width):
    """A register of the given width (1 = .pred)."""
    for ty, name, count, w in NAMED:
        if w == width and rng.random() < 0.15:
            return "%s%d" % (name, rng.randrange(count))
    prefix, count = POOLS[width]
    return "%s%d" % (prefix, rng.randrange(count))


def imm(rng, width):
    """An integer immediate for a `width`-bit operand, in one of PTX's spellings
    (decimal, negative decimal, hex, octal, binary, U suffix) and of various sizes."""
    size = rng.choice([4, 6, 8, 16, 32, 64])
    size = min(size, width)
    v = rng.getrandbits(size)
    style = rng.randrange(10)
    if style < 3:
        return str(v)
    if style < 6:
        return "0x%X" % v if rng.random() < 0.5 else "0x%x" % v
    if style == 6:
        # Negative decimal, small enough to be a valid `width`-bit value.
        return "-%d" % (1 + (v % (1 << min(size, width - 1, 31))))
    if style == 7:
        return "0%o" % v if v else "0"
    if style == 8:
        return "0b" + bin(v)[2:]
    return "%dU" % v


def src(rng, width, p_imm=0.3):
    return imm(rng, width) if rng.random() < p_imm else reg(rng, width)


def amount(rng, limit):
    """A shift amount: a .u32 register or an immediate up to `limit`."""
    if rng.random() < 0.45:
        return reg(rng, 32)
    v = rng.randrange(limit + 1)
    return "0x%x" % v if rng.random() < 0.2 else str(v)


def lut(rng):
    return "0x%02X" % rng.randrange(256) if rng.random() < 0.7 else "0x%02x" % rng.randrange(256)


def gen_logic2(op, ty, width):
    def f(rng):
        if width == 1:
            return "%s.pred %s, %s, %s;" % (op, reg(rng, 1), reg(rng, 1), reg(rng, 1))
        return "%s.%s %s, %s, %s;" % (op, ty, reg(rng, width), reg(rng, width), src(rng, width))
    return f


def gen_unary(op, ty, width):
    def f(rng):
        if width == 1:
            return "%s.pred %s, %s;" % (op, reg(rng, 1), reg(rng, 1))
        return "%s.%s %s, %s;" % (op, ty, reg(rng, width), src(rng, width, 0.05))
    return f


def gen_lop3(boolop):
    def f(rng):
        # At most one immediate source. Builds before b300052 fail on gfx9
        # for a literal plus an inline constant in one lop3 (bench/README.md,
        # problem 4); keeping this makes the corpus, and the numbers, the
        # same for builds before and after that fix.
        srcs = [reg(rng, 32) for _ in range(3)]
        if rng.random() < 0.25:
            srcs[rng.randrange(3)] = imm(rng, 32)
        a, b, c = srcs
        if rng.random() < 0.1 and a.startswith("%"):  # a source repeated
            b = a
        if boolop is None:
            return "lop3.b32 %s, %s, %s, %s, %s;" % (reg(rng, 32), a, b, c, lut(rng))
        d = "_" if rng.random() < 0.1 else reg(rng, 32)
        return "lop3.%s.b32 %s|%s, %s, %s, %s, %s, %s;" % (
            boolop, d, reg(rng, 1), a, b, c, lut(rng), reg(rng, 1))
    return f


def gen_shf(direction, mode):
    def f(rng):
        a = src(rng, 32, 0.05)
        b = a if (rng.random() < 0.3 and a.startswith("%")) else src(rng, 32, 0.05)
        return "shf.%s.%s.b32 %s, %s, %s, %s;" % (direction, mode, reg(rng, 32), a, b, amount(rng, 40))
    return f


def gen_shift(op, ty, width):
    def f(rng):
        return "%s.%s %s, %s, %s;" % (op, ty, reg(rng, width), src(rng, width, 0.05), amount(rng, width + 4))
    return f


def all_forms():
    forms = []
    for op in ("and", "or", "xor"):
        for ty, w in (("b16", 16), ("b32", 32), ("b64", 64), ("pred", 1)):
            forms.append(("%s.%s" % (op, ty), gen_logic2(op, ty, w)))
    for ty, w in (("b16", 16), ("b32", 32), ("b64", 64), ("pred", 1)):
        forms.append(("not.%s" % ty, gen_unary("not", ty, w)))
    for ty, w in (("b16", 16), ("b32", 32), ("b64", 64)):
        forms.append(("cnot.%s" % ty, gen_unary("cnot", ty, w)))
    forms.append(("lop3.b32", gen_lop3(None)))
    forms.append(("lop3.and.b32", gen_lop3("and")))
    forms.append(("lop3.or.b32", gen_lop3("or")))
    for d in ("l", "r"):
        for m in ("wrap", "clamp"):
            forms.append(("shf.%s.%s.b32" % (d, m), gen_shf(d, m)))
    for ty, w in (("b16", 16), ("b32", 32), ("b64", 64)):
        forms.append(("shl.%s" % ty, gen_shift("shl", ty, w)))
    for k in ("b", "u", "s"):
        for w in (16, 32, 64):
            forms.append(("shr.%s%d" % (k, w), gen_shift("shr", "%s%d" % (k, w), w)))
    return forms


def decls():
    out = []
    tyname = {16: ".b16", 32: ".b32", 64: ".b64", 1: ".pred"}
    for width in (16, 32, 64, 1):
        prefix, count = POOLS[width]
        out.append(".reg %s %s<%d>;" % (tyname[width], prefix, count))
    for ty, name, count, _ in NAMED:
        out.append(".reg %s %s<%d>;" % (ty, name, count))
    return out


def snippet_lines(n, seed):
    rng = random.Random(seed)
    forms = all_forms()
    body = []
    for i in range(n):
        # Every form at least once in the first len(forms) lines, then uniform.
        name, f = forms[i] if i < len(forms) else rng.choice(forms)
        body.append(f(rng))
    return body


def cmd_snippet(args):
    body = snippet_lines(args.n, args.seed)
    head = ["// generated by bench/gen_corpus.py snippet --n %d --seed %d" % (args.n, args.seed)] + decls()
    if args.wrap:
        out = head[:1] + [".version 9.0", ".target sm_90", ".address_size 64", ""]
        for k, start in enumerate(range(0, len(body), args.wrap)):
            out += [".visible .entry bench_k%d()" % k, "{"] + head[1:] + body[start:start + args.wrap] + ["}", ""]
        text = "\n".join(out)
        if args.o == "-":
            sys.stdout.write(text)
        else:
            with open(args.o, "w") as f:
                f.write(text)
    else:
        text = "\n".join(head + body) + "\n"
        if args.o == "-":
            sys.stdout.write(text)
        else:
            with open(args.o, "w") as f:
                f.write(text)


def cmd_module(args):
    with open(args.src) as f:
        text = f.read()
    # Split into the header (everything before the first function) and the
    # functions, each from its `.visible`/`.entry`/`.func` line to its closing
    # brace at column 0.
    fn_start = re.compile(r"^(?:\s*//[^\n]*\n)*(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\s+(\w+)", re.M)
    starts = [m for m in fn_start.finditer(text)]
    if not starts:
        sys.exit("no .entry/.func in %s" % args.src)
    header = text[:starts[0].start()]
    funcs = []
    for m in starts:
        end = text.index("\n}\n", m.start()) + 3
        funcs.append((m.group(1), text[m.start():end]))
    names = [n for n, _ in funcs]
    ident = re.compile(r"\b(%s)(?=\b|_param_)" % "|".join(map(re.escape, names)))
    out = [header]
    for k in range(args.copies):
        for _, body in funcs:
            out.append(ident.sub(lambda m: "%s_c%d" % (m.group(1), k), body))
            out.append("\n")
    with open(args.o, "w") as f:
        f.write("".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snippet")
    s.add_argument("--n", type=int, default=20000)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--wrap", type=int, default=0, help="emit a module of .entry functions of at most this many instructions")
    s.add_argument("-o", default="-")
    m = sub.add_parser("module")
    m.add_argument("--copies", type=int, default=40)
    m.add_argument("-o", required=True)
    m.add_argument("src")
    args = ap.parse_args()
    {"snippet": cmd_snippet, "module": cmd_module}[args.cmd](args)


if __name__ == "__main__":
    main()
