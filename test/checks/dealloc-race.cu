// RUN: not %tmemcheck --checks='-*,tmem-dealloc-race' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-dealloc-race: a tcgen05.dealloc not ordered after every other
// thread's access to the region by a barrier (for cta_group::2, the peer
// CTA's by a cluster barrier), or issued while an mma/cp/shift of the
// deallocating thread may still be running (rules A9, A11, bug class 11).

// Helpers, as CUTLASS/DeepGEMM-style code wraps the raw PTX. The buggy
// kernels write their dealloc inline so that each finding has its own line.
__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :: "r"(smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{ .reg .pred p; LAB_WAIT_%=: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
               "@!p bra LAB_WAIT_%=; }"
               :: "r"(smem_addr(bar)), "r"(parity) : "memory");
}

__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; "
               "selp.u32 %0, 1, 0, p; }" : "=r"(pred));
  return pred != 0;
}

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(smem_addr(slot)), "r"(ncols) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

__device__ __forceinline__ void tmem_alloc_pair(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(smem_addr(slot)), "r"(ncols) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"
               ::: "memory");
}

// Fenced CTA barrier: orders tcgen05 work across the threads of the CTA.
__device__ __forceinline__ void tmem_sync() {
  fence_before();
  __syncthreads();
  fence_after();
}

// Fenced cluster barrier: orders tcgen05 work across the CTA pair.
__device__ __forceinline__ void cluster_sync() {
  fence_before();
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
  fence_after();
}

// 4 columns of this warp's 32-lane quarter, completed before returning.
__device__ __forceinline__ float ld_sum_x4(uint32_t taddr) {
  uint32_t v[4];
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
               : "r"(taddr) : "memory");
  wait_ld();
  return __uint_as_float(v[0]) + __uint_as_float(v[1]) +
         __uint_as_float(v[2]) + __uint_as_float(v[3]);
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64: 64 accumulator columns.
constexpr uint32_t kIdescN64 =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

__device__ __forceinline__ void mma_ss(uint32_t d_tmem, uint64_t adesc,
                                       uint64_t bdesc, uint32_t accumulate) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
               :: "r"(d_tmem), "l"(adesc), "l"(bdesc), "r"(kIdescN64),
                  "r"(accumulate)
               : "memory");
}

__device__ __forceinline__ void commit_to(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
               :: "r"(smem_addr(bar)) : "memory");
}

// ---- Bugs ----------------------------------------------------------------

// The epilogue warps finish their loads (wait::ld), but nothing tells the
// allocating warp: it frees the columns while they may still be reading.
__global__ void dealloc_without_final_barrier(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(tmem_base + lanes + 8));
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v);
  }
  if (warp_idx == 0)
    // CHECK: dealloc-race.cu:[[@LINE+2]]:19: error: tcgen05.dealloc of 'tmem_slot' is not ordered after the tcgen05.ld of other threads: no barrier between them (rule A11) [tmem-dealloc-race]
    // CHECK-NEXT: dealloc-race.cu:[[@LINE-7]]:19: note: tcgen05.ld accesses the region here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
}

// The MMA warp never commits its mma and frees the accumulator itself.
__global__ void dealloc_with_uncommitted_mma(uint64_t adesc, uint64_t bdesc) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 1) {
    tmem_alloc(&tmem_slot, 64);
    fence_before();
    __syncwarp();
    fence_after();
    const uint32_t tmem_base = tmem_slot;
    if (elect_one())
      mma_ss(tmem_base, adesc, bdesc, 0);
    __syncwarp();
    // CHECK: dealloc-race.cu:[[@LINE+2]]:19: error: tcgen05.dealloc of 'tmem_slot' while the tcgen05.mma issued by this thread may still be running: commit it and wait on the mbarrier first (rule A11) [tmem-dealloc-race]
    // CHECK-NEXT: dealloc-race.cu:[[@LINE-3]]:7: note: tcgen05.mma issued here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
  }
}

// cta_group::2: __syncthreads orders this CTA's epilogue, but the peer CTA
// may still be reading its half of the pair allocation.
__global__ void __cluster_dims__(2, 1, 1) pair_dealloc_after_cta_barrier(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc_pair(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4)
    out[blockIdx.x * 128 + threadIdx.x % 128] =
        ld_sum_x4(tmem_base + (((warp_idx % 4) * 32) << 16));
  tmem_sync();
  if (warp_idx == 0)
    // CHECK: dealloc-race.cu:[[@LINE+2]]:19: error: tcgen05.dealloc.cta_group::2 of 'tmem_slot' is not ordered after the peer CTA's tcgen05.ld: synchronise the pair with a cluster barrier first (rule A9) [tmem-dealloc-race]
    // CHECK-NEXT: dealloc-race.cu:[[@LINE-4]]:9: note: tcgen05.ld accesses the region here
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
}

// The epilogue warps synchronise among themselves with a named barrier of
// their 128 threads; the allocating warp takes no part in it, so it is not
// ordered after their loads.
__global__ void named_barrier_excludes_dealloc_warp(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4) {
    out[threadIdx.x] = ld_sum_x4(tmem_base + (((warp_idx % 4) * 32) << 16));
    fence_before();
    asm volatile("bar.sync 1, 128;" ::: "memory");
  }
  if (warp_idx == 0)
    // CHECK: dealloc-race.cu:[[@LINE+2]]:19: error: tcgen05.dealloc of 'tmem_slot' is not ordered after the tcgen05.ld of other threads: no barrier between them (rule A11) [tmem-dealloc-race]
    // CHECK-NEXT: dealloc-race.cu:[[@LINE-6]]:24: note: tcgen05.ld accesses the region here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
}

