// A kernel whose finding depends on a header (cols.h): test/cli/cache.test.
#include <cstdint>
#include "cols.h"

__device__ __forceinline__ void alloc_cols(uint32_t slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(slot), "r"(ncols));
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}

__device__ __forceinline__ void dealloc_cols(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols));
}

__global__ void header_sized() {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  if (threadIdx.x / 32 == 0)
    alloc_cols(s, KERNEL_COLS);
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    dealloc_cols(slot, KERNEL_COLS);
}
