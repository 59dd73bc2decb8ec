// Template of the batch tests: batch.test makes many kernels from it with
// sed, replacing @N@ (a kernel name suffix), @ALLOC@ and @FREE@ (the
// column counts of the alloc and the dealloc). Clean when both are the
// same legal count.
#include <cstdint>

__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__global__ void kernel_@N@(uint32_t *out) {
  __shared__ uint32_t slot;
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))),
           "r"(@ALLOC@) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
                 ::: "memory");
  }
  tmem_sync();
  const uint32_t taddr = slot;
  out[threadIdx.x] = taddr;
  tmem_sync();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "r"(@FREE@) : "memory");
}
