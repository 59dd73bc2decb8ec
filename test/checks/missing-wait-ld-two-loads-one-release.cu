// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s -- -std=c++17 -I%S/../analysis/Inputs/cute 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not="compile error"
//
// Two loads of one trip (the two halves of an accumulator stage), neither
// followed by tcgen05.wait::ld, are released by one "empty" arrive. That is
// one finding at the arrive, and it names both loads: a user who reads only
// the first note and moves a wait::ld after the first load has not fixed
// the second. (The second load's note used to be dropped: its finding had
// the same check, place and message, and only the first was kept.)
#include "cute_role_helpers.h"
// The writer warp: both halves once the readers released them.
__device__ inline void write_both_halves(uint32_t tmem_base, uint64_t *full,
                                         uint64_t *empty, int tiles) {
  for (int t = 0; t < tiles; ++t) {
    mbar_wait(empty, t & 1);
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(tmem_base), "r"(t));
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(tmem_base + 64), "r"(t));
    asm volatile("tcgen05.wait::st.sync.aligned;");
    mbar_arrive(full);
  }
}
__global__ void __launch_bounds__(256) two_halves(float *out, int tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t full, empty;
  int warp = canonical_warp_idx_sync();
  alloc_lane_quarter(warp, &tmem_base);
  uint32_t taddr = tmem_base + ((uint32_t(warp % 4) * 32) << 16);
  if (warp < 4) {
    for (int t = 0; t < tiles; ++t) {
      mbar_wait(&full, t & 1);
      uint32_t lo[4], hi[4];
      ld_x4(taddr, lo);
      ld_x4(taddr + 64, hi);
      out[threadIdx.x] = __uint_as_float(lo[0] + lo[3] + hi[0] + hi[3]);
      // CHECK: missing-wait-ld-two-loads-one-release.cu:[[@LINE+5]]:7: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
      // CHECK-NEXT: fix-it:"{{.*}}missing-wait-ld-two-loads-one-release.cu":{[[@LINE+4]]:1-[[@LINE+4]]:1}:"      asm volatile(\"tcgen05.wait::ld.sync.aligned;\" ::: \"memory\");\n"
      // CHECK-NEXT: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'mbar_arrive'
      // CHECK-NEXT: missing-wait-ld-two-loads-one-release.cu:[[@LINE-6]]:7: note: the tcgen05.ld is issued here
      // CHECK-NEXT: missing-wait-ld-two-loads-one-release.cu:[[@LINE-6]]:7: note: the tcgen05.ld is issued here
      mbar_arrive(&empty);
    }
  } else if (warp == 4) {
    write_both_halves(tmem_base, &full, &empty, tiles);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(tmem_base));
}

// The fixed form: one tcgen05.wait::ld after both loads completes both.
__global__ void __launch_bounds__(256) two_halves_waited(float *out, int tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t full, empty;
  int warp = canonical_warp_idx_sync();
  alloc_lane_quarter(warp, &tmem_base);
  uint32_t taddr = tmem_base + ((uint32_t(warp % 4) * 32) << 16);
  if (warp < 4) {
    for (int t = 0; t < tiles; ++t) {
      mbar_wait(&full, t & 1);
      uint32_t lo[4], hi[4];
      ld_x4(taddr, lo);
      ld_x4(taddr + 64, hi);
      asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
      out[threadIdx.x] = __uint_as_float(lo[0] + lo[3] + hi[0] + hi[3]);
      mbar_arrive(&empty);
    }
  } else if (warp == 4) {
    write_both_halves(tmem_base, &full, &empty, tiles);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(tmem_base));
}
