// The raw mbarrier and wait helpers, CUTLASS's warp index, and its
// circular stage index
// (sm90_pipeline.hpp PipelineState, as CUTLASS writes it: its methods keep
// index_ in [0, Stages)) that the tests of code shared by two roles use.
#pragma once
#include <cstdint>

__device__ inline void mbar_wait(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n\t.reg .pred p;\n\t"
               "WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra WAIT_%=;\n\t}" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(bar)),
               "r"(phase));
}
__device__ inline void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
      (uint32_t)__cvta_generic_to_shared(bar)));
}
__device__ inline void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(bar)),
               "r"(count));
}
// CUTLASS's canonical_warp_idx_sync: the warp index, broadcast from lane 0.
__device__ inline int canonical_warp_idx_sync() {
  return __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
}
__device__ inline void wait_st() { asm volatile("tcgen05.wait::st.sync.aligned;"); }
__device__ inline void wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;"); }

// CUTLASS's own stage index (after the helpers, whose lines tests pin).
#include "../cutlass/cutlass_pipeline_state.h"
using cutlass::PipelineState;

// The load tests' raw-asm pieces (after the helpers above, whose lines
// tests pin): a 32x32b.x4 load, warp 0's 128-column allocation with each
// warp's lane quarter, and the writer role that refills a released stage
// (an st, completed) and hands it back on "full".
__device__ inline void ld_x4(uint32_t taddr, uint32_t (&r)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(taddr));
}
__device__ inline uint32_t alloc_lane_quarter(int warp, uint32_t *tmem_base) {
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;" ::"r"(
        (uint32_t)__cvta_generic_to_shared(tmem_base)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  return *tmem_base + ((uint32_t(warp % 4) * 32) << 16);
}
__device__ inline void refill_stages(uint32_t tmem_base, uint64_t *empty,
                                     uint64_t *full, int tiles) {
  for (int t = 0; t < tiles; ++t) {
    mbar_wait(empty, t & 1);
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(tmem_base), "r"(t));
    asm volatile("tcgen05.wait::st.sync.aligned;");
    mbar_arrive(full);
  }
}
