// RUN: not %tmemcheck --checks='-*,tmem-divergent-collective' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-divergent-collective: alloc, dealloc, relinquish_alloc_permit, ld, st
// and wait are warp-collective (.sync.aligned): every lane of the warp must
// execute them, converged (rules §2, A2). A lane-dependent condition around
// them (threadIdx.x == 0, lane < 16, an early return of some lanes) is UB.

__device__ __forceinline__ void tmem_alloc(uint32_t slot_addr) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 128;" :: "r"(slot_addr));
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
               :: "r"(taddr));
}

__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}

__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr));
  return r;
}

__device__ __forceinline__ void tmem_wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

// Not a wrapper of one instruction: the user's own helper, which is fine by
// itself; what is wrong is calling it from divergent code.
__device__ void free_all(uint32_t taddr) {
  tmem_relinquish();
  tmem_dealloc(taddr);
}

__global__ void alloc_by_thread0() {
  __shared__ uint32_t slot;
  // CHECK: divergent-collective.cu:[[@LINE+3]]:19: error: tcgen05.alloc is warp-collective (.sync.aligned) but runs under a condition that differs between the lanes of a warp (rule A2) [tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+1]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  if (threadIdx.x == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 128;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&slot)));
  __syncthreads();
  if (threadIdx.x / 32 == 0) {
    tmem_relinquish();
    tmem_dealloc(slot);
  }
}

__global__ void ld_by_half_warp(float *out) {
  __shared__ uint32_t slot;
  uint32_t warp = threadIdx.x / 32;
  uint32_t lane = threadIdx.x % 32;
  if (warp == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot));
  __syncthreads();
  uint32_t taddr = slot + ((warp * 32) << 16);
  // CHECK: divergent-collective.cu:[[@LINE+6]]:19: error: tcgen05.ld is warp-collective (.sync.aligned) but runs under a condition that differs between the lanes of a warp (rule A2) [tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+3]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  // CHECK: divergent-collective.cu:[[@LINE+6]]:19: error: tcgen05.wait::ld is warp-collective (.sync.aligned) but runs under a condition that differs between the lanes of a warp (rule A2) [tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+1]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  if (lane < 16) {
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(taddr));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    out[threadIdx.x] = __uint_as_float(v);
  }
  __syncthreads();
  if (warp == 0) {
    tmem_relinquish();
    tmem_dealloc(slot);
  }
}

// Lanes 8..31 have exited: the rest of the warp is no longer converged.
__global__ void wait_after_early_return(float *out) {
  __shared__ uint32_t slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot));
  __syncthreads();
  uint32_t taddr = slot + ((warp * 32) << 16);
  // CHECK: divergent-collective.cu:[[@LINE+5]]:17: error: tcgen05.ld is warp-collective{{.*}}[tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+1]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  if (threadIdx.x % 32 >= 8)
    return;
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(taddr));
  // CHECK: divergent-collective.cu:[[@LINE+2]]:17: error: tcgen05.wait::ld is warp-collective{{.*}}[tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:[[@LINE-6]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[threadIdx.x] = __uint_as_float(v);
}

// Through a helper: the finding is at the call in the kernel, with a note
// at each instruction.
__global__ void dealloc_through_helper_by_lane() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 1)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot));
  __syncthreads();
  uint32_t lane = threadIdx.x & 31;
  // CHECK: divergent-collective.cu:[[@LINE+8]]:5: error: tcgen05.relinquish_alloc_permit is warp-collective (.sync.aligned) but runs under a condition that differs between the lanes of a warp (rule A2) [tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:19:17: note: 'tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned' is issued here, inside 'free_all'
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+5]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  // CHECK: divergent-collective.cu:[[@LINE+5]]:5: error: tcgen05.dealloc is warp-collective (.sync.aligned) but runs under a condition that differs between the lanes of a warp (rule A2) [tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:14:17: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'free_all'
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+2]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  // The allocating warp, but one lane short.
  if (threadIdx.x / 32 == 1 && lane != 31)
    free_all(slot);
}

// A second kernel calling the same helpers from divergent code is a
// finding of its own, not a duplicate of the one above.
__global__ void relinquish_through_helper_by_thread0() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot));
  // CHECK: divergent-collective.cu:[[@LINE+4]]:5: error: tcgen05.relinquish_alloc_permit is warp-collective{{.*}}[tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:19:17: note: 'tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned' is issued here, inside 'tmem_relinquish'
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+1]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  if (threadIdx.x == 0)
    tmem_relinquish();
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(slot);
}

// 16 rows per query: `tid < queries * 16` splits a warp whenever the
// query count is odd, even though the thread index sits in a local and the
// bound is a uniform product (compare divergent-collective-warp-bounds.cu).
__global__ void rows_per_query_not_a_warp_multiple(int queries, float *out) {
  __shared__ uint32_t slot;
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  if (warp == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot));
  __syncthreads();
  const int rows = queries * 16;
  // CHECK: divergent-collective.cu:[[@LINE+4]]:18: error: tcgen05.ld is warp-collective{{.*}}[tmem-divergent-collective]
  // CHECK-NEXT: divergent-collective.cu:24:17: note: 'tcgen05.ld.sync.aligned.32x32b.x1.b32' is issued here, inside 'tmem_ld'
  // CHECK-NEXT: divergent-collective.cu:[[@LINE+1]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
  if (tid < rows) {
    uint32_t v = tmem_ld(slot + ((warp * 32) << 16));
    // CHECK: divergent-collective.cu:[[@LINE+3]]:5: error: tcgen05.wait::ld is warp-collective{{.*}}[tmem-divergent-collective]
    // CHECK-NEXT: divergent-collective.cu:30:17: note: 'tcgen05.wait::ld.sync.aligned' is issued here, inside 'tmem_wait_ld'
    // CHECK-NEXT: divergent-collective.cu:[[@LINE-4]]:7: note: this condition depends on the lane; branch on a warp-uniform value such as threadIdx.x / 32 instead
    tmem_wait_ld();
    out[tid] = __uint_as_float(v);
  }
  __syncthreads();
  if (warp == 0) {
    tmem_relinquish();
    tmem_dealloc(slot);
  }
}

// Must not be flagged: warp-uniform conditions (warp index, a __shfl_sync
// broadcast, a comparison of threadIdx.x with a multiple of 32),
// CTA-uniform ones, loop conditions, and instructions that are not
// collective (fence, an elected commit) under lane tests.
__global__ void uniform_conditions(int n, float *out, uint32_t bar) {
  __shared__ uint32_t slot;
  uint32_t warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp_idx == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot));
  __syncthreads();
  uint32_t taddr = slot + (((threadIdx.x / 32) % 4 * 32) << 16);
  if (blockIdx.x < n && (threadIdx.x >> 5) < 4) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      uint32_t v = tmem_ld(taddr);
      tmem_wait_ld();
      out[i] = __uint_as_float(v);
    }
  }
  if (threadIdx.x < 128) {
    uint32_t v = tmem_ld(taddr);
    tmem_wait_ld();
    out[threadIdx.x] += __uint_as_float(v);
  }
  if (threadIdx.x % 32 == 0) {
    asm volatile("tcgen05.fence::before_thread_sync;");
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
                 ".shared::cluster.b64 [%0];" :: "r"(bar));
  }
  __syncthreads();
  if (warp_idx == 0) {
    tmem_relinquish();
    tmem_dealloc(slot);
  }
}
