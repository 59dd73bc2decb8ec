// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s -- -std=c++17 -I%S/../analysis/Inputs/cute 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not="compile error"
//
// A load in a persistent loop is pending at two releases: the "empty"
// arrive of the same trip and the "done" arrive after the loop. One finding
// per load, at the release the thread reaches first (the fewest blocks
// from the load), so that its fix, a tcgen05.wait::ld before the in-loop
// release, is the one that also covers the later release. (The finding
// used to be placed by event numbers, after the loop, with a fix-it that
// left the in-loop release unordered.)
#include "cute_role_helpers.h"
__global__ void __launch_bounds__(256) kf(float *out, int tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t full, empty, done;
  int warp = canonical_warp_idx_sync();
  uint32_t taddr = alloc_lane_quarter(warp, &tmem_base);
  if (warp < 4) {
    for (int t = 0; t < tiles; ++t) {
      mbar_wait(&full, t & 1);
      uint32_t v[4];
      ld_x4(taddr, v);
      out[threadIdx.x] = __uint_as_float(v[0] + v[1] + v[2] + v[3]);
      // CHECK: missing-wait-ld-first-release.cu:[[@LINE+4]]:7: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
      // CHECK-NEXT: fix-it:"{{.*}}missing-wait-ld-first-release.cu":{[[@LINE+3]]:1-[[@LINE+3]]:1}:"      asm volatile(\"tcgen05.wait::ld.sync.aligned;\" ::: \"memory\");\n"
      // CHECK-NEXT: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'mbar_arrive'
      // CHECK-NEXT: missing-wait-ld-first-release.cu:[[@LINE-5]]:7: note: the tcgen05.ld is issued here
      mbar_arrive(&empty);
    }
    mbar_arrive(&done);
  } else if (warp == 4) {
    refill_stages(tmem_base, &empty, &full, tiles);
    mbar_wait(&done, 0);
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(tmem_base), "r"(0));
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(tmem_base));
}
