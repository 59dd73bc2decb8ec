// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s -- -std=c++17 -I%S/../analysis/Inputs/cute 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not="compile error"
//
// DeepGEMM's swap-AB epilogue (epilogue/sm100_store_cd_swap_ab.cuh, FP32
// output) loads each store block of the accumulator with no
// tcgen05.wait::ld and gives the stage back to the MMA warp in the last
// store block: `for (s = 0; s < num_stores; ++s) { ld; ...; if (s ==
// num_stores - 1) arrive(tmem_empty); }`, num_stores known only at run
// time. `s < num_stores` and `s == num_stores - 1` test a loop counter, not
// a role: they are not exclusive, and the arrive is the load's release
// (it used to be dropped as unreachable from the load, and the load was
// reported only at a later barrier).
#include "cute_role_helpers.h"
__global__ void __launch_bounds__(256) swap_ab_epilogue(float *out,
                                                        const uint32_t *counts,
                                                        int tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t full, empty;
  int warp = canonical_warp_idx_sync();
  const uint32_t taddr = alloc_lane_quarter(warp, &tmem_base);
  const uint32_t num_stores = counts[blockIdx.x];
  if (warp < 4) {
    for (int t = 0; t < tiles; ++t) {
      mbar_wait(&full, t & 1);
      for (uint32_t s = 0; s < num_stores; ++s) {
        uint32_t v[4];
        ld_x4(taddr + s * 4, v);
        out[threadIdx.x * 4 + s] = __uint_as_float(v[0] + v[1] + v[2] + v[3]);
        // CHECK: missing-wait-ld-loop-counter-release.cu:[[@LINE+3]]:11: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
        // CHECK: missing-wait-ld-loop-counter-release.cu:[[@LINE-3]]:9: note: the tcgen05.ld is issued here
        if (s == num_stores - 1)
          mbar_arrive(&empty);
      }
    }
    asm volatile("tcgen05.wait::ld.sync.aligned;");
  } else if (warp == 4) {
    refill_stages(tmem_base, &empty, &full, tiles);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(tmem_base));
}
