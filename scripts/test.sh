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

# Bounded fuzzing (FUZZ_SECONDS per target, default 30; 0 skips): the PTX
# parser and decoders, asm operand binding, the config loader, and the whole
# PTX front end with every check on .ptx modules. Any crash or sanitizer
# report fails the run; the reproducer is kept in the build directory as
# fuzz-<target>-crash-*.
fuzz_passed=0 fuzz_failed=0
fuzz_seconds="${FUZZ_SECONDS:-30}"
for target in ptx:corpus asm-binding:corpus-asm config:corpus-config \
              ptx-frontend:corpus-ptx-frontend; do
  name="${target%%:*}" seeds="$root/fuzz/${target#*:}"
  fuzzer="$build/fuzz/tmemcheck-$name-fuzzer"
  [ "$fuzz_seconds" != 0 ] && [ -x "$fuzzer" ] || continue
  corpus="$(mktemp -d)"
  cp "$seeds"/* "$corpus"/
  flog="$build/fuzz-$name.log"
  # A target's dictionary of tokens, if it has one (fuzz/<name>.dict).
  dict=()
  [ -f "$root/fuzz/$name.dict" ] && dict=(-dict="$root/fuzz/$name.dict")
  echo "fuzz: running $(basename "$fuzzer") for $fuzz_seconds s"
  if "$fuzzer" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 \
       -artifact_prefix="$build/fuzz-$name-" -print_final_stats=1 \
       "${dict[@]}" "$corpus" > "$flog" 2>&1; then
    fuzz_passed=$((fuzz_passed + 1))
    grep -E "^stat::number_of_executed_units" "$flog" || true
  else
    fuzz_failed=$((fuzz_failed + 1))
    rc=1
    tail -40 "$flog"
    echo "fuzz: $(basename "$fuzzer") FAILED; reproducer: $(ls "$build"/fuzz-"$name"-* 2>/dev/null | head -1)"
  fi
  rm -rf "$corpus"
done

# One closing line that any CI can read.
awk '
  function count() { sub(/^[^:]*: */, ""); return $1 + 0 }
  /^ *Passed *:/ { p += count() }
  /^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ { f += count() }
  /^ *(Unsupported|Excluded|Skipped|Expectedly Failed) *:/ { s += count() }
  END { printf "%d passed, %d failed, %d skipped\n", p + fp, f + ff, s }
' fp="$fuzz_passed" ff="$fuzz_failed" "$log" "$san_log"
exit "$rc"