// ---- Must not be flagged -------------------------------------------------

// __syncthreads between the epilogue's last access and the dealloc.
__global__ void barrier_before_dealloc(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4)
    out[threadIdx.x] = ld_sum_x4(tmem_base + (((warp_idx % 4) * 32) << 16));
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 64);
}

// Only the deallocating warp touches the columns (ld + wait::ld), under the
// same role test as the dealloc: its own program order suffices.
__global__ void only_dealloc_warp_accesses(float *out, const float *in) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 32);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 0)
    out[threadIdx.x] = ld_sum_x4(tmem_base);
  out[blockDim.x + threadIdx.x] = in[threadIdx.x] * 2.f;
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 32);
}

// cta_group::2 with a cluster barrier before the pair dealloc.
__global__ void __cluster_dims__(2, 1, 1) pair_dealloc_after_cluster_barrier(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc_pair(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4)
    out[blockIdx.x * 128 + threadIdx.x % 128] =
        ld_sum_x4(tmem_base + (((warp_idx % 4) * 32) << 16));
  cluster_sync();
  if (warp_idx == 0)
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
}

// The MMA warp commits to tmem_full, the epilogue waits on it and reads,
// then everybody meets at __syncthreads and the MMA warp (which allocated)
// frees the accumulator.
__global__ void committed_mma_then_barrier(uint64_t adesc, uint64_t bdesc,
                                           float *out, int num_k) {
  __shared__ alignas(8) uint64_t tmem_full;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&tmem_full, 1);
  if (warp_idx == 1)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 1) {
    if (elect_one()) {
      for (int k = 0; k < num_k; ++k)
        mma_ss(tmem_base, adesc + k * 2, bdesc + k * 2, k > 0 ? 1u : 0u);
      commit_to(&tmem_full);
    }
    __syncwarp();
  } else if (warp_idx >= 4) {
    mbar_wait(&tmem_full, 0);
    fence_after();
    out[threadIdx.x] = ld_sum_x4(tmem_base + (((warp_idx % 4) * 32) << 16));
  }
  tmem_sync();
  if (warp_idx == 1)
    tmem_dealloc(tmem_base, 64);
}

// cta_group::2, learn-cuda matmul_v5's shape: CTA 0's elected thread
// issues the pair mma and commits with .multicast::cluster to the
// `mainloop` barrier of both CTAs; every thread of each CTA waits on its own
// copy, then __syncthreads and the pair dealloc. The wait orders the peer's
// mma across the pair (the arrive comes once it completed), so no cluster
// barrier is needed for it.
__device__ __forceinline__ void mma_pair_and_multicast(uint32_t d_tmem,
                                                       uint64_t adesc,
                                                       uint64_t bdesc,
                                                       uint64_t *bar) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, 0, 0; "
               "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p; }"
               :: "r"(d_tmem), "l"(adesc), "l"(bdesc), "r"(0x8200490u)
               : "memory");
  asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::"
               "cluster.multicast::cluster.b64 [%0], %1;"
               :: "r"(smem_addr(bar)), "h"((uint16_t)3) : "memory");
}

__global__ void __cluster_dims__(2, 1, 1)
    pair_mma_ordered_by_multicast_commit(uint64_t adesc, uint64_t bdesc) {
  __shared__ alignas(8) uint64_t mainloop;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0)
    mbar_init(&mainloop, 1);
  if (warp_idx == 0)
    tmem_alloc_pair(&tmem_slot, 64);
  cluster_sync();
  const uint32_t tmem_base = tmem_slot;
  if (rank == 0 && warp_idx == 1 && elect_one())
    mma_pair_and_multicast(tmem_base, adesc, bdesc, &mainloop);
  __syncthreads();
  mbar_wait(&mainloop, 0);
  fence_after();
  __syncthreads();
  if (warp_idx == 0)
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
}

// The same, but only CTA 0 waits: CTA 1 may free while the pair mma still
// writes its columns.
__global__ void __cluster_dims__(2, 1, 1)
    pair_mma_waited_by_one_cta(uint64_t adesc, uint64_t bdesc) {
  __shared__ alignas(8) uint64_t mainloop;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0)
    mbar_init(&mainloop, 1);
  if (warp_idx == 0)
    tmem_alloc_pair(&tmem_slot, 64);
  cluster_sync();
  const uint32_t tmem_base = tmem_slot;
  if (rank == 0 && warp_idx == 1 && elect_one())
    mma_pair_and_multicast(tmem_base, adesc, bdesc, &mainloop);
  __syncthreads();
  if (rank == 0)
    mbar_wait(&mainloop, 0);
  fence_after();
  __syncthreads();
  if (warp_idx == 0)
    // CHECK: dealloc-race.cu:[[@LINE+2]]:19: error: tcgen05.dealloc.cta_group::2 of 'tmem_slot' is not ordered after the peer CTA's tcgen05.mma: synchronise the pair with a cluster barrier first (rule A9) [tmem-dealloc-race]
    // CHECK-NEXT: dealloc-race.cu:{{[0-9]+}}:5: note: tcgen05.mma accesses the region here
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, 64;"
                 :: "r"(tmem_base) : "memory");
}
