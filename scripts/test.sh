#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite: lit + FileCheck tests of
# every check, the examples, bad input, and the GoogleTest unit tests.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" || { echo "0 passed, 1 failed"; exit 1; }

lit=/usr/lib/llvm-22/bin/lit
log="$build/lit.log"
"$lit" -sv "$build/test" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

# Bounded fuzzing of the PTX parser and decoders (FUZZ_SECONDS, default 30):
# any crash or sanitizer report fails the run; the reproducer is kept.
fuzzer="$build/fuzz/tmemcheck-ptx-fuzzer"
fuzz_passed=0 fuzz_failed=0
if [ -x "$fuzzer" ]; then
  corpus="$(mktemp -d)"
  cp "$root"/fuzz/corpus/* "$corpus"/
  echo "fuzz: running $(basename "$fuzzer") for ${FUZZ_SECONDS:-30} s"
  if (cd "$build" && "$fuzzer" -max_total_time="${FUZZ_SECONDS:-30}" \
        -rss_limit_mb=2048 -print_final_stats=1 "$corpus" > "$build/fuzz.log" 2>&1); then
    fuzz_passed=1
    grep -E "^stat::number_of_executed_units" "$build/fuzz.log" || true
  else
    fuzz_failed=1
    rc=1
    tail -40 "$build/fuzz.log"
    echo "fuzz: FAILED; reproducer in $build (crash-*)"
  fi
  rm -rf "$corpus"
fi

# One closing line that any CI can read.
awk '
  /^ *Passed *:/ { p += $2 }
  /^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ { f += $NF ~ /%/ ? $(NF-1) : $NF }
  /^ *(Unsupported|Excluded|Skipped|Expectedly Failed) *:/ { s += $NF ~ /%/ ? $(NF-1) : $NF }
  END { printf "%d passed, %d failed, %d skipped\n", p + fp, f + ff, s }
' fp="$fuzz_passed" ff="$fuzz_failed" "$log"
exit "$rc"
