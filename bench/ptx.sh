#!/usr/bin/env bash
# Benchmark of the PTX front end: tmemcheck's full analysis of a .ptx module
# (default checks) against `ptxas -arch=sm_100a` on the same file, over
# modules written by bench/gen_ptx.py (warp-specialised TMA GEMM kernels in
# nvcc 13's shape), and over any extra .ptx files given (e.g. real compiler
# output kept outside the repository).
#
# Usage: bench/ptx.sh [-b build-dir] [extra.ptx ...]
# Environment: RUNS (default 3), SIZES (generated modules as KERNELSxUNROLL,
#   default "10x1 100x4 400x16 400x64"), PTXAS (default
#   /usr/local/cuda/bin/ptxas; the ptxas column is skipped without it),
#   TMEMCHECK_ARGS (extra tmemcheck options, e.g. "-j 2": the module's
#   kernels on two threads).
#
# Each input runs tmemcheck and ptxas RUNS times, interleaved; the table
# shows medians of wall time and peak memory (/usr/bin/time), the share of
# tmemcheck's time in parsing and in graph construction + checks (--timing)
# and the speed-up over ptxas.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
if [ "${1:-}" = "-b" ]; then build="$2"; shift 2; fi
tool="$build/tools/tmemcheck/tmemcheck"
ptxas="${PTXAS:-/usr/local/cuda/bin/ptxas}"
runs="${RUNS:-3}"
sizes="${SIZES:-10x1 100x4 400x16 400x64}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for need in /usr/bin/time python3 bc; do
  command -v "$need" > /dev/null || { echo "bench: $need not found"; exit 2; }
done
[ -x "$tool" ] || { echo "bench: build tmemcheck first ($tool)"; exit 2; }
have_ptxas=1
[ -x "$ptxas" ] || { have_ptxas=0; echo "bench: no $ptxas, ptxas column skipped"; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# measure NAME CMD...: appends "wall_s max_rss_kb" to $work/NAME.
measure() {
  local name="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/t" "$@" > /dev/null 2> "$work/err.$name" || true
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc -l) $(tail -1 "$work/t")" >> "$work/$name"
}

printf '| input | size (MB) | kernels | tmemcheck (s) | parse (s) | graphs+checks (s) | RSS (MB) | ptxas (s) | ptxas RSS (MB) | ptxas / tmemcheck |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
bench_one() {
  local label="$1" file="$2"
  : > "$work/tool"; : > "$work/ptxas"; : > "$work/parse"; : > "$work/rest"
  for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086 # TMEMCHECK_ARGS is a list of options
    measure tool "$tool" ${TMEMCHECK_ARGS:-} --timing "$file"
    awk '/timing/ { gsub(",", ""); for (i = 1; i <= NF; ++i) {
           if ($i == "parse") p = $(i+1); if ($i == "graphs") g = $(i+1);
           if ($i == "checks") c = $(i+1) } }
         END { print p, g + c }' "$work/err.tool" > "$work/pr"
    cut -d' ' -f1 "$work/pr" >> "$work/parse"
    cut -d' ' -f2 "$work/pr" >> "$work/rest"
    [ "$have_ptxas" = 1 ] && measure ptxas "$ptxas" -arch=sm_100a "$file" -o /dev/null
  done
  local size kernels tw tm pw pm ps rs
  size=$(echo "scale=2; $(stat -c %s "$file") / 1048576" | bc -l)
  kernels=$(grep -c '^\.visible \.entry\|^\.entry\|^\.weak \.entry' "$file" || true)
  tw=$(cut -d' ' -f1 "$work/tool" | median)
  tm=$(($(cut -d' ' -f2 "$work/tool" | median | cut -d. -f1) / 1024))
  ps=$(median < "$work/parse")
  rs=$(median < "$work/rest")
  if [ "$have_ptxas" = 1 ]; then
    pw=$(cut -d' ' -f1 "$work/ptxas" | median)
    pm=$(($(cut -d' ' -f2 "$work/ptxas" | median | cut -d. -f1) / 1024))
    printf '| %s | %s | %s | %.2f | %.2f | %.2f | %s | %.2f | %s | %.1fx |\n' \
      "$label" "$size" "$kernels" "$tw" "$ps" "$rs" "$tm" "$pw" "$pm" \
      "$(echo "$pw / $tw" | bc -l)"
  else
    printf '| %s | %s | %s | %.2f | %.2f | %.2f | %s | - | - | - |\n' \
      "$label" "$size" "$kernels" "$tw" "$ps" "$rs" "$tm"
  fi
}

for s in $sizes; do
  n="${s%x*}"; u="${s#*x}"
  python3 "$root/bench/gen_ptx.py" "$n" "$u" > "$work/gen-$s.ptx"
  bench_one "gen_ptx.py $n $u" "$work/gen-$s.ptx"
done
for f in "$@"; do
  bench_one "$(basename "$f")" "$f"
done
