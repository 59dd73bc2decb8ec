// A .cpp compiled as CUDA (LANGUAGE CUDA: nvcc -x cu); it frees 64 columns
// of a 128-column allocation.
#include "tmem_alloc.h"
__global__ void mismatched_free() {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    tmem_alloc<128>(&slot);
    tmem_relinquish();
  }
  __syncthreads();
  uint32_t taddr = slot;
  __syncthreads();
  if (threadIdx.x < 32)
    tmem_free<64>(taddr);
}
