// RUN: not %tmemcheck --checks='-*,tmem-leak,tmem-dealloc-unallocated,tmem-dealloc-mismatch,tmem-double-dealloc' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// The same kernels compiled by nvcc: test/ptx/alloc-base.test.
//
// DeepGEMM frees with `Allocator().free(0, kNumTmemCols)`: the constant 0,
// not the address tcgen05.alloc stored. That is the allocation's address
// when the CTA's only allocation takes all 512 columns (rules §4: they can
// only be columns 0..511), so the free is that allocation's dealloc: not a
// dealloc of something unallocated, and no leak. When the base is not
// provably 0 (fewer columns, or a second allocation) the constant is still
// reported.

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))),
         "r"(ncols) : "memory");
}

__device__ __forceinline__ void tmem_free(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}

__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

template <uint32_t kNumTmemCols>
__device__ __forceinline__ void deepgemm_shape(float *out, uint32_t *slot) {
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 1) {
    tmem_alloc(slot, kNumTmemCols);
    tmem_relinquish();
  }
  tmem_sync();
  out[threadIdx.x] = 0.0f;
  tmem_sync();
  // Freed by another warp than the one that allocated, through 0.
  if (warp_idx == 0)
    tmem_free(0, kNumTmemCols);
}

// Correct: the only allocation is full width.
__global__ void __launch_bounds__(128) free_zero_full_width(float *out) {
  __shared__ uint32_t slot;
  deepgemm_shape<512>(out, &slot);
}

// Correct: the same with the literal in the asm, in a persistent kernel.
__global__ void __launch_bounds__(128) free_zero_literal(float *out,
                                                          int tiles) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 512);
    tmem_relinquish();
  }
  tmem_sync();
  for (int t = blockIdx.x; t < tiles; t += gridDim.x)
    out[t * 128 + threadIdx.x] = 1.0f;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 0, 512;"
                 ::: "memory");
}

// Bug: 256 columns need not start at column 0 (another CTA of the SM may
// hold them).
__global__ void __launch_bounds__(128) free_zero_half_width(float *out) {
  __shared__ uint32_t slot;
  // CHECK: alloc-base.cu:[[@LINE+1]]:3: error: tcgen05.dealloc of the constant address 0, which is not a value tcgen05.alloc returned; {{.*}} [tmem-dealloc-unallocated]
  deepgemm_shape<256>(out, &slot);
}

// Bug: linked to the allocation, the free's count is checked against it.
__global__ void __launch_bounds__(128) free_zero_wrong_count(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 512);
    tmem_relinquish();
  }
  tmem_sync();
  out[threadIdx.x] = 0.0f;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    // CHECK: alloc-base.cu:[[@LINE+1]]:5: error: tcgen05.dealloc frees 256 columns of 'slot', {{.*}} [tmem-dealloc-mismatch]
    tmem_free(0, 256);
}

// Bug: column 128 of a full-width allocation is not its start.
__global__ void __launch_bounds__(128) free_column_128(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 512);
    tmem_relinquish();
  }
  tmem_sync();
  out[threadIdx.x] = 0.0f;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    // CHECK: alloc-base.cu:[[@LINE+1]]:5: error: tcgen05.dealloc frees 'slot' at an offset of 0 lane(s) and 128 column(s): only the start of an allocation can be freed (rule A9) [tmem-dealloc-unallocated]
    tmem_free(128, 512);
}
