// RUN: not %tmemcheck --checks='-*,tmem-alloc-peer-race' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-alloc-peer-race: a cta_group::2 alloc/relinquish that no cluster
// barrier precedes, a paired dealloc that can run before the peer's alloc
// completed, and an early return on the CTA's own identity that makes one
// CTA of the pair skip the collective its peer waits in (rules A6, A9).
// Shapes from CUTLASS #3316 (tutorials 04/05), CUTLASS #3435, Triton
// #8874/#9498/#10735 and DeepGEMM #292/#293.

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

__device__ __forceinline__ uint32_t cta_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{ .reg .pred p; LAB_WAIT_%=: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
               "@!p bra LAB_WAIT_%=; }"
               :: "r"(smem_addr(bar)), "r"(parity) : "memory");
}

__device__ __forceinline__ void alloc_pair(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(smem_addr(slot)), "r"(ncols) : "memory");
}
__device__ __forceinline__ void relinquish_pair() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"
               ::: "memory");
}
__device__ __forceinline__ void dealloc_pair(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}
__device__ __forceinline__ void alloc_one(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(smem_addr(slot)), "r"(ncols) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}
__device__ __forceinline__ void dealloc_one(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

// ---- Bugs ----------------------------------------------------------------

// CUTLASS tutorial 04/05 (#3316): warp 0 allocates for the pair before
// the cluster synchronises. Not a race: the cluster launch co-schedules
// the pair, and neither CTA can leave before its alloc (rule A6).
__global__ void __cluster_dims__(2, 1, 1) alloc_before_cluster_sync() {
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x / 32 == 0)
    // (no finding; both CTAs of the pair reach this alloc)
    alloc_pair(&tmem_slot, 256);
  // (the cluster barrier below orders the accesses before the free)
  __syncthreads();
  cluster_sync();
  const uint32_t tmem_base = tmem_slot;
  cluster_sync();
  if (threadIdx.x / 32 == 0) {
    relinquish_pair();
    dealloc_pair(tmem_base, 256);
  }
}

// CUTLASS #3435: the pair synchronises before allocating, but then frees at
// once; the follower's dealloc can run before the leader's alloc completed.
__global__ void __cluster_dims__(2, 1, 1) dealloc_before_peer_alloc() {
  __shared__ uint32_t tmem_slot;
  cluster_sync();
  if (threadIdx.x / 32 == 0) {
    alloc_pair(&tmem_slot, 32);
    relinquish_pair();
  }
  __syncthreads();
  const uint32_t tmem_base = tmem_slot;
  if (threadIdx.x / 32 == 0)
    // CHECK: alloc-peer-race.cu:[[@LINE+1]]:5: error: tcgen05.dealloc.cta_group::2 may run before the peer CTA's tcgen05.alloc completed: no cluster barrier or mbarrier wait lies between the alloc and the dealloc on any path; synchronise the pair before freeing (rule A9) [tmem-alloc-peer-race]
    dealloc_pair(tmem_base, 32);
  // CHECK-NEXT: alloc-peer-race.cu:51:17: note: 'tcgen05.dealloc.cta_group::2.sync.aligned.b32' is issued here, inside 'dealloc_pair'
  // CHECK-NEXT: alloc-peer-race.cu:[[@LINE-9]]:5: note: the pair's tcgen05.alloc.cta_group::2 is here
}

// A CTA with no tile leaves early (the tile count is odd, so the second CTA
// of the last pair has nothing to do): its peer then waits in the paired
// alloc for a CTA that is gone.
__global__ void __cluster_dims__(2, 1, 1) early_return_before_pair_alloc(
    float *out, uint32_t num_tiles) {
  __shared__ uint32_t tmem_slot;
  const uint32_t tile = blockIdx.x;
  if (tile >= num_tiles)
    // CHECK: alloc-peer-race.cu:[[@LINE+1]]:5: error: the kernel returns here under a condition on the CTA's own identity, skipping the tcgen05.alloc.cta_group::2 that the other CTA of the pair may reach: that CTA then waits for this one forever (rules A6, A9) [tmem-alloc-peer-race]
    return;
  // CHECK-NEXT: alloc-peer-race.cu:[[@LINE-3]]:7: note: the condition reads blockIdx or the CTA's rank in the cluster
  // CHECK-NEXT: alloc-peer-race.cu:[[@LINE+4]]:5: note: the paired tcgen05.alloc is here
  cluster_sync();
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    alloc_pair(&tmem_slot, 128);
  __syncthreads();
  const uint32_t tmem_base = tmem_slot;
  out[tile] = 1.0f;
  cluster_sync();
  if (warp_idx == 0) {
    relinquish_pair();
    dealloc_pair(tmem_base, 128);
  }
}

