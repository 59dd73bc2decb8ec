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

# One closing line that any CI can read.
awk '
  /^ *Passed *:/ { p += $2 }
  /^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ { f += $NF ~ /%/ ? $(NF-1) : $NF }
  /^ *(Unsupported|Excluded|Skipped|Expectedly Failed) *:/ { s += $NF ~ /%/ ? $(NF-1) : $NF }
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s }
' "$log"
exit "$rc"
