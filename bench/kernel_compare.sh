#!/usr/bin/env bash
# Whole kernels against the real compilers, one run: for each nvcc sample,
#   speed:   ptx2amdgpu (PTX -> ELF object) against ptxas -O3 on the same PTX
#            and clang-19 -O3 compiling the same CUDA source for the same GPU
#            (HIP mode, device only, bench/hip_shim/cuda_builtins.h for the
#            CUDA built-ins);
#   quality: our VALU and SALU instruction counts and VGPRs beside clang-19's.
#   run time: one 64-thread block of each kernel in the emulator (`check`'s
#            estimate from LLVM's scheduling model and fixed memory latencies),
#            ours beside clang-19's code object run by `check --amd`, on the
#            same inputs: instructions executed and estimated cycles.
# Each time is the median of 5 runs after one warm-up. Nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
P=$(realpath build/ptx2amdgpu)
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1 || true)
SHIM=$(realpath bench/hip_shim/cuda_builtins.h)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$P" "$W/ptx2amdgpu"
P="$W/ptx2amdgpu"
SAMPLES="sha256 chacha20 keccak murmur3 crc32 calls permute generic siphash"

median() { # command... -> median wall seconds of 5 runs (after a warm-up)
  "$@" >/dev/null 2>&1 || true
  for i in 1 2 3 4 5; do
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | sort -n | sed -n 3p | awk '{ printf "%.4f", $1 / 1e6 }'
}
clang_hip() { # sample gpu out
  clang-19 -x hip --cuda-device-only --no-gpu-bundle-output --offload-arch="$2" -nogpuinc -nogpulib -O3 -include "$SHIM" \
    -c "samples/$1/$1.cu" -o "$3"
}
counts() { # assembly file -> "VALU SALU"
  echo "$(grep -cE '^\s+v_' "$1") $(grep -cE '^\s+s_' "$1")"
}
scratch() { # assembly file -> private segment bytes over its kernels
  grep -oE 'private_segment_fixed_size [0-9]+' "$1" | awk '{ s += $2 } END { print s + 0 }'
}
ratio() { # a b -> a / b to two places, or n/a
  [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ && "$2" != 0 ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' ||
    echo n/a
}
declare -A QUALITY CYCLES # "gpu sample" -> "VALU-ratio VGPR-ratio scratch-ours scratch-clang", cycles ratio

echo "== speed (seconds, median of 5; ratio = ours / theirs, below 1 means faster)"
printf "%-10s %6s %10s %10s %10s %12s %12s\n" sample lines ours ptxas clang ours/ptxas ours/clang
for s in $SAMPLES; do
  f="samples/$s/$s.ptx"
  ours=$(median "$P" "$f" -mcpu=gfx942 -filetype=obj -o "$W/o.o")
  theirs=n/a; r1=n/a
  if [ -n "$PTXAS" ]; then
    theirs=$(median "$PTXAS" -O3 -arch=sm_90 "$f" -o "$W/p.cubin")
    r1=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
  fi
  cl=n/a; r2=n/a
  if clang_hip "$s" gfx942 "$W/c.o" 2>"$W/clang.err"; then
    cl=$(median clang_hip "$s" gfx942 "$W/c.o")
    r2=$(awk -v a="$ours" -v b="$cl" 'BEGIN { printf "%.2f", a / b }')
  else
    echo "   (clang-19 cannot compile samples/$s/$s.cu: $(head -1 "$W/clang.err"))"
  fi
  printf "%-10s %6s %10s %10s %10s %12s %12s\n" "$s" "$(wc -l < "$f")" "$ours" "$theirs" "$cl" "$r1" "$r2"
done

echo
echo "== output quality per kernel: VALU / SALU instructions and VGPRs (ours | clang-19 -O3)"
for gpu in gfx942 gfx1100; do
  printf "%-10s %-8s %22s %22s\n" sample "$gpu" "ours VALU/SALU/VGPR" "clang VALU/SALU/VGPR"
  for s in $SAMPLES; do
    "$P" "samples/$s/$s.ptx" -mcpu="$gpu" -o "$W/o.s" 2>/dev/null
    read -r ov os <<<"$(counts "$W/o.s")"
    og=$(grep -m1 -E '\.vgpr_count' "$W/o.s" | awk '{ print $2 }')
    cv=n/a; cs=n/a; cg=n/a; cx=n/a
    if clang-19 -x hip --cuda-device-only --offload-arch="$gpu" -nogpuinc -nogpulib -O3 -include "$SHIM" \
      -S "samples/$s/$s.cu" -o "$W/c.s" 2>/dev/null; then
      read -r cv cs <<<"$(counts "$W/c.s")"
      cg=$(grep -m1 -E '\.vgpr_count' "$W/c.s" | awk '{ print $2 }')
      cx=$(scratch "$W/c.s")
    fi
    QUALITY["$gpu $s"]="$(ratio "$ov" "$cv") $(ratio "$og" "$cg") $(scratch "$W/o.s") $cx"
    printf "%-10s %-8s %22s %22s\n" "$s" "" "$ov/$os/$og" "$cv/$cs/$cg"
  done
done

echo
echo "== run time: one block of 64 threads in the emulator (instructions executed / estimated cycles)"
# Launch arguments that keep every thread busy (the kernels stop at their
# element count; siphash reads each message's length from a buffer).
python3 -c "import struct, sys; sys.stdout.buffer.write(b''.join(struct.pack('<I', (t * 37) % 65) for t in range(64)))" \
  >"$W/lens.bin"
launch_args() {
  case $1 in
    sha256) echo --param sha256_compress_param_2=64 ;;
    chacha20) echo --param chacha20_xor_param_4=64 ;;
    keccak) echo --param keccak_f1600_param_1=64 ;;
    murmur3) echo --param murmur3_32_param_3=64 ;;
    crc32) echo --param crc32_blocks_param_2=64 ;;
    siphash) echo --param siphash24_kernel_param_3=64 --param siphash24_kernel_param_5=64 \
      --input "siphash24_kernel_param_2=$W/lens.bin" ;;
  esac
}
run_of() { # check output -> "executed/cycles", or FAIL
  if grep -q "result: every output buffer agrees" <<<"$1"; then
    sed -nE 's/.*AMD run \(trial 0\): ([0-9]+) instructions executed, about ([0-9]+) cycles.*/\1 \2/p' <<<"$1"
  else
    echo "FAIL FAIL"
  fi
}
for gpu in gfx942 gfx1100; do
  printf "%-10s %-8s %16s %16s %12s\n" sample "$gpu" "ours exec/cyc" "clang exec/cyc" "cycles o/c"
  for s in $SAMPLES; do
    # shellcheck disable=SC2046 # (launch_args is a word list)
    read -r oe oc <<<"$(run_of "$("$P" check "samples/$s/$s.ptx" -mcpu="$gpu" --trials 1 $(launch_args "$s") 2>&1 || true)")"
    ce=n/a; cc=n/a; r=n/a
    if clang-19 -x hip --cuda-device-only --no-gpu-bundle-output --offload-arch="$gpu" -nogpuinc -nogpulib -O3 \
      -include "$SHIM" -c "samples/$s/$s.cu" -o "$W/c.hsaco" 2>/dev/null; then
      # shellcheck disable=SC2046
      read -r ce cc <<<"$(run_of "$("$P" check "samples/$s/$s.ptx" -mcpu="$gpu" --trials 1 $(launch_args "$s") \
        --amd "$W/c.hsaco" 2>&1 || true)")"
    fi
    [[ "$oc" =~ ^[0-9]+$ && "$cc" =~ ^[0-9]+$ ]] && r=$(awk -v a="$oc" -v b="$cc" 'BEGIN { printf "%.2f", a / b }')
    printf "%-10s %-8s %16s %16s %12s\n" "$s" "" "$oe/$oc" "$ce/$cc" "$r"
    CYCLES["$gpu $s"]=$r
  done
done

echo
echo "== against clang-19 -O3, one table (issue 20's bars: VALU <= 1.05, VGPRs <= 1.1, cycles <= 1.2 and"
echo "   <= 1.0 on half, no scratch where clang has none; '!' marks a miss)"
printf "%-10s %-8s %8s %8s %8s %16s\n" sample gpu VALU VGPRs cycles "scratch o/c"
mark() { # value bar -> value, with ! past the bar
  awk -v v="$1" -v b="$2" 'BEGIN { if (v == "n/a") print v; else printf "%s%s", v, (v + 0 > b + 0 ? "!" : "") }'
}
for gpu in gfx942 gfx1100; do
  for s in $SAMPLES; do
    read -r valu vgpr so sc <<<"${QUALITY["$gpu $s"]}"
    sx="$so/$sc"
    [[ "$so" != 0 && "$sc" == 0 ]] && sx="$sx!"
    printf "%-10s %-8s %8s %8s %8s %16s\n" "$s" "$gpu" "$(mark "$valu" 1.05)" "$(mark "$vgpr" 1.1)" \
      "$(mark "${CYCLES["$gpu $s"]}" 1.2)" "$sx"
  done
done