// The follower CTA (rank 1) skips the teardown rendezvous and frees alone.
__global__ void __cluster_dims__(2, 1, 1) rank_dependent_teardown() {
  __shared__ uint32_t tmem_slot;
  cluster_sync();
  if (threadIdx.x / 32 == 0)
    alloc_pair(&tmem_slot, 64);
  __syncthreads();
  const uint32_t tmem_base = tmem_slot;
  if (cta_rank() == 1)
    // CHECK: alloc-peer-race.cu:[[@LINE+1]]:5: error: the kernel returns here under a condition on the CTA's own identity, skipping the tcgen05.dealloc.cta_group::2 that the other CTA of the pair may reach: that CTA then waits for this one forever (rules A6, A9) [tmem-alloc-peer-race]
    return;
  // CHECK-NEXT: alloc-peer-race.cu:[[@LINE-3]]:7: note: the condition reads blockIdx or the CTA's rank in the cluster
  // CHECK-NEXT: alloc-peer-race.cu:[[@LINE+3]]:5: note: the paired tcgen05.dealloc is here
  cluster_sync();
  if (threadIdx.x / 32 == 0)
    dealloc_pair(tmem_base, 64);
}

// ---- Correct look-alikes: no finding -------------------------------------

// CUTLASS sm100_gemm_tma_warpspecialized: the cluster arrive is relaxed and
// early, the wait comes before the warp roles split (and only when the
// cluster has more than one CTA), and the pair hands the teardown over with
// a cluster-scope mbarrier (tmem_deallocation_result_barrier) instead of a
// cluster barrier.
__global__ void __cluster_dims__(2, 1, 1) cutlass_style_2sm(int cluster_size,
                                                           int k_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t full_bar, dealloc_bar;
  if (cluster_size > 1)
    cluster_arrive_relaxed();
  else
    __syncthreads();
  const uint32_t warp_idx = threadIdx.x / 32;
  if (cluster_size > 1)
    cluster_wait();
  else
    __syncthreads();
  if (warp_idx == 1) {
    alloc_pair(&tmem_slot, 512);
    __syncwarp();
    const uint32_t tmem_base = tmem_slot;
    for (int k = 0; k < k_tiles; ++k)
      mbar_wait(&full_bar, k & 1);
    relinquish_pair();
    mbar_wait(&dealloc_bar, 0);
    dealloc_pair(tmem_base, 512);
  }
}

// The fixed tutorial (#3316): cluster_sync() before the allocator, and again
// before the teardown.
__global__ void __cluster_dims__(2, 1, 1) tutorial_fixed() {
  __shared__ uint32_t tmem_slot;
  cluster_sync();
  if (threadIdx.x / 32 == 0)
    alloc_pair(&tmem_slot, 256);
  __syncthreads();
  const uint32_t tmem_base = tmem_slot;
  cluster_sync();
  if (threadIdx.x / 32 == 0) {
    relinquish_pair();
    dealloc_pair(tmem_base, 256);
  }
}

// Uniform early exits are fine: a kernel parameter is the same in both CTAs
// of the pair, and so is a pair index (blockIdx.x / 2, the cluster id).
__global__ void __cluster_dims__(2, 1, 1) pair_uniform_exits(
    uint32_t num_pairs, uint32_t m) {
  __shared__ uint32_t tmem_slot;
  if (m == 0)
    return;
  const uint32_t pair = blockIdx.x / 2;
  if (pair >= num_pairs)
    return;
  cluster_sync();
  if (threadIdx.x / 32 == 0)
    alloc_pair(&tmem_slot, 64);
  __syncthreads();
  const uint32_t tmem_base = tmem_slot;
  cluster_sync();
  if (threadIdx.x / 32 == 0)
    dealloc_pair(tmem_base, 64);
}

// A 1-CTA kernel needs no cluster barrier at all, and may leave early on
// blockIdx.
__global__ void one_cta_kernel(uint32_t num_tiles) {
  __shared__ uint32_t tmem_slot;
  if (blockIdx.x >= num_tiles)
    return;
  if (threadIdx.x / 32 == 0)
    alloc_one(&tmem_slot, 64);
  __syncthreads();
  const uint32_t tmem_base = tmem_slot;
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    dealloc_one(tmem_base, 64);
}
