#!/usr/bin/env bash
# The result cache: a re-audit of an unchanged corpus with a warm cache
# against the cold run that filled it (target: warm <= 5 % of cold).
#
# Usage: bench/cache.sh [-b build-dir] [file ...]
#   Without files the corpus is examples/ plus 10 generated files of 100
#   kernels (bench/gen_kernels.py); files given are used instead (their
#   flags in EXTRA_FLAGS, e.g. -std=c++17 -I/tmp/cutlass/include).
# Environment: RUNS (default 5). Each run starts from an empty cache
# (cold), then repeats the same command (warm); medians of both, and the
# warm run's own share of files served from the cache.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
if [ "${1:-}" = "-b" ]; then build="$2"; shift 2; fi
tool="$build/tools/tmemcheck/tmemcheck"
runs="${RUNS:-5}"
[ -x "$tool" ] || { echo "bench: build tmemcheck first ($tool)"; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
read -r -a flags <<< "${EXTRA_FLAGS:-}"
files=("$@")
if [ "${#files[@]}" = 0 ]; then
  mkdir -p "$work/corpus"
  cp "$root"/examples/*.cu "$work/corpus/"
  for i in $(seq 1 10); do
    python3 "$root/bench/gen_kernels.py" 100 > "$work/corpus/gen$i.cu"
  done
  files=("$work"/corpus/*.cu)
fi
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# run NAME: one audit of the corpus with the cache, its wall time appended
# to $work/NAME.
run() {
  local t0 t1
  t0=$(date +%s.%N)
  "$tool" --quiet --summary --cache-dir="$work/cache" "${files[@]}" -- "${flags[@]}" \
    > /dev/null 2> "$work/$1.err" || true
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l >> "$work/$1"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "files: ${#files[@]}"
: > "$work/cold"; : > "$work/warm"
for _ in $(seq "$runs"); do
  rm -rf "$work/cache"
  run cold
  run warm
done
cold=$(median < "$work/cold"); warm=$(median < "$work/warm")
printf "%-6s %8s\n" run seconds
printf "%-6s %8.3f\n" cold "$cold" warm "$warm"
printf "warm / cold: %.1f %%\n" "$(echo "100 * $warm / $cold" | bc -l)"
grep "result cache" "$work/warm.err" | sed 's/^ */warm run: /'
echo "entries: $(find "$work/cache" -name '*.json' | wc -l), $(du -sh "$work/cache" | cut -f1)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
