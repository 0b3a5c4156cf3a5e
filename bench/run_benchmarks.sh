#!/usr/bin/env bash
# Benchmarks for ptx2amdgpu against the real tools on this machine.
# Prints one line per result (ratios from one run of this script; nothing here
# asserts on time). See bench/README.md for what each line means.
#
#   bash bench/run_benchmarks.sh
#
# Environment (all optional):
#   PTX2AMDGPU          binary to time (default: build/ptx2amdgpu; copied to a
#                       temp dir first so a rebuild during the run cannot change it)
#   LLVM_MC             llvm-mc to compare with (default: llvm-mc-19, else llvm-mc)
#   PTXAS               ptxas (default: from PATH, else /usr/local/cuda*/bin/ptxas)
#   BENCH_RUNS          timed runs per command, median reported (default 5)
#   BENCH_NO_HYPERFINE  set to 1 to use the built-in timer even if hyperfine exists
#   BENCH_PROBE_SIZES   snippet sizes for the explain scaling probe (default "1000 2000 4000")
#   BENCH_KEEP          set to 1 to keep the work directory (its path is printed)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
RUNS="${BENCH_RUNS:-5}"
N=20000          # instructions in the Logic & Shift corpus
SEED=1           # corpus seed
FUNC=200         # instructions per .entry in the module form of the corpus
SHA_COPIES=40    # copies of samples/sha256/sha256.ptx's functions in the big module
PROBE_SIZES="${BENCH_PROBE_SIZES:-1000 2000 4000}"
MCPU=gfx942
TRIPLE=amdgcn-amd-amdhsa

WORK="$(mktemp -d /tmp/ptx2amdgpu-bench.XXXXXX)"
if [[ "${BENCH_KEEP:-0}" == 1 ]]; then
  echo "work directory: $WORK (kept)"
else
  trap 'rm -rf "$WORK"' EXIT
fi

# --- tools -------------------------------------------------------------------
SRC_BIN="${PTX2AMDGPU:-$REPO/build/ptx2amdgpu}"
[[ -x "$SRC_BIN" ]] || { echo "error: $SRC_BIN not found or not executable (build it, or set PTX2AMDGPU)" >&2; exit 2; }
cp "$SRC_BIN" "$WORK/ptx2amdgpu"
P2A="$WORK/ptx2amdgpu"

LLVM_MC="${LLVM_MC:-$(command -v llvm-mc-19 || command -v llvm-mc || true)}"
[[ -n "$LLVM_MC" ]] || { echo "error: llvm-mc-19 not found (set LLVM_MC)" >&2; exit 2; }

PTXAS="${PTXAS:-$(command -v ptxas || true)}"
if [[ -z "$PTXAS" ]]; then
  for p in /usr/local/cuda*/bin/ptxas; do [[ -x "$p" ]] && PTXAS="$p" && break; done
fi

HYPERFINE=""
if [[ "${BENCH_NO_HYPERFINE:-0}" != 1 ]] && command -v hyperfine >/dev/null 2>&1; then
  HYPERFINE="$(command -v hyperfine)"
fi

# --- timing ------------------------------------------------------------------
# time_median OUTVAR CMD...: one warm-up run, then $RUNS timed runs of CMD
# (stdout and stderr discarded); sets OUTVAR to the median in seconds.
# CMD must succeed; the arguments must not contain spaces (hyperfine -N).
time_median() {
  local __out="$1"; shift
  local med
  if [[ -n "$HYPERFINE" ]]; then
    "$HYPERFINE" -N --style none --warmup 1 --runs "$RUNS" --export-json "$WORK/hf.json" "$*" >/dev/null
    med="$(python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$WORK/hf.json")"
  else
    "$@" >/dev/null 2>&1 || { echo "error: command failed: $*" >&2; exit 1; }
    local ts=() t0 t1 i
    for ((i = 0; i < RUNS; i++)); do
      t0=$(date +%s%N)
      "$@" >/dev/null 2>&1 || { echo "error: command failed: $*" >&2; exit 1; }
      t1=$(date +%s%N)
      ts+=($((t1 - t0)))
    done
    med="$(printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.6f", m / 1e9}')"
  fi
  printf -v "$__out" '%s' "$med"
}

