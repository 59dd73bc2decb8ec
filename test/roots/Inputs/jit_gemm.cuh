// Stand-in for a JIT library's kernel header (DeepGEMM's impls/*.cuh shape):
// a kernel template that the library instantiates at run time, never in the
// header itself. kNumCtas selects 1- or 2-CTA code with plain `if`s on the
// template constant, both arms compiled.
#pragma once
#include <stdint.h>

namespace jit {

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <uint32_t kNumCols, uint32_t kNumCtas>
__global__ void __launch_bounds__(128, 1) gemm_impl(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    if (kNumCtas == 1)
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                   "[%0], %1;" ::"r"(smem_addr(&slot)),
                   "r"(kNumCols));
    else
      asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 "
                   "[%0], %1;" ::"r"(smem_addr(&slot)),
                   "r"(kNumCols));
  }
  __syncthreads();
  const uint32_t taddr = slot;
  if (warp == 0) {
    if (kNumCtas == 1)
      asm volatile(
          "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
    else
      asm volatile(
          "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;");
  }
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r)
               : "r"(taddr + ((warp * 32) << 16)));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[threadIdx.x] = __uint_as_float(r);
  __syncthreads();
  // The peer CTA must be done with the columns before the pair frees them.
  if (kNumCtas == 2) {
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
  }
  if (warp == 0) {
    if (kNumCtas == 1)
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(
                       taddr),
                   "r"(kNumCols));
    else
      asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(
                       taddr),
                   "r"(kNumCols));
  }
}

} // namespace jit
