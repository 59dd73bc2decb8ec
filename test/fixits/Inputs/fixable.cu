// Input of the fix-it tests: one finding of each kind that has a fix-it
// (tmem-alloc-ncols, tmem-missing-wait-ld, tmem-missing-relinquish), each
// fixable. Apart from them the kernels are clean under the default checks,
// so after --fix tmemcheck reports nothing. Raw inline asm only: no CUDA
// headers needed.
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void alloc_cols(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(smem_addr(slot)), "r"(ncols) : "memory");
}

__device__ __forceinline__ void dealloc_cols(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

__device__ __forceinline__ void relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}

// Fenced CTA barrier: orders tcgen05 work across the threads of the CTA.
__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// tmem-alloc-ncols: 96 columns at the alloc and at the dealloc.
__global__ void odd_column_count() {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    alloc_cols(&slot, 96);
    relinquish();
  }
  tmem_sync();
  const uint32_t taddr = slot;
  tmem_sync();
  if (warp_idx == 0)
    dealloc_cols(taddr, 96);
}

// tmem-missing-wait-ld: the allocating warp frees the columns its ld may
// still be reading (lanes 16-31 never read v).
__global__ void free_before_wait(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    alloc_cols(&slot, 32);
    relinquish();
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t taddr = slot;
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(taddr));
    if (threadIdx.x % 32 < 16) out[threadIdx.x] = __uint_as_float(v);
    dealloc_cols(taddr, 32); // frees the columns
  }
}

// tmem-missing-relinquish: the alloc is written in the kernel.
__global__ void never_relinquishes() {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
        :: "r"(smem_addr(&slot)) : "memory");
  }
  tmem_sync();
  const uint32_t taddr = slot;
  tmem_sync();
  if (warp_idx == 0)
    dealloc_cols(taddr, 64);
}