# time_once OUTVAR RCVAR CMD...: one run, any exit status; stderr to $WORK/once.err.
time_once() {
  local __out="$1" __rc="$2"; shift 2
  local t0 t1 rc=0
  t0=$(date +%s%N)
  "$@" >/dev/null 2>"$WORK/once.err" || rc=$?
  t1=$(date +%s%N)
  printf -v "$__out" '%s' "$(awk -v d=$((t1 - t0)) 'BEGIN {printf "%.6f", d / 1e9}')"
  printf -v "$__rc" '%s' "$rc"
}

# Formatting helpers (awk, so no bc needed).
fmt_s()    { awk -v x="$1" 'BEGIN {printf (x < 10 ? "%.2f s" : "%.1f s"), x}'; }
fmt_rate() { awk -v n="$1" -v t="$2" -v u="$3" 'BEGIN {r = n / t; if (r >= 1e6) printf "%.2fM %s/s", r / 1e6, u; else if (r >= 1e3) printf "%.1fk %s/s", r / 1e3, u; else printf "%.0f %s/s", r, u}'; }
ratio()    { awk -v a="$1" -v b="$2" 'BEGIN {printf (a / b < 10 ? "%.2f" : "%.1f"), a / b}'; }
same_obj() { cmp -s "$1" "$2" && echo "identical" || echo "DIFFER"; }
asm_lines(){ grep -cvE '^[[:space:]]*(;|$)' "$1"; }

# --- header ------------------------------------------------------------------
echo "== ptx2amdgpu benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(awk '{printf "%d MiB", $2/1024}' <(grep MemTotal /proc/meminfo)), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ptx2amdgpu: $("$P2A" --version 2>&1 | head -1) ($SRC_BIN, built $(date -u -r "$SRC_BIN" '+%Y-%m-%d %H:%M UTC'); tree $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO" diff --quiet HEAD 2>/dev/null || echo ' + local changes'))"
echo "llvm-mc: $("$LLVM_MC" --version | grep -m1 -i 'llvm version' | sed 's/^ *//') ($LLVM_MC)"
if [[ -n "$PTXAS" ]]; then
  echo "ptxas: $("$PTXAS" --version | grep -m1 -E 'release|V[0-9]') ($PTXAS)"
else
  echo "ptxas: not found (benchmark c is skipped)"
fi
echo "timer: $([[ -n "$HYPERFINE" ]] && echo "hyperfine ($("$HYPERFINE" --version))" || echo "date +%s%N"), 1 warm-up + median of $RUNS runs; -mcpu=$MCPU"
echo

# --- inputs ------------------------------------------------------------------
GEN="$HERE/gen_corpus.py"
python3 "$GEN" snippet --n "$N" --seed "$SEED" --wrap "$FUNC" -o "$WORK/corpus_module.ptx"
python3 "$GEN" snippet --n "$FUNC" --seed "$SEED" -o "$WORK/corpus_$FUNC.ptx"
python3 "$GEN" module --copies "$SHA_COPIES" -o "$WORK/sha256_x$SHA_COPIES.ptx" "$REPO/samples/sha256/sha256.ptx"

# --- 0. process start-up, for scale ------------------------------------------
time_median t_ver "$P2A" --version
: >"$WORK/empty.s"
time_median t_mc0 "$LLVM_MC" -triple=$TRIPLE -mcpu=$MCPU -filetype=obj -o "$WORK/empty.o" "$WORK/empty.s"
echo "0. start-up: ptx2amdgpu --version: $(fmt_s "$t_ver"); llvm-mc on an empty file: $(fmt_s "$t_mc0")"

# --- b. translation + in-process MC vs llvm-mc on the same assembly ------------
# b1: the whole corpus, as a module of .entry functions of $FUNC instructions
# (translated and register-allocated per function), in one process.
"$P2A" -mcpu=$MCPU -filetype=asm -o "$WORK/corpus_module.s" "$WORK/corpus_module.ptx"
time_median t_tr "$P2A" -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_module.o" "$WORK/corpus_module.ptx"
time_median t_mc "$LLVM_MC" -triple=$TRIPLE -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_module.mc.o" "$WORK/corpus_module.s"
nfun=$(grep -c '\.entry' "$WORK/corpus_module.ptx")
echo "b1. translate $N instrs ($nfun .entry functions of $FUNC, one process; $(asm_lines "$WORK/corpus_module.s") AMD instrs): $(fmt_s "$t_tr") ($(fmt_rate "$N" "$t_tr" instr)); llvm-mc on the output: $(fmt_s "$t_mc"); ratio $(ratio "$t_tr" "$t_mc"); objects $(same_obj "$WORK/corpus_module.o" "$WORK/corpus_module.mc.o")"

