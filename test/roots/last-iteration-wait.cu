// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// A loop of constant trip count that waits for its loads in its last
// iteration only (ThunderKittens' epilogues: `if (i == EPI_PIPE_DEPTH - 1)
// tensor_load_wait();`) leaves with no load pending: every path out of the
// loop has taken that arm. A wait in another iteration, or a loop whose
// bound is not a constant, does not cover the last load.
#include <stdint.h>

__device__ __forceinline__ void alloc_cols(uint32_t *slot) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;" ::"r"(
          static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
__device__ __forceinline__ void free_cols(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(
      taddr));
}
__device__ __forceinline__ uint32_t load_async(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r)
               : "r"(taddr));
  return r;
}
__device__ __forceinline__ void tensor_load_wait() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

constexpr int kEpiPipeDepth = 4;

// Correct: the wait runs in the last iteration, then the columns are
// released and freed.
__global__ void last_iteration_wait(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc_cols(&slot);
  __syncthreads();
  const uint32_t taddr = slot + ((warp * 32) << 16);
  uint32_t r[kEpiPipeDepth];
#pragma unroll
  for (int i = 0; i < kEpiPipeDepth; i++) {
    r[i] = load_async(taddr + i * 32);
    if (i == kEpiPipeDepth - 1) {
      tensor_load_wait();
      out[threadIdx.x] = __uint_as_float(r[0]);
    }
  }
  __syncthreads();
  if (warp == 0)
    free_cols(slot);
}

// The same with the test written the other way round and work after it.
__global__ void last_iteration_wait_swapped(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc_cols(&slot);
  __syncthreads();
  const uint32_t taddr = slot + ((warp * 32) << 16);
  for (int i = 1; i <= kEpiPipeDepth; ++i) {
    uint32_t v = load_async(taddr + i * 32);
    if (kEpiPipeDepth == i)
      tensor_load_wait();
    out[threadIdx.x * 8 + i] = static_cast<float>(i);
  }
  __syncthreads();
  if (warp == 0)
    free_cols(slot);
}

// Wrong: the wait runs in the third of four iterations; the fourth load is
// still pending when the columns are freed.
__global__ void wait_in_wrong_iteration(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc_cols(&slot);
  __syncthreads();
  const uint32_t taddr = slot + ((warp * 32) << 16);
  for (int i = 0; i < kEpiPipeDepth; i++) {
    // CHECK: last-iteration-wait.cu:[[#@LINE+8]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
    // CHECK: last-iteration-wait.cu:[[#@LINE+1]]:5: note: the tcgen05.ld is issued here
    load_async(taddr + i * 32);
    if (i == 2)
      tensor_load_wait();
  }
  __syncthreads();
  if (warp == 0)
    free_cols(slot);
}
