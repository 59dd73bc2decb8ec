#!/usr/bin/env bash
# Benchmark: what tmemcheck and its clang-tidy plugin cost on top of Clang's
# own device-side parse of the same file, in wall time and peak memory.
#
# Usage: bench/run.sh [-b build-dir] [extra.cu ...]
#   extra.cu   more translation units to measure, e.g. a CUTLASS-heavy file
#              kept outside the repository; their compile flags come from
#              EXTRA_FLAGS (e.g. EXTRA_FLAGS="-std=c++20 -I/tmp/cutlass/include").
# Environment: RUNS (default 5), SIZES (generated kernel counts, default
#   "10 100 1000"), EXAMPLES=0 skips the examples/ directory, IR=1 also
#   counts the instructions clang and tmemcheck execute (valgrind's
#   callgrind, once per input: slow, but immune to load from other
#   processes).
#
# For every input, five commands run RUNS times, interleaved (A B C D E A B C
# D E ...) so that load from other processes hits all of them alike:
#   clang      clang++-22 with exactly the command tmemcheck parses with
#              (tmemcheck --print-parse-command), -fsyntax-only
#   tmemcheck  the tmemcheck process, default checks, its prelude PCH
#              (the precompiled pre-included headers) warm: two untimed
#              runs per input build it first
#   no-pch     the same with --no-pch: every parse reads those headers
#   tidy       clang-tidy-22 -checks='-*,readability-braces-around-statements'
#   tidy+tmem  clang-tidy-22 -load libTmemTidyModule.so -checks='-*,tmem-*'
# Wall time and maximum resident set size come from /usr/bin/time; the
# tables show medians. "examples" runs every file of examples/ in turn and
# adds the times (peak memory: the largest). The analysis column is
# tmemcheck's own graph construction + checks as --timing reports them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
if [ "${1:-}" = "-b" ]; then build="$2"; shift 2; fi
tool="$build/tools/tmemcheck/tmemcheck"
plugin="$build/tools/tidy-plugin/libTmemTidyModule.so"
runs="${RUNS:-5}"
sizes="${SIZES:-10 100 1000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for need in /usr/bin/time clang++-22 clang-tidy-22 python3; do
  command -v "$need" > /dev/null ||
    { echo "bench: $need not found (apt-get install time clang-22 clang-tidy-22)"; exit 2; }
done
[ -x "$tool" ] || { echo "bench: build tmemcheck first ($tool)"; exit 2; }
have_plugin=1
[ -f "$plugin" ] || { have_plugin=0; echo "bench: no $plugin, clang-tidy columns skipped"; }

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# measure NAME CMD...: appends "wall_s max_rss_kb" to $work/NAME (wall
# time from the nanosecond clock: /usr/bin/time rounds to 10 ms).
measure() {
  local name="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/t" "$@" > /dev/null 2> "$work/err" || true
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc -l) $(tail -1 "$work/t")" >> "$work/$name"
}

# instructions CMD...: the number of instructions CMD executes (callgrind).
instructions() {
  { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
      2>&1 > /dev/null || true; } | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}

