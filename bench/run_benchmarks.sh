#!/usr/bin/env bash
# Benchmarks for ptx2amdgpu against the real tools on this machine.
# Prints one line per result: times, rates and ratios from one run of this
# script. Nothing here asserts on time. See bench/README.md for what each line
# means and how to read it.
#
#   bash bench/run_benchmarks.sh
#
# Environment (all optional):
#   PTX2AMDGPU          binary to time (default: build/ptx2amdgpu; copied to a
#                       temp dir first so a rebuild during the run cannot change it)
#   LLVM_MC             llvm-mc to compare with (default: llvm-mc-19, else llvm-mc)
#   PTXAS               ptxas (default: from PATH, else /usr/local/cuda*/bin/ptxas)
#   BENCH_RUNS          timed runs per command, the median is reported (default 5)
#   BENCH_NO_HYPERFINE  1: use the built-in timer even if hyperfine is installed
#   BENCH_PROBE_SIZES   snippet sizes for the explain scaling probe (default "1000 2000 4000")
#   BENCH_PROBE_LIMIT   seconds allowed per probe size (default 60)
#   BENCH_VERIFY_LIMIT  seconds allowed for rules --verify (default 300)
#   BENCH_KEEP          1: keep the work directory (its path is printed)
#
# A step whose command fails prints FAILED with the exit status and the first
# error line, and the script goes on with the next step; it exits 1 at the end
# if any step failed (2 if a tool is missing).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
RUNS="${BENCH_RUNS:-5}"
N=20000          # instructions in the Logic & Shift corpus
SEED=1           # corpus seed
FUNC=200         # instructions per .entry in the module form of the corpus
SHA_COPIES=20    # copies of samples/sha256/sha256.ptx's functions in the big module
PROBE_SIZES="${BENCH_PROBE_SIZES:-1000 2000 4000}"
PROBE_LIMIT="${BENCH_PROBE_LIMIT:-60}"
VERIFY_LIMIT="${BENCH_VERIFY_LIMIT:-300}"
MCPU=gfx942
TRIPLE=amdgcn-amd-amdhsa
FAILED_STEPS=0

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

# --- running and timing -----------------------------------------------------------
# first_error FILE: the first line of a tool's stderr worth showing.
first_error() {
  grep -m1 -vE '^[[:space:]]*($|#|\^|Stack dump|PLEASE|[0-9]+\.[[:space:]])' "$1" 2>/dev/null | cut -c1-220 || true
}

# run_quiet CMD...: run once, stdout and stderr to $WORK/last.{out,err}; sets RC.
# The { } 2>/dev/null keeps bash's "Aborted" job message off the report.
run_quiet() {
  RC=0
  { "$@" >"$WORK/last.out" 2>"$WORK/last.err"; } 2>/dev/null || RC=$?
}

# time_median OUTVAR CMD...: one warm-up run (which must succeed), then $RUNS
# timed runs; sets OUTVAR to the median in seconds, or to "" if the command
# failed (then FAIL_MSG says why). With NOWARM=1 the warm-up is skipped (for a
# heavy command whose input was just processed by a similar run). The
# arguments must not contain spaces (hyperfine -N splits on whitespace).
time_median() {
  local __out="$1"; shift
  printf -v "$__out" '%s' ""
  if [[ "${NOWARM:-0}" != 1 ]]; then
    run_quiet "$@"
    if [[ "$RC" != 0 ]]; then
      FAIL_MSG="exit $RC: $(first_error "$WORK/last.err")"
      return 0
    fi
  fi
  local med
  if [[ -n "$HYPERFINE" ]]; then
    if ! "$HYPERFINE" -N --style none --runs "$RUNS" --export-json "$WORK/hf.json" "$*" >/dev/null 2>"$WORK/hf.err"; then
      FAIL_MSG="hyperfine: $(first_error "$WORK/hf.err")"
      return 0
    fi
    med="$(python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$WORK/hf.json")"
  else
    local ts=() t0 t1 i
    for ((i = 0; i < RUNS; i++)); do
      t0=$(date +%s%N)
      run_quiet "$@"
      t1=$(date +%s%N)
      if [[ "$RC" != 0 ]]; then
        FAIL_MSG="exit $RC on run $((i + 1)): $(first_error "$WORK/last.err")"
        return 0
      fi
      ts+=($((t1 - t0)))
    done
    med="$(printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.6f", m / 1e9}')"
  fi
  printf -v "$__out" '%s' "$med"
}

