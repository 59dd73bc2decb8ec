// RUN: %tmemcheck-bin --no-cuda --dump-events --checks='-*,tmem-leak' %s 2>&1 | FileCheck %s
//
// CuTe's block-scaled FP4 MMA atoms (mma_sm100_umma.hpp) spell the scale
// vector from their template argument VS: `kind::mxf4nvf4.block_scale
// .block16` for VS = 16, `kind::mxf4.block_scale.block32` for VS = 32. Their
// asm is compiled out without CUTE_ARCH_TCGEN05_MXF4NVF4_MMA_ENABLED (as
// here: an empty body), so the model is all there is; it used to omit the
// scale vector, which the decoder refuses, and the mma was lost (CUTLASS
// 72a's coverage check: mma 0/1).
#include <cstdint>

namespace cute {
template <class A, class B, class C, class SF, int M, int N, int VS,
          int AMajor, int BMajor>
struct SM100_MMA_MXF4_SS {
  __device__ static void fma(uint64_t const &desc_a, uint64_t const &desc_b,
                             uint32_t const &tmem_c, uint32_t const &scaleC,
                             uint64_t const &idescE, uint32_t const &tsfa_addr,
                             uint32_t const &tsfb_addr) {}
};
} // namespace cute

using Nvf4 = cute::SM100_MMA_MXF4_SS<int, int, float, char, 128, 256, 16, 0, 0>;
using Mxf4 = cute::SM100_MMA_MXF4_SS<int, int, float, char, 128, 256, 32, 0, 0>;

// CHECK-LABEL: kernel fp4_mmas
// CHECK: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16
// CHECK: tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32
__global__ void fp4_mmas(uint64_t a, uint64_t b, uint64_t idesc) {
  __shared__ uint32_t tmem_base;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 512;" ::"r"(
        (uint32_t)__cvta_generic_to_shared(&tmem_base)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  uint32_t d = tmem_base, sfa = tmem_base + 256, sfb = tmem_base + 260;
  if (threadIdx.x == 0) {
    Nvf4::fma(a, b, d, 1u, idesc, sfa, sfb);
    Mxf4::fma(a, b, d, 1u, idesc, sfa, sfb);
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 512;" ::"r"(tmem_base));
}
