#!/usr/bin/env bash
# Builds the libFuzzer target (grammar + translator + LLVM MC, with ASan and
# UBSan, by clang-19) and runs it for a bounded time, seeded with every .ptx
# under samples/, tests/hostile/ and tests/kernels/ (atomics, ptxas operand forms),
# and the CUDA sources of samples/port/ and tests/port/ (port-asm). Fails on any crash, sanitizer report,
# leak or timeout; the reproducer is left in build-fuzz/artifacts/.
#   scripts/fuzz.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
# (Ninja where installed, as scripts/test.sh explains.)
if command -v ninja >/dev/null; then export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"; fi
CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DP2A_FUZZ=ON >/dev/null
cmake --build build-fuzz -j2 --target ptx_fuzzer
corpus="build-fuzz/corpus"
rm -rf "$corpus" build-fuzz/artifacts
mkdir -p "$corpus" build-fuzz/artifacts
i=0
while IFS= read -r -d '' f; do
  # The first byte picks the target (see tests/fuzz/ptx_fuzzer.cpp): one seed per target.
  for t in 0 1 2 3 4 5; do
    { printf "\\x$(printf %02x "$t")"; cat "$f"; } > "$corpus/seed-$i-$t"
  done
  i=$((i + 1))
done < <(find samples tests/hostile tests/kernels -name '*.ptx' -print0 | sort -z)
# CUDA sources with inline asm go to port-asm (a first byte of 0x80 or more).
while IFS= read -r -d '' f; do
  for t in 80 81; do
    { printf "\\x$t"; cat "$f"; } > "$corpus/seed-$i-$t"
  done
  i=$((i + 1))
done < <(find samples/port tests/port \( -name '*.cu*' -o -name '*.h' \) -print0 | sort -z)
echo "fuzz: $i seed files x 6 targets, ${seconds} s"
# -timeout: one input taking longer is a hang; -rss_limit_mb: a memory blow-up;
# -max_len: seeds are cut to 16 KiB so that mutations run at hundreds per second.
ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
  build-fuzz/ptx_fuzzer -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix=build-fuzz/artifacts/ "$corpus"
