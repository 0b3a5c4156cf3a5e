#!/usr/bin/env python3
"""Random structured kernels through `ptx2amdgpu check` on every target.

Each seed makes a kernel mixing what the uniform-value analysis must get
right: uniform counters and loops (scalar ALU candidates), values they feed
into per-lane results, divergent ifs and loops around and inside them, and
divergent early exits (lanes sent ahead to wait). `check` runs the PTX in the
reference interpreter and the translation in the emulator on random inputs;
any mismatch fails the test, and so does any error: blocks whose lane masks
are never in use at once share SGPRs, so no such kernel runs out of them.

With --large each kernel has 150-220 top-level statements: hundreds of
blocks, past the exact waiting-lanes analysis (kernel::WaitingLanes), so the
structural one decides where lanes wait and which lane masks share SGPRs.

With --spill the kernels also have guarded writes (some lanes' values
change under a predicate, without a branch), and the translation may use only 10 VGPRs and 30 SGPRs
(--max-vgprs/--max-sgprs), so values live in scratch and VGPR lanes across
the divergent ifs, loops and early exits; most kernels must spill.

With --families (the sanitizer trees) each seed is checked on one family in
turn (GCN gfx900, CDNA gfx942, RDNA wave32 gfx1100), or on all three where
there are fewer than three seeds, instead of on every target.

usage: check_random_programs.py PTX2AMDGPU FIRST_SEED LAST_SEED [--large] [--spill] [--families]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

def generate(seed, large=False, guarded=False, statements=None, name="k"):
    """One kernel: out[tid] = a per-lane value mixed with uniform ones.

    `statements` top-level statements if given (bench/scaling.py), else
    150-220 with `large`, 3-7 without; `name` is the kernel's."""
    rng = random.Random(seed)
    lines = []
    count = {"label": 0, "reg": 10}

    def label():
        count["label"] += 1
        return f"$L{count['label']}"

    def fresh(prefix):  # a predicate or a loop counter of its own
        count["reg"] += 1
        # Small kernels may reuse %r20..%r22 as a loop counter (a uniform value
        # the loop also changes); in large ones that nests into endless loops.
        if large and 20 <= count["reg"] <= 22:
            count["reg"] = 23
        return f"{prefix}{count['reg']}"

    uniform = ["%r20", "%r21", "%r22"]  # from the argument and constants

    def statement(depth):
        kind = rng.randrange(8 if depth < 3 else 4) if not guarded else rng.randrange(10 if depth < 3 else 5)
        if guarded and (kind == 9 or (depth >= 3 and kind == 4)):
            kind = 8  # (keeps the nesting bound: 4 is a divergent if)
        u, u2 = rng.choice(uniform), rng.choice(uniform)
        if kind == 8:  # guarded writes: only some lanes' values change
            p = fresh("%p")
            lines.extend([f"setp.lt.u32 {p}, %r1, {rng.randrange(0, 70)};", f"@{p} add.s32 %r5, %r5, {u};",
                          f"@!{p} mov.u32 %r6, %r5;", f"@{p} xor.b32 %r5, %r5, %r6;"])
        elif kind == 0:  # a uniform value changes
            lines.append(f"add.s32 {u}, {u}, {rng.randrange(1, 9)};")
        elif kind == 1:  # ... and feeds a lane's value
            lines.extend([f"add.s32 %r5, %r5, {u};", "mul.lo.s32 %r5, %r5, 3;"])
        elif kind == 2:
            lines.extend([f"xor.b32 {u}, {u}, {u2};", f"add.s32 %r5, %r5, {u};"])
        elif kind == 3:  # a uniform forward branch
            p, skip = fresh("%p"), label()
            lines.extend([f"setp.eq.u32 {p}, {u}, {rng.randrange(0, 12)};", f"@{p} bra {skip};",
                          "add.s32 %r5, %r5, 17;", f"{skip}:"])
        elif kind == 4:  # a divergent if around more statements
            p, skip = fresh("%p"), label()
            lines.extend([f"setp.lt.u32 {p}, %r1, {rng.randrange(0, 70)};", f"@{p} bra {skip};"])
            for _ in range(rng.randrange(1, 4)):
                statement(depth + 1)
            lines.append(f"{skip}:")
        elif kind == 5:  # a loop with a uniform trip count
            c, p, head = fresh("%r"), fresh("%p"), label()
            lines.extend([f"and.b32 {c}, {u}, 3;", f"{head}:"])
            for _ in range(rng.randrange(1, 3)):
                statement(depth + 1)
            lines.extend([f"add.s32 {c}, {c}, 1;", f"setp.lt.u32 {p}, {c}, {rng.randrange(2, 7)};", f"@{p} bra {head};"])
        elif kind == 6:  # a loop with a per-lane trip count
            c, p, head = fresh("%r"), fresh("%p"), label()
            lines.extend([f"and.b32 {c}, %r1, 3;", f"{head}:"])
            for _ in range(rng.randrange(1, 3)):
                statement(depth + 1)
            lines.extend([f"add.s32 {c}, {c}, 1;", f"setp.lt.u32 {p}, {c}, 5;", f"@{p} bra {head};"])
        else:  # some lanes leave early and wait at the end
            p = fresh("%p")
            lines.extend([f"setp.gt.u32 {p}, %r1, {rng.randrange(30, 70)};", f"@{p} bra $Lend;"])

    if statements is None:
        statements = rng.randrange(150, 220) if large else rng.randrange(3, 8)
    for _ in range(statements):
        statement(0)
    body = "\n".join(lines)
    r6_init = "\nmov.u32 %r6, 5;" if guarded else ""
    r6_store = "\nst.global.u32 [%rd3+512], %r6;" if guarded else ""
    return f""".version 8.0
.target sm_80
.address_size 64
.visible .entry {name}(.param .u64 out, .param .u32 n)
{{
.reg .pred %p<{max(2000, count["reg"] + 1)}>;
.reg .b32 %r<{max(2000, count["reg"] + 1)}>;
.reg .b64 %rd<8>;
ld.param.u64 %rd1, [out];
ld.param.u32 %r2, [n];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd2, %r1, 4;
add.s64 %rd3, %rd1, %rd2;
mov.u32 %r5, %r1;{r6_init}
and.b32 %r20, %r2, 7;
mov.u32 %r21, 1;
add.s32 %r22, %r2, 3;
{body}
$Lend:
st.global.u32 [%rd3], %r5;
st.global.u32 [%rd3+256], %r20;{r6_store}
ret;
}}
"""


