#!/usr/bin/env python3
"""Scaling curve: translation time and peak memory against module size.

  bench/scaling.py build/ptx2amdgpu [--max-lines 100000] [--ptxas ptxas]

Two shapes of generated module, each from about 1k to --max-lines PTX lines
(doubling), translated to an object for gfx942, one run per size:
  one-kernel  one kernel of N lines: structured control flow (uniform and
              divergent ifs and loops, early exits) from the random-program
              generator of tests/random_programs, so blocks, registers and
              live ranges all grow with N;
  kernels     a module of N/100-line kernels of the same kind (distinct
              seeds), as nvcc writes big modules;
  register-pairs  one kernel of funnel shifts whose sources the rules pair
              (register pair constraints that grow with the kernel).
Each row gives user+system CPU seconds and peak RSS (through /usr/bin/time,
else the child's rusage, which Linux floors at this script's own size),
and ptxas -O3 -arch=sm_80 on the same module when --ptxas is given. The
log-log slope of CPU time (and of memory) over the sizes from 8k lines up
is printed per shape: 1.0 is linear; issue 18 asks for at most 1.15.

python3 stdlib only; output is a table on stdout.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "random_programs"))
from check_random_programs import generate  # noqa: E402


def one_kernel(target_lines):
    # About 6 PTX lines per top-level statement (measured on the generator).
    statements = max(1, target_lines // 6)
    return generate(1, large=True, statements=statements)


def kernels(target_lines):
    parts, header = [], None
    lines, seed = 0, 1
    while lines < target_lines:
        k = generate(seed, large=True, statements=16, name=f"k{seed}")
        head, _, body = k.partition(".visible .entry")
        header = header or head
        parts.append(".visible .entry" + body)
        lines += k.count("\n") - head.count("\n")
        seed += 1
    return header + "\n".join(parts)


def register_pairs(target_lines):
    """One kernel of right funnel shifts on fresh register pairs (shf.r.clamp
    with a variable amount: {a,b} as an aligned VGPR pair, a 64-bit shift),
    each input computed just before: the rules' pair constraints grow with
    the kernel (run 30: a scan of every pair per pair operand was quadratic)."""
    n = max(1, (target_lines - 12) // 3)
    lines = [".version 7.8", ".target sm_80", ".address_size 64",
             ".visible .entry pairs(.param .u64 p)", "{",
             f".reg .b32 %r<{3 * n + 10}>;", ".reg .b64 %rd<3>;",
             "ld.param.u64 %rd1, [p];", "cvta.to.global.u64 %rd2, %rd1;",
             "ld.global.u32 %r1, [%rd2];", "ld.global.u32 %r2, [%rd2+4];"]
    acc = "%r2"
    for i in range(n):
        a, b, d = f"%r{10 + 3 * i}", f"%r{11 + 3 * i}", f"%r{12 + 3 * i}"
        lines += [f"add.s32 {a}, %r1, {i};", f"xor.b32 {b}, {acc}, {7 * i + 1};",
                  f"shf.r.clamp.b32 {d}, {a}, {b}, %r1;"]
        acc = d
    lines += [f"st.global.u32 [%rd2], {acc};", "ret;", "}"]
    return "\n".join(lines) + "\n"


TIME = "/usr/bin/time"  # (Debian's `time` package)


def run(cmd):
    """(cpu seconds, peak RSS MiB, exit code) of one child run.

    Linux starts a forked child's peak RSS at its parent's: a child of this
    script, which holds the generated modules, reported at least this
    script's own size (43 MiB for any small module). GNU time forks the
    command from its own small process and reports the command's rusage, so
    it measures through time where it can.
    """
    if os.access(TIME, os.X_OK):
        with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
            rc = subprocess.call([TIME, "-q", "-f", "%U %S %M", "-o", out.name] + cmd,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            fields = out.read().split()
        user, system, kib = float(fields[-3]), float(fields[-2]), float(fields[-1])
        return user + system, kib / 1024.0, rc
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, child.returncode


def slope(points):
    pts = [(math.log(x), math.log(y)) for x, y in points if x >= 8000 and y > 0]
    if len(pts) < 2:
        return float("nan")
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    num = sum((p[0] - mx) * (p[1] - my) for p in pts)
    den = sum((p[0] - mx) ** 2 for p in pts)
    return num / den


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptx2amdgpu")
    ap.add_argument("--max-lines", type=int, default=100000)
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--ptxas-max-lines", type=int, default=40000,
                    help="skip ptxas above this size (it is superlinear on one big kernel)")
    ap.add_argument("--mcpu", default="gfx942")
    a = ap.parse_args()
    sizes = []
    n = 1000
    while n <= a.max_lines:
        sizes.append(n)
        n *= 2
    with tempfile.TemporaryDirectory() as tmp:
        for shape, make in (("one-kernel", one_kernel), ("kernels", kernels), ("register-pairs", register_pairs)):
            print(f"{shape}: lines, ptx2amdgpu CPU s, peak MiB" +
                  (", ptxas CPU s, ptxas peak MiB, CPU ratio, memory ratio" if a.ptxas else ""))
            times, mems = [], []
            for size in sizes:
                src = make(size)
                path = os.path.join(tmp, f"{shape}_{size}.ptx")
                with open(path, "w") as f:
                    f.write(src)
                lines = src.count("\n")
                cpu, mib, rc = run([a.ptx2amdgpu, path, f"-mcpu={a.mcpu}", "-filetype=obj", "-o",
                                    os.path.join(tmp, "out.o")])
                row = f"  {lines:7d}  {cpu:7.2f}  {mib:7.1f}" + ("" if rc == 0 else f"  (exit {rc})")
                if a.ptxas and lines <= a.ptxas_max_lines:
                    pcpu, pmib, prc = run([a.ptxas, "-O3", "-arch=sm_80", path, "-o", os.path.join(tmp, "out.cubin")])
                    row += (f"  {pcpu:7.2f}  {pmib:7.1f}  {cpu / pcpu if pcpu else float('nan'):5.2f}  {mib / pmib:5.2f}" +
                            ("" if prc == 0 else f"  (ptxas exit {prc})"))
                print(row, flush=True)
                times.append((lines, cpu))
                mems.append((lines, mib))
            print(f"  log-log slope from 8k lines: time {slope(times):.2f}, memory {slope(mems):.2f}")


if __name__ == "__main__":
    main()