# b2: `explain` on one snippet: the first $FUNC instructions of the same corpus
# (function bench_k0 above). The assembly is the text output's non-comment lines.
"$P2A" explain -mcpu=$MCPU "$WORK/corpus_$FUNC.ptx" | grep -vE '^[[:space:]]*(;|$)' >"$WORK/corpus_$FUNC.s"
time_median t_ex "$P2A" explain -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_$FUNC.o" "$WORK/corpus_$FUNC.ptx"
time_median t_exmc "$LLVM_MC" -triple=$TRIPLE -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_$FUNC.mc.o" "$WORK/corpus_$FUNC.s"
echo "b2. explain $FUNC instrs (one snippet; $(asm_lines "$WORK/corpus_$FUNC.s") AMD instrs): $(fmt_s "$t_ex") ($(fmt_rate "$FUNC" "$t_ex" instr)); llvm-mc on the output: $(fmt_s "$t_exmc"); ratio $(ratio "$t_ex" "$t_exmc"); objects $(same_obj "$WORK/corpus_$FUNC.o" "$WORK/corpus_$FUNC.mc.o")"

# b3: `explain` on one big snippet does not work today (README, "Problems
# found"): every PTX register and temporary gets its own VGPR, so it runs out
# past a few hundred instructions, and lowering copies the whole function per
# instruction, so the time grows quadratically. One run per size, any exit status.
prev=""; prev_n=""
line="b3. explain scaling probe (one snippet, one run each):"
for n in $PROBE_SIZES; do
  python3 "$GEN" snippet --n "$n" --seed "$SEED" -o "$WORK/probe_$n.ptx"
  time_once t_p rc_p "$P2A" explain -mcpu=$MCPU -filetype=obj -o "$WORK/probe_$n.o" "$WORK/probe_$n.ptx"
  nerr=$(grep -c 'error:' "$WORK/once.err" || true)
  what=$(grep -m1 -oE "error: .*" "$WORK/once.err" | sed -E "s/.*: (register index is out of range|literal operands are not supported|.{0,60}).*/\1/" || true)
  item=" $n instrs: $(fmt_s "$t_p"), exit $rc_p"
  [[ "$rc_p" != 0 ]] && item+=" ($nerr errors, first: $what)"
  [[ -n "$prev" ]] && item+=", x$(ratio "$t_p" "$prev") for x$(ratio "$n" "$prev_n") instrs"
  line+="$item;"
  prev="$t_p"; prev_n="$n"
done
echo "${line%;}"

# --- c. parse-only on a large real module vs ptxas ---------------------------
MOD="$WORK/sha256_x$SHA_COPIES.ptx"
nlines=$(wc -l <"$MOD")
nent=$(grep -c '\.entry' "$MOD")
time_median t_fs "$P2A" -fsyntax-only "$MOD"
if [[ -n "$PTXAS" ]]; then
  time_median t_px "$PTXAS" -arch=sm_90 -o /dev/null "$MOD"
  echo "c. -fsyntax-only sha256.ptx x$SHA_COPIES ($nlines lines, $nent entries): $(fmt_s "$t_fs") ($(fmt_rate "$nlines" "$t_fs" line)); ptxas -arch=sm_90 (full compile): $(fmt_s "$t_px") ($(fmt_rate "$nlines" "$t_px" line)); ratio $(ratio "$t_fs" "$t_px")"
else
  echo "c. -fsyntax-only sha256.ptx x$SHA_COPIES ($nlines lines, $nent entries): $(fmt_s "$t_fs") ($(fmt_rate "$nlines" "$t_fs" line)); ptxas not found: comparison skipped"
fi

# --- d. the whole rule table, proved --------------------------------------------
time_once t_v rc_v "$P2A" rules --verify
summary=$(grep -m1 '^verify:' "$WORK/once.err" | sed 's/^verify: //' || true)
echo "d. rules --verify (whole table, once, $(nproc) threads): $(fmt_s "$t_v"), exit $rc_v${summary:+; $summary}"
