// BAD_COLS (96) comes from target_compile_definitions: an illegal column
// count only the build's flags reveal.
#include "tmem_alloc.h"
__global__ void bad_alloc() {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    tmem_alloc<BAD_COLS>(&slot);
    tmem_relinquish();
  }
  __syncthreads();
  uint32_t taddr = slot;
  __syncthreads();
  if (threadIdx.x < 32)
    tmem_free<BAD_COLS>(taddr);
}
