#!/usr/bin/env python3
"""Golden tests of the lowering's steps (in the style of LLVM's lit / Cranelift's filetests).

Usage: run_pass_tests.py BINARY [--update]

Each tests/passes/NAME.ptx starts with a line `// RUN: ARGS`: the file is
translated with ARGS (which name the steps, e.g. --print-ir-after=blocks), and
what the tool prints on stderr -- the IR after those steps -- must equal
tests/passes/NAME.expected. --update rewrites the .expected files; review
the diff before committing it.
"""
import difflib
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    binary = os.path.abspath(sys.argv[1])
    update = "--update" in sys.argv[2:]
    cases = sorted(f for f in os.listdir(HERE) if f.endswith(".ptx"))
    failures = 0
    for name in cases:
        path = os.path.join(HERE, name)
        first = open(path, encoding="utf-8").readline()
        if not first.startswith("// RUN: "):
            print(f"{name}: first line must be '// RUN: ARGS'")
            failures += 1
            continue
        args = shlex.split(first[len("// RUN: "):])
        p = subprocess.run([binary, name, *args, "-o", os.devnull], cwd=HERE, capture_output=True, text=True,
                           timeout=300, env=dict(os.environ, NO_COLOR="1"))
        actual = p.stderr + ("" if p.returncode == 0 else f"; exit status {p.returncode}\n")
        expected_path = os.path.join(HERE, name[:-4] + ".expected")
        if update:
            open(expected_path, "w", encoding="utf-8").write(actual)
            continue
        expected = open(expected_path, encoding="utf-8").read() if os.path.exists(expected_path) else ""
        if actual != expected:
            failures += 1
            print(f"{name}: the IR differs from {os.path.basename(expected_path)}")
            sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                       "expected", "actual", n=2))
    if update:
        print(f"{len(cases)} .expected files written")
        return 0
    print(f"{len(cases)} pass tests, {failures} failed")
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
