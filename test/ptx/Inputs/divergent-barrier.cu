// Aligned barriers reached at different instructions (rule B1), and the
// correct look-alikes. Compiled to divergent-barrier.ptx by regenerate.sh;
// test/checks/divergent-barrier.cu analyses the same kernels from source.
#include <cstdint>

__device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 128;" ::"r"((uint32_t)__cvta_generic_to_shared(slot)));
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(
      taddr));
}
__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\n\t"
               "tcgen05.wait::ld.sync.aligned;"
               : "=r"(r)
               : "r"(taddr)
               : "memory");
  return r;
}
__device__ __forceinline__ void named_sync(uint32_t id, uint32_t count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// Warp-specialised partitions that leave through their own exits, each
// with its own CTA-wide barrier 0 (the Triton #11525 shape): the epilogue
// warps' loads are not ordered before warp 0's dealloc.
__global__ void partitions_own_barrier(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  __syncthreads();
  const uint32_t taddr = slot;
  if (warp < 4) {
    out[threadIdx.x] = __uint_as_float(tmem_ld(taddr + ((warp * 32) << 16)));
    __syncthreads();
    return;
  }
  out[threadIdx.x] = 0.0f;
  __syncthreads();
  if (warp == 4)
    tmem_dealloc(taddr);
}

// Lanes of one warp at two different aligned barriers.
__global__ void lanes_apart(float *out) {
  if (threadIdx.x % 32 < 16) {
    out[threadIdx.x] = 1.0f;
    named_sync(1, 128);
  } else {
    out[threadIdx.x] = 2.0f;
    named_sync(2, 128);
  }
}

// Correct: the warps that leave take no part in the named barrier, whose
// thread count is that of the warps that stay.
__global__ void early_exit_counted(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp >= 2)
    return;
  if (warp == 0)
    tmem_alloc(&slot);
  named_sync(1, 64);
  const uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld(taddr + ((warp * 32) << 16)));
  named_sync(1, 64);
  if (warp == 0)
    tmem_dealloc(taddr);
}

// Correct: one barrier after the divergent region reconverges.
__global__ void reconverged(float *out) {
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = 1.0f;
  else
    out[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] += 1.0f;
}

// Correct: warp roles, each with its own named barrier and count.
__global__ void roles_own_ids(float *out) {
  const uint32_t warp = threadIdx.x / 32;
  if (warp < 4) {
    out[threadIdx.x] = 1.0f;
    named_sync(1, 128);
    out[threadIdx.x] += 1.0f;
  } else {
    out[threadIdx.x] = 2.0f;
    named_sync(2, 128);
    out[threadIdx.x] += 2.0f;
  }
  __syncthreads();
}
