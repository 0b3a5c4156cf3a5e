#!/usr/bin/env bash
# Installs everything ptx2amdgpu needs from Debian packages (nothing vendored).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
  cmake g++ make ninja-build \
  llvm-19-dev llvm-19-tools lld-19 libboost1.81-dev doctest-dev libz3-dev zlib1g-dev libzstd-dev libjemalloc-dev \
  python3 chromium fonts-dejavu-core clang-19 libclang-rt-19-dev time
# python3 and chromium: the HTML report test renders the report headless;
# clang-19 and its runtime: the libFuzzer job (scripts/fuzz.sh).
# ninja-build: the build (scripts/test.sh). libjemalloc-dev: the translator's malloc (CMakeLists.txt). time: the
# benchmarks' peak memory (bench/scaling.py).
