// RUN: %tmemcheck --checks='-*,tmem-reuse-race' %s -- -std=c++17 -I%S/../analysis/Inputs/cute 2>&1 | count 0
// RUN: not %tmemcheck --checks='-*,tmem-reuse-race' %s -- -std=c++17 -I%S/../analysis/Inputs/cute -DWRONG_STAGE 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-reuse-race in code that two roles share: one softmax body for two
// warpgroups, each waiting on its own "full" barrier (`&full[group]`),
// reading its own S columns and releasing them on its own "empty" barrier.
// A third warpgroup writes softmax 1's S columns, hands them over on
// full[1] and waits on empty[1] before writing them again; it also paces
// softmax 0 through full[0], which hands softmax 0 nothing it wrote. The
// readers that matter are the threads whose own columns meet the write, and
// a hand-off or a wait counts only on the barrier those threads use: the
// full[0] arrive is no hand-off of S1, the wait on empty[1] is the one
// softmax 1 releases. Writing softmax 0's columns instead (WRONG_STAGE),
// the writer still waits on empty[1], which softmax 0 never arrives on:
// softmax 0 may still be reading S0 when the next trip rewrites it.
// nvcc's PTX of both is ../ptx/Inputs/reuse-race-roles*.ptx
// (../ptx/reuse-race-roles.test).

#include "cute_role_helpers.h"

#ifdef WRONG_STAGE
#define WRITTEN_GROUP 0
#else
#define WRITTEN_GROUP 1
#endif

__device__ inline void ld_x8(uint32_t taddr, uint32_t (&r)[8]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, "
               "%5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]),
                 "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(taddr));
}
__device__ inline void st_x2(uint32_t taddr, uint32_t a, uint32_t b) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x2.b32 [%0], {%1, %2};" ::"r"(
                   taddr),
               "r"(a), "r"(b));
}

// The pipelines' barriers, in the kernel's shared storage.
struct Barriers {
  uint64_t full[2];
  uint64_t empty[2];
};

// One body for both softmax warpgroups: their own columns and barriers.
__device__ void softmax(uint32_t tmem_base, int group, Barriers &bars,
                        float *out, int k_tiles) {
  int warp = canonical_warp_idx_sync();
  uint32_t taddr = tmem_base + (group == 0 ? 0u : 128u) +
                   (uint32_t(warp % 4 * 32) << 16);
  uint32_t phase = 0;
  for (int k = 0; k < k_tiles; ++k) {
    mbar_wait(&bars.full[group], phase);
    uint32_t s[8];
    ld_x8(taddr, s);
    wait_ld();
    out[threadIdx.x] = __uint_as_float(s[0] + s[7]);
    mbar_arrive(&bars.empty[group]);
    phase ^= 1;
  }
}

// The third warpgroup writes one softmax group's S columns each trip.
__device__ void correction(uint32_t tmem_base, Barriers &bars, int k_tiles) {
  int warp = canonical_warp_idx_sync();
  uint32_t taddr = tmem_base + WRITTEN_GROUP * 128u + (uint32_t(warp % 4 * 32) << 16);
  uint32_t phase = 0;
  for (int k = 0; k < k_tiles; ++k) {
    if (k > 0)
      mbar_wait(&bars.empty[1], phase ^ 1);
    st_x2(taddr, k, k + 1);
    wait_st();
    mbar_arrive(&bars.full[WRITTEN_GROUP]); // the hand-off: line 74
    mbar_arrive(&bars.full[1 - WRITTEN_GROUP]);
    phase ^= k > 0;
  }
}

__global__ void __launch_bounds__(384) roles_reuse(float *out, int k_tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ Barriers bars;
  int warp = canonical_warp_idx_sync();
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;" ::"r"(
        (uint32_t)__cvta_generic_to_shared(&tmem_base)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  if (threadIdx.x == 0)
    for (int i = 0; i < 2; ++i) {
      mbar_init(&bars.full[i], 128);
      mbar_init(&bars.empty[i], 128);
    }
  __syncthreads();
  // CHECK: reuse-race-roles.cu:[[@LINE+8]]:5: error: tcgen05.st rewrites columns of 'tmem_base' that the tcgen05.ld of other threads may still be reading: this thread never waits on the mbarrier they arrive on after the load before writing them again (rules §5.2, §5.3; bug class 32) [tmem-reuse-race]
  // CHECK-NEXT: reuse-race-roles.cu:35:17: note: 'tcgen05.st.sync.aligned.32x32b.x2.b32' is issued here, inside 'correction'
  // CHECK-NEXT: reuse-race-roles.cu:[[@LINE+4]]:5: note: the tcgen05.ld of the other threads is here
  // CHECK-NEXT: reuse-race-roles.cu:74:5: note: the columns are handed to them here, and the write comes round again after it
  // CHECK-NEXT: reuse-race-roles.cu:[[@LINE+2]]:5: note: they signal 'empty[]' here; wait on it before the write
  if (warp < 8)
    softmax(tmem_base, warp < 4 ? 0 : 1, bars, out, k_tiles);
  else
    correction(tmem_base, bars, k_tiles);
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;" ::"r"(tmem_base));
}
