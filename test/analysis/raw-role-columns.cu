// RUN: %tmemcheck %s -- -std=c++17 -I%S/Inputs/cute 2>&1 | count 0
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DS1_COLUMN=0 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// The raw-asm form of one softmax body for two warpgroups: the address is
// `tmem_base + (group == 0 ? 0 : S1) + ((warp % 4 * 32) << 16)`, the group
// picked by the warp, and each group waits on its own ordering barrier and
// signals the other's before its tcgen05.wait::st. The other group touches
// only its own columns, so nothing pending is handed over: the columns are
// known thread by thread as offsets from the allocation start (the base is
// one shared word, the same in every thread), and the release hands over
// only the arriving threads' columns to the waiting threads. With S1 laid
// over S0 (S1_COLUMN=0) the other group reads the stored columns.
// nvcc's PTX of both is ../ptx/Inputs/raw-role-columns*.ptx
// (../ptx/cute-tensor-roles.test).

#include "cute_role_helpers.h"

#ifndef S1_COLUMN
#define S1_COLUMN 128
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

// One softmax body for both warpgroups: each its own S columns, its own
// barrier to wait on and the other group's to signal.
__device__ void softmax(uint32_t tmem_base, int group, uint64_t *order,
                        int k_tiles) {
  int warp = canonical_warp_idx_sync();
  uint32_t taddr = tmem_base + (group == 0 ? 0u : uint32_t(S1_COLUMN)) +
                   (uint32_t(warp % 4 * 32) << 16);
  uint32_t phase = 0;
  for (int k = 0; k < k_tiles; ++k) {
    mbar_wait(&order[group], phase);
    uint32_t s[8];
    ld_x8(taddr, s);
    wait_ld();
    st_x2(taddr, s[0] * 3, s[1] * 3);
    // CHECK: raw-role-columns.cu:[[@LINE+3]]:5: error: this mbarrier arrive lets other threads read columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
    // CHECK-NEXT: cute_role_helpers.h:16:17: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'mbar_arrive'
    // CHECK-NEXT: raw-role-columns.cu:[[@LINE-3]]:5: note: the tcgen05.st is issued here
    mbar_arrive(&order[(group + 1) % 2]);
    wait_st();
    phase ^= 1;
  }
}

__global__ void __launch_bounds__(256) raw_softmax_order(int k_tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t order[2];
  int warp = canonical_warp_idx_sync();
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 512;" ::"r"(
        (uint32_t)__cvta_generic_to_shared(&tmem_base)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  if (threadIdx.x == 0) {
    mbar_init(&order[0], 128);
    mbar_init(&order[1], 128);
  }
  __syncthreads();
  softmax(tmem_base, warp < 4 ? 0 : 1, order, k_tiles);
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 512;" ::"r"(tmem_base));
}
