#!/usr/bin/env bash
# port-asm against translating PTX, on the port fixtures (tests/port/*.cu,
# CUDA with inline PTX in the styles real code bases use). For each kernel
# and GPU, side by side:
#   from PTX: nvcc -ptx of the original source, translated by ptx2amdgpu;
#   ported:   port-asm of the source, compiled by clang-19 -O3 as HIP
#             (tests/port/hip_shim.h for the HIP headers).
# VALU and SALU instruction counts and VGPRs of each, and the estimated
# cycles of one block of 64 threads from `check` (the emulator's estimate:
# LLVM's scheduling model and fixed memory latencies), where both sides also
# agree with the PTX. One run; nothing is asserted. Needs nvcc (CUDA 12+)
# and clang-19.
set -euo pipefail
cd "$(dirname "$0")/.."
P=$(realpath build/ptx2amdgpu)
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc 2>/dev/null | head -1 || true)
SHIM=$(realpath tests/port/hip_shim.h)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ -n "$NVCC" ] || { echo "port_compare: nvcc not found" >&2; exit 2; }

counts() { # assembly file -> "VALU/SALU/VGPRs"
  echo "$(grep -cE '^\s+v_' "$1")/$(grep -cE '^\s+s_' "$1")/$(grep -m1 -E '\.vgpr_count' "$1" | awk '{ print $2 }')"
}

cp tests/port/*.cu tests/port/*.h "$W/"
mkdir -p "$W/ported"
"$P" port-asm tests/port/helpers.cu tests/port/bignum.h tests/port/bignum.cu -o "$W/ported" 2>"$W/port.err" ||
  { cat "$W/port.err" >&2; exit 1; }
echo "port-asm: $(tail -1 "$W/port.err")"
printf "%-10s %-8s %24s %10s %24s %10s\n" kernel gpu "from PTX VALU/SALU/VGPR" cycles "ported VALU/SALU/VGPR" cycles
cycles() { # check output -> estimated cycles, or FAIL
  grep -oE 'about [0-9]+ cycles' <<<"$1" | grep -oE '[0-9]+' || echo FAIL
}
for k in helpers bignum; do
  "$NVCC" -ptx -O3 -arch=sm_80 "$W/$k.cu" -o "$W/$k.ptx"
  for gpu in gfx942 gfx1100; do
    "$P" "$W/$k.ptx" -mcpu="$gpu" -o "$W/t.s"
    tc=$(cycles "$("$P" check "$W/$k.ptx" -mcpu="$gpu" --trials 1 2>&1 || true)")
    clang-19 -x hip --cuda-device-only -nogpuinc -nogpulib -O3 --offload-arch="$gpu" -include "$SHIM" \
      -S "$W/ported/tests/port/$k.cu" -o "$W/c.s"
    clang-19 -x hip --cuda-device-only -nogpuinc -nogpulib -O3 --offload-arch="$gpu" -include "$SHIM" \
      -c --no-gpu-bundle-output "$W/ported/tests/port/$k.cu" -o "$W/c.hsaco"
    pc=$(cycles "$("$P" check "$W/$k.ptx" --amd "$W/c.hsaco" -mcpu="$gpu" --trials 1 2>&1 || true)")
    printf "%-10s %-8s %24s %10s %24s %10s\n" "$k" "$gpu" "$(counts "$W/t.s")" "$tc" "$(counts "$W/c.s")" "$pc"
  done
done
