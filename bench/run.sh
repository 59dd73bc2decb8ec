#!/usr/bin/env bash
# Benchmark: tmemcheck against Clang's own device-side parse of the same
# translation unit, for generated TUs of 10, 100 and 1000 kernels.
#
# Prints, per size, the median over RUNS runs of:
#   clang     wall time of clang++-22 -fsyntax-only (device side, sm_100a)
#   tmemcheck wall time of the whole tmemcheck process on the same file
#   analysis  tmemcheck's own graph construction + checks (from --timing)
#   ratio     analysis / clang parse: the figure docs/performance.md tracks
# Usage: bench/run.sh [build-dir]   (RUNS=5 SIZES="10 100 1000" override)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
tool="$build/tools/tmemcheck/tmemcheck"
runs="${RUNS:-5}"
sizes="${SIZES:-10 100 1000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

resdir="$(clang++-22 -print-resource-dir)"
clang_flags=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_100a -nocudalib
             -fsyntax-only -Wno-unknown-cuda-version)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
now() { date +%s.%N; }

printf "%-8s %10s %10s %10s %8s\n" kernels clang_s tmemcheck_s analysis_s ratio
for n in $sizes; do
  src="$work/k$n.cu"
  python3 "$root/bench/gen_kernels.py" "$n" > "$src"
  : > "$work/clang"; : > "$work/tool"; : > "$work/analysis"
  for _ in $(seq "$runs"); do
    t0=$(now); clang++-22 "${clang_flags[@]}" "$src"; t1=$(now)
    echo "$t1 - $t0" | bc -l >> "$work/clang"
    t0=$(now)
    "$tool" --quiet --timing "$src" -- 2> "$work/timing" >/dev/null || true
    t1=$(now)
    echo "$t1 - $t0" | bc -l >> "$work/tool"
    awk '/timing/ { gsub(",", ""); print $8 + $11 }' "$work/timing" >> "$work/analysis"
  done
  c=$(median < "$work/clang"); t=$(median < "$work/tool"); a=$(median < "$work/analysis")
  printf "%-8s %10.3f %10.3f %10.3f %7.1f%%\n" "$n" "$c" "$t" "$a" \
    "$(echo "100 * $a / $c" | bc -l)"
done