# bench_input LABEL FILE... : the four commands over the files (summed).
bench_input() {
  local label="$1"; shift
  local files=("$@")
  local k f
  for k in clang tool nopch tidy tidytmem analysis; do : > "$work/$k.runs"; done
  # Warm the prelude PCH: the first parse of a command marks it, the second
  # builds the PCH.
  for f in "${files[@]}"; do
    for _ in 1 2; do
      "$tool" --quiet --pch-dir="$work/pch" "$f" -- "${flags[@]}" > /dev/null 2>&1 || true
    done
  done
  for _ in $(seq "$runs"); do
    for k in clang tool nopch tidy tidytmem; do : > "$work/$k"; done
    local analysis=0
    for f in "${files[@]}"; do
      # The exact parse command of tmemcheck; clang-tidy gets the same
      # arguments after `--` (without the driver name and the file).
      local cmd
      cmd=$("$tool" --print-parse-command "$f" -- "${flags[@]}")
      eval "set -- $cmd"
      shift
      local args=("$@")
      local n=${#args[@]}
      local tidy_args=("${args[@]:0:n-1}")
      measure clang clang++-22 "${args[@]}"
      measure tool "$tool" --quiet --timing --pch-dir="$work/pch" "$f" -- "${flags[@]}"
      a=$(awk '/timing/ { gsub(",", ""); print $8 + $11 }' "$work/err")
      measure nopch "$tool" --quiet --no-pch "$f" -- "${flags[@]}"
      analysis=$(echo "$analysis + ${a:-0}" | bc -l)
      if [ "$have_plugin" = 1 ]; then
        measure tidy clang-tidy-22 -checks='-*,readability-braces-around-statements' \
          "$f" -- "${tidy_args[@]}"
        measure tidytmem clang-tidy-22 -load "$plugin" -checks='-*,tmem-*' \
          "$f" -- "${tidy_args[@]}"
      fi
    done
    for k in clang tool nopch tidy tidytmem; do
      [ -s "$work/$k" ] || continue
      awk '{ s += $1; if ($2 > m) m = $2 } END { print s, m }' "$work/$k" >> "$work/$k.runs"
    done
    echo "$analysis" >> "$work/analysis.runs"
  done
  local ct cm tt tm at bt bm pt pm
  ct=$(cut -d' ' -f1 "$work/clang.runs" | median)
  cm=$(cut -d' ' -f2 "$work/clang.runs" | median)
  tt=$(cut -d' ' -f1 "$work/tool.runs" | median)
  tm=$(cut -d' ' -f2 "$work/tool.runs" | median)
  at=$(median < "$work/analysis.runs")
  nt=$(cut -d' ' -f1 "$work/nopch.runs" | median)
  printf "%-12s | %7.3f | %7.3f | %+6.1f%% | %7.3f | %+6.1f%% | %6.3f | %5.1f%% | %6.0f | %6.0f | %5.2fx" \
    "$label" "$ct" "$tt" "$(echo "100 * ($tt - $ct) / $ct" | bc -l)" \
    "$nt" "$(echo "100 * ($nt - $ct) / $ct" | bc -l)" "$at" \
    "$(echo "100 * $at / $ct" | bc -l)" "$(echo "$cm / 1024" | bc -l)" \
    "$(echo "$tm / 1024" | bc -l)" "$(echo "$tm / $cm" | bc -l)"
  if [ "$have_plugin" = 1 ]; then
    bt=$(cut -d' ' -f1 "$work/tidy.runs" | median)
    bm=$(cut -d' ' -f2 "$work/tidy.runs" | median)
    pt=$(cut -d' ' -f1 "$work/tidytmem.runs" | median)
    pm=$(cut -d' ' -f2 "$work/tidytmem.runs" | median)
    printf " | %7.3f | %7.3f | %+6.1f%% | %5.2fx" "$bt" "$pt" \
      "$(echo "100 * ($pt - $bt) / $bt" | bc -l)" "$(echo "$pm / $bm" | bc -l)"
  fi
  printf "\n"
  if [ "${IR:-0}" != 0 ]; then
    local ic=0 it=0
    for f in "${files[@]}"; do
      cmd=$("$tool" --print-parse-command "$f" -- "${flags[@]}")
      eval "set -- $cmd"
      shift
      ic=$((ic + $(instructions clang++-22 "$@")))
      it=$((it + $(instructions "$tool" --quiet "$f" -- "${flags[@]}")))
    done
    printf "%-12s   instructions: clang %d, tmemcheck %d, overhead %+.1f%%\n" \
      "" "$ic" "$it" "$(echo "100 * ($it - $ic) / $ic" | bc -l)"
  fi
}

echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs per command: $runs (medians)"
echo
printf "%-12s | %7s | %7s | %7s | %7s | %7s | %6s | %6s | %6s | %6s | %6s | %7s | %7s | %7s | %6s\n" \
  input clang_s tmemchk over_s no_pch over_s anal_s an/par clangMB toolMB mem_x \
  tidy_s tidy+tm over_s tidy_mx
flags=()
if [ "${EXAMPLES:-1}" != 0 ]; then
  bench_input examples "$root"/examples/*.cu
fi
for n in $sizes; do
  python3 "$root/bench/gen_kernels.py" "$n" > "$work/k$n.cu"
  bench_input "gen-$n" "$work/k$n.cu"
done
read -ra flags <<< "${EXTRA_FLAGS:-}"
for f in "$@"; do
  bench_input "$(basename "$f")" "$f"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
