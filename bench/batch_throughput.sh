#!/usr/bin/env bash
# Batch throughput: files per second and PTX lines per second against -j, on
# a generated corpus of many PTX files (bench/gen_corpus.py, seeded), one run
# per -j value. Also checks that the outputs are byte-identical across -j.
# Nothing here asserts on time.
#
#   bash bench/batch_throughput.sh [FILES] [JOBS...]     (default: 200 files, -j 1 2)
#
# Environment: PTX2AMDGPU (default build/ptx2amdgpu), BENCH_KEEP=1 keeps the work dir.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
FILES="${1:-200}"
shift || true
JOBS=("$@")
[ ${#JOBS[@]} -eq 0 ] && JOBS=(1 2)
WORK="$(mktemp -d /tmp/ptx2amdgpu-batch.XXXXXX)"
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
BIN="$WORK/ptx2amdgpu"
cp "${PTX2AMDGPU:-$REPO/build/ptx2amdgpu}" "$BIN"

# The corpus: FILES modules in 10 directories; sizes vary with the seed
# (50..400 Logic & Shift instructions, functions of at most 100), and every
# 10th file is the SHA-256 sample (it fails: loads and branches do not
# translate yet), so the run has failures to report as a real tree would.
mkdir -p "$WORK/in"
for i in $(seq 0 $((FILES - 1))); do
  d="$WORK/in/d$((i % 10))"
  mkdir -p "$d"
  if [ $((i % 10)) -eq 9 ]; then
    cp "$REPO/samples/sha256/sha256.ptx" "$d/f$i.ptx"
  else
    python3 "$HERE/gen_corpus.py" snippet --n $((50 + (i * 37) % 350)) --seed "$i" --wrap 100 -o "$d/f$i.ptx"
  fi
done
LINES=$(cat "$WORK"/in/*/*.ptx | wc -l)
echo "corpus: $FILES files, $LINES lines, $(du -sh "$WORK/in" | cut -f1) ($(nproc) cores here)"
printf '%-4s %10s %10s %12s %8s\n' "-j" "seconds" "files/s" "lines/s" "speedup"
base=""
for j in "${JOBS[@]}"; do
  out="$WORK/out-j$j"
  t0=$(date +%s.%N)
  "$BIN" "$WORK/in" -o "$out" -j "$j" --stats=json -w -ferror-limit=1 >"$WORK/stats-j$j.json" 2>/dev/null || true
  t1=$(date +%s.%N)
  python3 - "$t0" "$t1" "$FILES" "$LINES" "$j" "${base:-}" "$WORK/stats-j$j.json" <<'PY'
import json, sys
t0, t1, files, lines, j, base, stats = sys.argv[1:8]
s = float(t1) - float(t0)
st = json.load(open(stats))
speed = f"{float(base) / s:.2f}x" if base else "1.00x"
print(f"{j:<4} {s:10.2f} {int(files) / s:10.1f} {int(lines) / s:12.0f} {speed:>8}"
      f"   ({st['files']['translated']} translated, {st['files']['failed']} failed)")
PY
  [ -z "$base" ] && base=$(python3 -c "print($t1 - $t0)")
done
first="$WORK/out-j${JOBS[0]}"
for j in "${JOBS[@]:1}"; do
  if diff -r "$first" "$WORK/out-j$j" >/dev/null; then
    echo "outputs with -j ${JOBS[0]} and -j $j: byte-identical"
  else
    echo "outputs with -j ${JOBS[0]} and -j $j: DIFFER"
    exit 1
  fi
done
