#!/usr/bin/env bash
# Installs what tmemcheck needs to build and test, if it is missing.
# Idempotent: packages already present are left alone. As root it runs
# apt-get; otherwise it prints the exact command to run.
set -euo pipefail

packages=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools
          libclang-cpp22-dev clang-tidy-22 libfmt-dev libgtest-dev
          # the executable's allocator (docs/performance.md)
          libmimalloc-dev
          libclang-rt-22-dev ninja-build cmake make
          # formatting changes as .clang-format says (git-clang-format-22)
          clang-format-22
          # the tests: real build systems (test/buildsys), the SARIF schema,
          # the HTML report in a browser (test/report/html-*.test; about
          # 30 s of apt-get on a fresh machine)
          bear python3 python3-jsonschema dpkg-dev chromium
          # the editor-client test of the language server (test/lsp)
          neovim)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies are installed"
  exit 0
fi

echo "setup: missing packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: run as root:"
  echo "  apt-get update && apt-get install -y ${missing[*]}"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: installed ${missing[*]}"
