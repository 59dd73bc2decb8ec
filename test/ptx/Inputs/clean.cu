// Correct TMEM use that must stay silent on PTX as on CUDA; compiled to
// clean.ptx by regenerate.sh.
#include <cstdint>

__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .b32 rx;\n .reg .pred px;\n"
               " elect.sync rx|px, 0xffffffff;\n @px mov.s32 %0, 1;\n}"
               : "+r"(pred));
  return pred != 0;
}

// Warp 0 allocates, warps 4-7 read their lane quarter each tile and wait,
// warp 1 issues the commit through one elected thread, warp 0 frees.
__global__ void __launch_bounds__(256, 1)
    warp_specialized(float *out, int num_tiles) {
  __shared__ uint32_t slot;
  __shared__ alignas(8) uint64_t bar;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const uint32_t t = slot;
  if (warp == 1 && elect_one())
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&bar)));
  if (warp >= 4) {
    for (int tile = 0; tile < num_tiles; ++tile) {
      uint32_t v;
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                   : "=r"(v) : "r"(t + (((warp % 4) * 32) << 16)));
      asm volatile("tcgen05.wait::ld.sync.aligned;");
      out[tile * 256 + threadIdx.x] = __uint_as_float(v);
    }
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" :: "r"(t));
}
