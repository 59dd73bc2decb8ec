#!/usr/bin/env bash
# Sets up, builds, and runs tmemcheck on every kernel in examples/ with all
# checks, the strict ones included. Buggy examples print findings; clean
# ones print nothing.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" || exit 2

status=0
for f in "$root"/examples/*.cu; do
  echo "== tmemcheck examples/$(basename "$f")"
  "$build/tools/tmemcheck/tmemcheck" --quiet --checks='tmem-*' "$f"
  rc=$?
  case $rc in
    0) echo "   clean (exit 0)" ;;
    1) echo "   findings (exit 1)" ;;
    *) echo "   tool error (exit $rc)"; status=2 ;;
  esac
done
exit $status
