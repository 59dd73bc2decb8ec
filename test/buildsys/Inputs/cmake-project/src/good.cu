// Correct: a legal allocation, relinquished, freed by the allocating warp.
#include "tmem_alloc.h"
__global__ void good_alloc() {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    tmem_alloc<128>(&slot);
    tmem_relinquish();
  }
  __syncthreads();
  uint32_t taddr = slot;
  __syncthreads();
  if (threadIdx.x < 32)
    tmem_free<128>(taddr);
}