# children_cpu OUTVAR: user+sys seconds of this shell's finished children so
# far, from the `times` builtin. Not to be called as $(children_cpu): a
# subshell has no finished children of its own.
children_cpu() {
  times >"$WORK/times"
  printf -v "$1" '%s' "$(awk 'NR == 2 {
    n = split($0, f, " "); s = 0
    for (i = 1; i <= n; i++) { split(f[i], p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
    printf "%.3f", s }' "$WORK/times")"
}

# time_once OUTVAR CMD...: one run, any exit status (in RC); stderr in
# $WORK/last.err. OUTVAR gets the wall time; CPU_S the CPU time (user+sys) of
# the command, which a busy machine disturbs less than the wall time.
time_once() {
  local __out="$1"; shift
  local t0 t1 c0 c1
  children_cpu c0
  t0=$(date +%s%N)
  run_quiet "$@"
  t1=$(date +%s%N)
  children_cpu c1
  CPU_S=$(awk -v a="$c1" -v b="$c0" 'BEGIN {printf "%.6f", a - b}')
  printf -v "$__out" '%s' "$(awk -v d=$((t1 - t0)) 'BEGIN {printf "%.6f", d / 1e9}')"
}

failed() { FAILED_STEPS=$((FAILED_STEPS + 1)); echo "$1: FAILED ($2)"; }

# Formatting helpers (awk, so no bc needed).
fmt_s()    { awk -v x="$1" 'BEGIN {printf (x < 10 ? "%.2f s" : "%.1f s"), x}'; }
fmt_rate() { awk -v n="$1" -v t="$2" -v u="$3" 'BEGIN {r = n / t; if (r >= 1e6) printf "%.2fM %s/s", r / 1e6, u; else if (r >= 1e3) printf "%.1fk %s/s", r / 1e3, u; else printf "%.0f %s/s", r, u}'; }
ratio()    { awk -v a="$1" -v b="$2" 'BEGIN {printf (a / b < 10 ? "%.2f" : "%.1f"), a / b}'; }
expo()     { awk -v a="$1" -v b="$2" -v m="$3" -v k="$4" 'BEGIN {printf "%.1f", log(a / b) / log(m / k)}'; }
same_obj() { cmp -s "$1" "$2" && echo "identical" || echo "DIFFER"; }
asm_lines(){ grep -cvE '^[[:space:]]*(;|$)' "$1" || true; }

# --- header ------------------------------------------------------------------
echo "== ptx2amdgpu benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%d MiB", $2/1024}' /proc/meminfo), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ptx2amdgpu: $("$P2A" --version 2>&1 | head -1) ($SRC_BIN, file time $(date -u -r "$SRC_BIN" '+%Y-%m-%d %H:%M UTC'); work tree now: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO" diff --quiet HEAD 2>/dev/null || echo ' + local changes'))"
echo "llvm-mc: $("$LLVM_MC" --version | grep -m1 -i 'llvm version' | sed 's/^ *//') ($LLVM_MC)"
if [[ -n "$PTXAS" ]]; then
  echo "ptxas: $("$PTXAS" --version | grep -m1 -E 'release|V[0-9]') ($PTXAS)"
else
  echo "ptxas: not found (the ptxas comparison in c is skipped)"
fi
echo "timer: $([[ -n "$HYPERFINE" ]] && echo "hyperfine ($("$HYPERFINE" --version))" || echo "date +%s%N"), median of $RUNS runs after a warm-up run; -mcpu=$MCPU"
echo

# --- inputs ------------------------------------------------------------------
GEN="$HERE/gen_corpus.py"
python3 "$GEN" snippet --n "$N" --seed "$SEED" --wrap "$FUNC" -o "$WORK/corpus_module.ptx"
python3 "$GEN" snippet --n "$FUNC" --seed "$SEED" -o "$WORK/corpus_$FUNC.ptx"
python3 "$GEN" module --copies "$SHA_COPIES" -o "$WORK/sha256_x$SHA_COPIES.ptx" "$REPO/samples/sha256/sha256.ptx"
nforms=$(grep -oE '^(and|or|xor|not|cnot|lop3|shf|shl|shr)(\.[a-z0-9]+)+' "$WORK/corpus_module.ptx" | sort -u | wc -l)
line="corpus: $N instrs, seed $SEED, $nforms forms"
# The corpus is real PTX: ptxas must accept its module form (not timed).
if [[ -n "$PTXAS" ]]; then
  run_quiet "$PTXAS" -arch=sm_90 -o "$WORK/corpus_module.cubin" "$WORK/corpus_module.ptx"
  if [[ "$RC" == 0 ]]; then line+="; ptxas -arch=sm_90 accepts its module form"; else line+="; ptxas REJECTS it: $(first_error "$WORK/last.err")"; fi
