#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds ptx2amdgpu and runs it on samples/:
# checks every sample parses, translates the inline-asm snippets on every
# target, proves the rule table and compares instruction counts with llc.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2 --target ptx2amdgpu
P=build/ptx2amdgpu
TARGETS="gfx900 gfx90a gfx942 gfx1030 gfx1100 gfx1200"

echo "== 1. every sample parses (nvcc 13 modules and inline-asm snippets)"
find samples -name '*.ptx' | sort | xargs "$P" -fsyntax-only
echo "   $(find samples -name '*.ptx' | wc -l) files, no syntax errors"

echo
echo "== 2. the founding example, explained for gfx942"
"$P" explain -mcpu=gfx942 'shf.l.wrap.b32 %0, %1, %1, 7;'

echo
echo "== 3. each snippet in samples/snippets on every target (assembled by LLVM MC)"
for f in samples/snippets/*.ptx; do
  for t in $TARGETS; do
    "$P" explain -mcpu="$t" "$f" >/dev/null
  done
  echo "   $f: ok on $TARGETS"
done
"$P" explain -mcpu=gfx1100 samples/snippets/funnel_clamp.ptx

echo
echo "== 4. the rule table, proved with Z3 on every target"
"$P" rules --verify >/dev/null

echo
echo "== 5. instruction counts against LLVM 19 llc -O3"
"$P" compare --llc=bench/llc_compare/llc_counts.json | sed -n '/^| PTX form/,/^$/p' | grep -E 'PTX form|shf|shl.b32|lop3.and'

echo
echo "== 6. batch run over the nvcc modules, with a side-by-side HTML report"
echo "   (whole kernels need loads and branches, the next issue: these fail with"
echo "   located errors and write no output; the summary counts what is missing)"

"$P" samples/sha256 samples/chacha20 samples/siphash samples/bittwiddle -o build/demo-out \
  -mcpu=gfx1100 -ferror-limit=1 --report=build/demo-report.html 2>&1 | tail -n 3 || true
echo "   report: build/demo-report.html"
