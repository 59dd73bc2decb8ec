// RUN: not %tmemcheck --checks='-*,tmem-missing-relinquish' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// tmem-missing-relinquish gets a fix-it only where a relinquish right
// after the last alloc is certainly right. Each kernel here is flagged and
// gets none: a line after the alloc would leave its `if` (no braces), run
// on the next loop iteration before an alloc (illegal, rule A8), miss the
// alloc of the other branch, or run outside the helper's own conditions.
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void alloc_if_warp0(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "r"(smem_addr(slot)) : "memory");
}

#define ALLOC_32(slot)                                                         \
  asm volatile(                                                                \
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"      \
      :: "r"(smem_addr(slot)) : "memory")

__global__ void braceless_if() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    // CHECK: no-fix-relinquish.cu:[[@LINE+1]]:19: warning: kernel 'braceless_if' allocates TMEM{{.*}}[tmem-missing-relinquish]
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(smem_addr(&slot)) : "memory");
}

__global__ void alloc_in_loop(int tiles) {
  __shared__ uint32_t slot;
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x / 32 == 0) {
      // CHECK: no-fix-relinquish.cu:[[@LINE+1]]:21: warning: kernel 'alloc_in_loop' allocates TMEM{{.*}}[tmem-missing-relinquish]
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                   :: "r"(smem_addr(&slot)) : "memory");
    }
    __syncthreads();
    if (threadIdx.x / 32 == 0) {
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                   :: "r"(slot) : "memory");
    }
    __syncthreads();
  }
}

__global__ void alloc_in_both_branches(int wide) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    if (wide) {
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                   :: "r"(smem_addr(&slot)) : "memory");
    } else {
      // CHECK: no-fix-relinquish.cu:[[@LINE+1]]:21: warning: kernel 'alloc_in_both_branches' allocates TMEM{{.*}}[tmem-missing-relinquish]
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                   :: "r"(smem_addr(&slot)) : "memory");
    }
  }
}

__global__ void alloc_in_helper() {
  __shared__ uint32_t slot;
  // CHECK: no-fix-relinquish.cu:[[@LINE+1]]:3: warning: kernel 'alloc_in_helper' allocates TMEM{{.*}}[tmem-missing-relinquish]
  alloc_if_warp0(&slot);
}

__global__ void alloc_from_macro() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: no-fix-relinquish.cu:[[@LINE+1]]:5: warning: kernel 'alloc_from_macro' allocates TMEM{{.*}}[tmem-missing-relinquish]
    ALLOC_32(&slot);
  }
}

__global__ void alloc_by_one_lane() {
  __shared__ uint32_t slot;
  if (threadIdx.x == 0) {
    // CHECK: no-fix-relinquish.cu:[[@LINE+1]]:19: warning: kernel 'alloc_by_one_lane' allocates TMEM{{.*}}[tmem-missing-relinquish]
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(smem_addr(&slot)) : "memory");
  }
}
