#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), configures and builds tmemcheck
# into build/ (override with BUILD_DIR). Extra arguments go to cmake.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "$@"
fi
ninja -C "$build" -j"$(nproc)" tmemcheck tmemcheck-unittests TmemTidyModule \
  TmemAnalyzerPlugin tmemcheck-ptx-fuzzer tmemcheck-asm-binding-fuzzer \
  tmemcheck-config-fuzzer tmemcheck-ptx-frontend-fuzzer
