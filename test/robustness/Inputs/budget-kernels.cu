// Input of the kernel-budget tests: two kernels that leak their TMEM (each
// has a real tmem-leak finding). 'looped' reads TMEM in a loop, so the
// dataflow visits its loop blocks more than once; 'straight' has no loop.
#include <cstdint>

__device__ __forceinline__ void fenced_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__global__ void looped(float *out, int k_iters) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  fenced_sync();
  const uint32_t taddr = slot;
  float acc = 0.f;
  for (int k = 0; k < k_iters; ++k) {
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v)
                 : "r"(taddr + (((threadIdx.x / 32) % 4 * 32) << 16)));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    acc += __uint_as_float(v);
  }
  out[threadIdx.x] = acc;
}

__global__ void straight(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  fenced_sync();
  out[threadIdx.x] = static_cast<float>(slot);
}
