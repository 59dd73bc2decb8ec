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

# The same suite once more, built with AddressSanitizer and UBSan
# (SANITIZED=0 skips it; the clang-tidy plugin is not built there).
san_log=/dev/null
if [ "${SANITIZED:-1}" != 0 ]; then
  san="${SAN_BUILD_DIR:-$root/build-asan}"
  if [ ! -f "$san/build.ninja" ]; then
    cmake -S "$root" -B "$san" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DTMEMCHECK_SANITIZE=ON -DTMEMCHECK_FUZZ=OFF > /dev/null || rc=1
  fi
  if ninja -C "$san" -j"$(nproc)" tmemcheck tmemcheck-unittests > "$san/build.log" 2>&1; then
    san_log="$san/lit.log"
    echo "sanitized: ASan+UBSan run of the suite"
    UBSAN_OPTIONS=halt_on_error=1 "$lit" -s "$san/test" 2>&1 | tee "$san_log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  else
    tail -20 "$san/build.log"; echo "sanitized: build FAILED"; rc=1
  fi
fi

# Bounded fuzzing of the PTX parser and decoders (FUZZ_SECONDS, default 30;
# 0 skips it: libFuzzer would read -max_total_time=0 as "no limit"):
# any crash or sanitizer report fails the run; the reproducer is kept.
fuzzer="$build/fuzz/tmemcheck-ptx-fuzzer"
fuzz_passed=0 fuzz_failed=0
if [ -x "$fuzzer" ] && [ "${FUZZ_SECONDS:-30}" != 0 ]; then
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
  function count() { sub(/^[^:]*: */, ""); return $1 + 0 }
  /^ *Passed *:/ { p += count() }
  /^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ { f += count() }
  /^ *(Unsupported|Excluded|Skipped|Expectedly Failed) *:/ { s += count() }
  END { printf "%d passed, %d failed, %d skipped\n", p + fp, f + ff, s }
' fp="$fuzz_passed" ff="$fuzz_failed" "$log" "$san_log"
exit "$rc"
