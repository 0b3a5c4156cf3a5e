#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds ptx2amdgpu and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
stage() { echo "== $(date -u +%H:%M:%S) $*"; }
stage setup
bash scripts/setup.sh
# Ninja where it is installed (scripts/setup.sh installs it): the folder
# libraries are unity builds of one to three files each, and Make builds a
# library's objects only once the libraries below it are linked, which left
# one of the two cores idle for much of the build. (A tree configured before
# keeps its generator.)
if command -v ninja >/dev/null; then export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"; fi
stage release build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2
stage release tests
(cd build && ctest --output-on-failure -j2)

# The same suite again in one clang-19 tree instrumented with AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage: that tree also builds
# the fuzzer, so the two jobs share one build (two cores, one CI hour).
stage sanitizer build
CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DP2A_FUZZ=ON
cmake --build build-fuzz -j2
stage sanitizer tests
(cd build-fuzz && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j2)

# libFuzzer over grammar + translator + MC for a bounded time.
stage fuzz
bash scripts/fuzz.sh 60
stage done