def main():
    binary, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    large = "--large" in sys.argv[4:]
    budget = ["--max-vgprs=10", "--max-sgprs=30"] if "--spill" in sys.argv[4:] else []
    families = ["gfx900", "gfx942", "gfx1100"]

    def targets_of(seed):
        if "--families" not in sys.argv[4:]:
            return ["all"]
        return families if last - first + 1 < len(families) else [families[seed % len(families)]]
    failures, scalar, spilled = [], 0, 0
    with tempfile.TemporaryDirectory() as d:
        for seed in range(first, last + 1):
            path = os.path.join(d, f"k{seed}.ptx")
            with open(path, "w") as f:
                f.write(generate(seed, large, bool(budget)))
            for target in targets_of(seed):
                r = subprocess.run([binary, "check", path, "-mcpu=" + target, "--block", "64", "--grid", "2",
                                    "--trials", "2"] + budget, capture_output=True, text=True, timeout=300)
                out = r.stdout + r.stderr
                if "MISMATCH" in out or r.returncode != 0:
                    failures.append((seed, out))
            asm = subprocess.run([binary, path, "-mcpu=gfx1100", "-o", "-"], capture_output=True, text=True)
            scalar += "s_cmp_" in asm.stdout
            if budget:
                stats = subprocess.run([binary, path, "-mcpu=gfx900", "-o", os.path.join(d, "k.s"), "--stats=json"]
                                       + budget, capture_output=True, text=True)
                k = json.loads(stats.stdout)["per_file"][0]["functions"][0]
                spilled += k["spilled_vgpr_values"] + k["spilled_sgpr_values"] > 0
    total = last - first + 1
    print(f"{total} random kernels: {len(failures)} failed, "
          f"{scalar} with scalar compares" + (f", {spilled} spilling" if budget else ""))
    for seed, out in failures:
        print(f"--- seed {seed}\n{generate(seed, large, bool(budget))}\n{out}")
    # The kernels must exercise the analysis, not only pass.
    if scalar < total // 2:
        print("too few kernels took the scalar path: the generator no longer tests the analysis")
        return 1
    if budget and spilled < total // 2:
        print("too few kernels spilled: the register budget no longer tests spilling")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