fi
echo "$line"

# --- 0. process start-up, for scale ------------------------------------------
: >"$WORK/empty.s"
time_median t_ver "$P2A" --version
time_median t_mc0 "$LLVM_MC" -triple=$TRIPLE -mcpu=$MCPU -filetype=obj -o "$WORK/empty.o" "$WORK/empty.s"
echo "0. start-up: ptx2amdgpu --version: $([[ -n "$t_ver" ]] && fmt_s "$t_ver" || echo FAILED); llvm-mc on an empty file: $([[ -n "$t_mc0" ]] && fmt_s "$t_mc0" || echo FAILED)"

# --- b. translation + in-process MC vs llvm-mc on the same assembly ------------
# b1: the whole corpus as a module of .entry functions of $FUNC instructions
# (translated and register-allocated per function), in one process. llvm-mc
# gets the same tool's -filetype=asm output for the same file.
label="b1. translate $N instrs (module of $((  (N + FUNC - 1) / FUNC )) .entry functions of $FUNC, one process)"
run_quiet "$P2A" -mcpu=$MCPU -filetype=asm -o "$WORK/corpus_module.s" "$WORK/corpus_module.ptx"
if [[ "$RC" != 0 ]]; then
  failed "$label" "exit $RC: $(first_error "$WORK/last.err")"
else
  # (the -filetype=asm run above is the warm-up)
  NOWARM=1 time_median t_tr "$P2A" -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_module.o" "$WORK/corpus_module.ptx"
  if [[ -z "$t_tr" ]]; then failed "$label" "$FAIL_MSG"; else
    time_median t_mc "$LLVM_MC" -triple=$TRIPLE -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_module.mc.o" "$WORK/corpus_module.s"
    if [[ -z "$t_mc" ]]; then failed "$label: llvm-mc" "$FAIL_MSG"; else
      echo "$label: $(fmt_s "$t_tr") ($(fmt_rate "$N" "$t_tr" instr)), $(asm_lines "$WORK/corpus_module.s") AMD instrs; llvm-mc on the output: $(fmt_s "$t_mc"); ratio $(ratio "$t_tr" "$t_mc"); objects $(same_obj "$WORK/corpus_module.o" "$WORK/corpus_module.mc.o")"
    fi
  fi
fi

# b2: `explain` on one snippet: the first $FUNC instructions of the same corpus
# (bench_k0's body). llvm-mc gets the text output's non-comment lines.
label="b2. explain $FUNC instrs (one snippet)"
run_quiet "$P2A" explain -mcpu=$MCPU "$WORK/corpus_$FUNC.ptx"
if [[ "$RC" != 0 ]]; then
  failed "$label" "exit $RC: $(first_error "$WORK/last.err")"
else
  grep -vE '^[[:space:]]*(;|$)' "$WORK/last.out" >"$WORK/corpus_$FUNC.s" || true
  time_median t_ex "$P2A" explain -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_$FUNC.o" "$WORK/corpus_$FUNC.ptx"
  if [[ -z "$t_ex" ]]; then failed "$label" "$FAIL_MSG"; else
    time_median t_exmc "$LLVM_MC" -triple=$TRIPLE -mcpu=$MCPU -filetype=obj -o "$WORK/corpus_$FUNC.mc.o" "$WORK/corpus_$FUNC.s"
    if [[ -z "$t_exmc" ]]; then failed "$label: llvm-mc" "$FAIL_MSG"; else
      echo "$label: $(fmt_s "$t_ex") ($(fmt_rate "$FUNC" "$t_ex" instr)), $(asm_lines "$WORK/corpus_$FUNC.s") AMD instrs; llvm-mc on the output: $(fmt_s "$t_exmc"); ratio $(ratio "$t_ex" "$t_exmc"); objects $(same_obj "$WORK/corpus_$FUNC.o" "$WORK/corpus_$FUNC.mc.o")"
    fi
  fi
