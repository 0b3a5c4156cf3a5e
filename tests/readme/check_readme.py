#!/usr/bin/env python3
"""Runs every example in README.md and compares its output with the README.

Usage: check_readme.py BINARY SOURCE_DIR WORK_DIR [--update]

A fenced block whose first line starts with "$ " is an example: each "$ "
line is a shell command (run with bash in a fresh directory that holds the
repository's samples/, tests/ and docs/ and build/ptx2amdgpu), and the lines
after it, up to the next "$ " line, are its output (stdout and stderr
together). Timings ("0.15 s") and the thread count of a batch summary
depend on the machine and are compared as placeholders. With --update the
README's outputs are replaced by what the commands print now.
"""
import os
import re
import shutil
import subprocess
import sys

VOLATILE = [(re.compile(r"\b\d+(\.\d+)? s\b"), "<T> s"),
            (re.compile(r"with \d+ threads?"), "with <N> threads")]


def normalise(text):
    for pat, rep in VOLATILE:
        text = pat.sub(rep, text)
    return text.rstrip("\n")


def examples(lines):
    """Yields (start, end) line ranges of fenced blocks that start with '$ '."""
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if i + 1 < j and lines[i + 1].startswith("$ "):
                yield i + 1, j
            i = j + 1
        else:
            i += 1


def run_block(block, binary, source, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "build"))
    for d in ("samples", "tests", "docs"):
        os.symlink(os.path.join(source, d), os.path.join(work, d))
    os.symlink(binary, os.path.join(work, "build", "ptx2amdgpu"))
    env = dict(os.environ, NO_COLOR="1", PATH="/usr/lib/llvm-19/bin:" + os.environ.get("PATH", ""))
    commands = []  # (command, expected lines)
    for line in block:
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            commands[-1][1].append(line)
    results = []
    for cmd, expected in commands:
        p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=600)
        results.append((cmd, "\n".join(expected), p.stdout.decode("utf-8", "replace")))
    return results


def main():
    binary, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
    update = "--update" in sys.argv[4:]
    path = os.path.join(source, "README.md")
    lines = open(path, encoding="utf-8").read().split("\n")
    failures = 0
    count = 0
    new_lines = list(lines)
    offset = 0
    for start, end in examples(lines):
        results = run_block(lines[start:end], binary, source, os.path.join(work, "example%d" % count))
        count += len(results)
        replacement = []
        for cmd, expected, actual in results:
            replacement.append("$ " + cmd)
            replacement.extend(actual.rstrip("\n").split("\n") if actual.strip() else [])
            if normalise(expected) != normalise(actual):
                failures += 1
                print("README example differs: $ %s\n--- README\n%s\n--- actual\n%s\n" % (cmd, expected, actual))
        new_lines[start + offset:end + offset] = replacement
        offset += len(replacement) - (end - start)
    if update:
        open(path, "w", encoding="utf-8").write("\n".join(new_lines))
        print("README.md: %d example commands rerun and written" % count)
        return 0
    print("%d README example commands run, %d differ" % (count, failures))
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
