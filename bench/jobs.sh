#!/usr/bin/env bash
# Parallel speed-up of `tmemcheck -j 2` over `-j 1` on 20 generated files
# of 20 kernels each: the two runs alternate (1 2 1 2 ...) so that load
# from other processes hits both alike; medians of RUNS (default 5) runs.
# Usage: bench/jobs.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
tool="$build/tools/tmemcheck/tmemcheck"
runs="${RUNS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 20); do
  python3 "$root/bench/gen_kernels.py" 20 > "$work/f$i.cu"
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/t1"; : > "$work/t2"
for _ in $(seq "$runs"); do
  for j in 1 2; do
    t0=$(date +%s.%N)
    "$tool" --quiet -j "$j" "$work"/f*.cu -- > /dev/null || true
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l >> "$work/t$j"
  done
done
t1=$(median < "$work/t1"); t2=$(median < "$work/t2")
printf "%-6s %8s\n" jobs seconds
printf "%-6s %8.2f\n" 1 "$t1" 2 "$t2"
printf "speed-up: %.2fx\n" "$(echo "$t1 / $t2" | bc -l)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