fi

# b3: `explain` on one big snippet, the literal form of this benchmark, does
# not work today (README, "Problems found"): every PTX register and temporary
# gets its own VGPR, so translation runs out of registers after a few hundred
# instructions, and lowering copies the whole function per instruction, so
# the time grows quadratically. One run per size, any exit status.
prev=""; prev_n=""
line="b3. explain scaling probe (one snippet, one run each):"
for n in $PROBE_SIZES; do
  python3 "$GEN" snippet --n "$n" --seed "$SEED" -o "$WORK/probe_$n.ptx"
  time_once t_p timeout "$PROBE_LIMIT" "$P2A" explain -mcpu=$MCPU -filetype=obj -o "$WORK/probe_$n.o" "$WORK/probe_$n.ptx"
  if [[ "$RC" == 124 ]]; then
    line+=" $n instrs: stopped at the ${PROBE_LIMIT} s limit (BENCH_PROBE_LIMIT)"
    break
  fi
  item=" $n instrs: $(fmt_s "$t_p") ($(fmt_s "$CPU_S") CPU), exit $RC"
  if [[ "$RC" != 0 ]]; then
    nerr=$(grep -c 'error:' "$WORK/last.err" || true)
    what=$(grep -m1 -oE 'error: .*' "$WORK/last.err" | sed -E 's/.*: (register index is out of range|literal operands are not supported)$/\1/' | cut -c1-120 || true)
    item+=" ($nerr errors, first: $what)"
  fi
  [[ -n "$prev" ]] && item+=", CPU x$(ratio "$CPU_S" "$prev") for x$(ratio "$n" "$prev_n") instrs (CPU ~ n^$(expo "$CPU_S" "$prev" "$n" "$prev_n"))"
  line+="$item;"
  prev="$CPU_S"; prev_n="$n"
done
echo "${line%;}"

# --- c. parse-only on a large real module vs ptxas ---------------------------
MOD="$WORK/sha256_x$SHA_COPIES.ptx"
nlines=$(wc -l <"$MOD")
nent=$(grep -c '\.entry' "$MOD")
label="c. -fsyntax-only sha256.ptx x$SHA_COPIES ($nlines lines, $nent entries)"
time_median t_fs "$P2A" -fsyntax-only "$MOD"
if [[ -z "$t_fs" ]]; then
  failed "$label" "$FAIL_MSG"
elif [[ -z "$PTXAS" ]]; then
  echo "$label: $(fmt_s "$t_fs") ($(fmt_rate "$nlines" "$t_fs" line)); ptxas not found: comparison skipped"
else
  NOWARM=1 time_median t_px "$PTXAS" -arch=sm_90 -o /dev/null "$MOD"  # ptxas is warm from the corpus check
  if [[ -z "$t_px" ]]; then failed "$label: ptxas" "$FAIL_MSG"; else
    echo "$label: $(fmt_s "$t_fs") ($(fmt_rate "$nlines" "$t_fs" line)); ptxas -arch=sm_90 (full compile): $(fmt_s "$t_px") ($(fmt_rate "$nlines" "$t_px" line)); ratio $(ratio "$t_fs" "$t_px")"
  fi
fi

# --- d. the whole rule table, proved --------------------------------------------
label="d. rules --verify (whole table, once, default threads = $(nproc))"
time_once t_v timeout "$VERIFY_LIMIT" "$P2A" rules --verify
if [[ "$RC" == 124 ]]; then
  failed "$label" "did not finish within the ${VERIFY_LIMIT} s limit (BENCH_VERIFY_LIMIT)"
elif [[ "$RC" == 0 ]]; then
  summary=$(grep -m1 '^verify:' "$WORK/last.err" | sed 's/^verify: //' || true)
  echo "$label: $(fmt_s "$t_v") ($(fmt_s "$CPU_S") CPU)${summary:+; $summary}"
else
  failed "$label" "exit $RC after $(fmt_s "$t_v"): $(first_error "$WORK/last.err")"
fi

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
[[ "$FAILED_STEPS" == 0 ]] || { echo; echo "$FAILED_STEPS step(s) FAILED"; exit 1; }
