// REQUIRES: clang-tidy
// RUN: %tmemcheck-bin --print-stub-header > %t.stub.h
// RUN: %clang-tidy -load %tidy-plugin -checks='-*,tmem-*' %s -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_100a -nocudalib -nocudainc -Wno-unknown-cuda-version -include %t.stub.h 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: %clang-tidy -load %tidy-plugin -checks='-*,tmem-*' --list-checks | FileCheck %s --check-prefix=LIST
//
// The same checks as the CLI, run by the real clang-tidy-22 through the
// plugin: findings are clang-tidy warnings, NOLINT is clang-tidy's own.

// LIST: tmem-alloc-ncols
// LIST: tmem-dealloc-race
// LIST: tmem-missing-wait-ld

__device__ __forceinline__ void alloc_cols(uint32_t slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(slot), "r"(ncols));
}

__global__ void bad_count() {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  if (threadIdx.x / 32 == 0) {
    // CHECK-DAG: plugin.cu:[[@LINE+4]]:5: warning: tcgen05.alloc requests 96 columns; the column count must be a power of two in [32, 512] (rule A1) [tmem-alloc-ncols]
    // CHECK-DAG: plugin.cu:[[@LINE+3]]:5: warning: TMEM allocated into 'slot' is still allocated when the kernel exits on some path;{{.*}}[tmem-leak]
    // CHECK-DAG: plugin.cu:[[@LINE+2]]:5: warning: kernel 'bad_count' allocates TMEM but never executes tcgen05.relinquish_alloc_permit;{{.*}}[tmem-missing-relinquish]
    // CHECK-DAG: Suppressed 1 warnings (1 NOLINT).
    alloc_cols(s, 96);
    alloc_cols(s, 48); // NOLINT(tmem-alloc-ncols,tmem-alloc-budget)
  }
}
