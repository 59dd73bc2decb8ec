// A file with host code only (no kernels, no tcgen05): exit 0, no findings,
// and, without --quiet, a remark that no tcgen05 instruction was found.
// RUN: %tmemcheck %s > %t.out 2>&1; echo "exit=$?" >> %t.out
// RUN: FileCheck %s --implicit-check-not='[tmem-' < %t.out
// CHECK: {{^}}exit=0
// RUN: %tmemcheck-bin --no-cuda --no-snippets %s > %t.loud 2>&1; echo "exit=$?" >> %t.loud
// RUN: FileCheck %s --check-prefix=LOUD --implicit-check-not='[tmem-' < %t.loud
// LOUD-DAG: remark: no tcgen05 instructions found in device code; if this file uses CUTLASS SM100 code, it is compiled out under Clang: add -DCUTLASS_ARCH_MMA_SM100_SUPPORTED after -- to analyse kernels guarded by it
// LOUD-DAG: {{^}}exit=0
#include <cstdint>

static int twice(int x) { return 2 * x; }

int main(int argc, char **argv) {
  uint32_t cols = 96; // not a TMEM allocation: plain host arithmetic
  (void)argv;
  return twice(argc) + static_cast<int>(cols) > 1000;
}
