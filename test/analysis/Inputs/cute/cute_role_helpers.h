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
