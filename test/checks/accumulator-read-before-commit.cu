// RUN: not %tmemcheck --checks='-*,tmem-accumulator-read-before-commit' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-accumulator-read-before-commit: a tcgen05.ld of columns an mma writes
// with no wait, on the reading thread's path, on an mbarrier that a
// tcgen05.commit of that mma arrives on (rules §5.2, bug classes 19, 20).
// A plain arrive or barrier does not complete an mma; a commit covers every
// earlier mma of its thread.

// Helpers, as CUTLASS/DeepGEMM-style code wraps the raw PTX. The buggy
// kernels write their tcgen05.ld inline so that each finding has its own
// line.
__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :: "r"(smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
               :: "r"(smem_addr(bar)) : "memory");
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

// Fenced CTA barrier: orders tcgen05 work across the threads of the CTA.
__device__ __forceinline__ void tmem_sync() {
  fence_before();
  __syncthreads();
  fence_after();
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64: 64 accumulator columns.
constexpr uint32_t kIdescN64 =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

// D[128 x 64] (+)= A * B, both from shared-memory descriptors.
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

__device__ __forceinline__ void ld_x4(uint32_t taddr, uint32_t (&v)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
               : "r"(taddr) : "memory");
}

// ---- Bugs ----------------------------------------------------------------

// The MMA warp commits to tmem_full, but the epilogue never waits on it.
__global__ void epilogue_never_waits(uint64_t adesc, uint64_t bdesc,
                                     float *out, int num_k) {
  __shared__ alignas(8) uint64_t tmem_full;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&tmem_full, 1);
  if (warp_idx == 0)
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
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    fence_after();
    uint32_t v[4];
    // CHECK: accumulator-read-before-commit.cu:[[@LINE+2]]:19: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
    // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-9]]:9: note: the mma writing it; the commits that track it arrive on mbarriers this path does not wait on
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                 : "r"(tmem_base + lanes));
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v[0]);
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 64);
}

// The epilogue waits on tmem_full[acc] only after it has read the stage.
__global__ void ld_before_full_wait(uint64_t adesc, uint64_t bdesc,
                                    float *out, int num_tiles, int num_k) {
  __shared__ alignas(8) uint64_t tmem_full[2];
  __shared__ alignas(8) uint64_t tmem_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&tmem_full[s], 1);
      mbar_init(&tmem_empty[s], 128);
    }
  }
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 1) {
    for (int tile = 0; tile < num_tiles; ++tile) {
      const uint32_t acc = tile % 2;
      mbar_wait(&tmem_empty[acc], ((tile / 2) & 1) ^ 1);
      fence_after();
      if (elect_one()) {
        for (int k = 0; k < num_k; ++k)
          mma_ss(tmem_base + acc * 64, adesc + k * 2, bdesc + k * 2,
                 k > 0 ? 1u : 0u);
        commit_to(&tmem_full[acc]);
      }
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      const uint32_t acc = tile % 2;
      uint32_t v[4];
      // CHECK: accumulator-read-before-commit.cu:[[@LINE+2]]:21: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
      // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-12]]:11: note: the mma writing it; the commits that track it arrive on mbarriers this path does not wait on
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                   : "r"(tmem_base + lanes + acc * 64));
      mbar_wait(&tmem_full[acc], (tile / 2) & 1);
      fence_after();
      wait_ld();
      out[tile * 128 + threadIdx.x % 128] = __uint_as_float(v[1]);
      fence_before();
      mbar_arrive(&tmem_empty[acc]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 128);
}

// The MMA warp signals tmem_full with a plain arrive instead of a commit:
// the epilogue's wait does not order the mma.
__global__ void plain_arrive_instead_of_commit(uint64_t adesc, uint64_t bdesc,
                                               float *out, int num_k) {
  __shared__ alignas(8) uint64_t tmem_full;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&tmem_full, 1);
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 1) {
    if (elect_one()) {
      for (int k = 0; k < num_k; ++k)
        mma_ss(tmem_base, adesc + k * 2, bdesc + k * 2, k > 0 ? 1u : 0u);
      fence_before();
      mbar_arrive(&tmem_full);
    }
    __syncwarp();
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    mbar_wait(&tmem_full, 0);
    fence_after();
    uint32_t v[4];
    // CHECK: accumulator-read-before-commit.cu:[[@LINE+2]]:19: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
    // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-11]]:9: note: the mma writing it; no tcgen05.commit tracks it
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                 : "r"(tmem_base + lanes));
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v[0]);
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 64);
}

// One warp: its elected lane issues the mma, then the whole warp reads
// the accumulator without any commit.
__global__ void same_thread_mma_then_ld(uint64_t adesc, uint64_t bdesc,
                                        float *out) {
  __shared__ uint32_t tmem_slot;
  tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t t = tmem_slot;
  if (elect_one())
    mma_ss(t, adesc, bdesc, 0);
  __syncwarp();
  uint32_t v[4];
  // CHECK: accumulator-read-before-commit.cu:[[@LINE+2]]:17: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
  // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-4]]:5: note: the mma writing it; no tcgen05.commit tracks it
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(t));
  wait_ld();
  out[threadIdx.x] = __uint_as_float(v[3]);
  tmem_dealloc(t, 64);
}

// The same thread commits, but reads before waiting on the mbarrier.
__global__ void same_thread_commit_without_wait(uint64_t adesc, uint64_t bdesc,
                                                float *out) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t t = tmem_slot;
  if (elect_one()) {
    mma_ss(t, adesc, bdesc, 0);
    commit_to(&mma_done);
  }
  __syncwarp();
  uint32_t v[4];
  // CHECK: accumulator-read-before-commit.cu:[[@LINE+2]]:17: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
  // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-6]]:5: note: the mma writing it; the commits that track it arrive on mbarriers this path does not wait on
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(t));
  wait_ld();
  mbar_wait(&mma_done, 0);
  out[threadIdx.x] = __uint_as_float(v[3]);
  tmem_dealloc(t, 64);
}

// Bug class 19: warp 1 issues the mma but warp 2 issues the commit. A
// commit tracks only its own thread's mmas, so tmem_full fires at once.
__global__ void commit_by_another_thread(uint64_t adesc, uint64_t bdesc,
                                         float *out) {
  __shared__ alignas(8) uint64_t tmem_full;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&tmem_full, 1);
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 1 && elect_one())
    mma_ss(tmem_base, adesc, bdesc, 0);
  if (warp_idx == 2 && elect_one())
    commit_to(&tmem_full);
  if (warp_idx == 4) {
    mbar_wait(&tmem_full, 0);
    fence_after();
    uint32_t v[4];
    // CHECK: accumulator-read-before-commit.cu:[[@LINE+2]]:19: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
    // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-8]]:5: note: the mma writing it; no tcgen05.commit tracks it
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                 : "r"(tmem_base));
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v[2]);
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 64);
}

// ---- Must not be flagged -------------------------------------------------

// Persistent warp-specialised GEMM with two accumulator stages: the MMA
// warp's elected lane runs the K loop and commits to tmem_full[acc]; the
// epilogue waits on tmem_full[acc] before reading the stage.
__global__ void ws_gemm_two_acc_stages(uint64_t adesc, uint64_t bdesc,
                                       float *out, int num_tiles, int num_k) {
  __shared__ alignas(8) uint64_t full_bar[4];
  __shared__ alignas(8) uint64_t empty_bar[4];
  __shared__ alignas(8) uint64_t tmem_full[2];
  __shared__ alignas(8) uint64_t tmem_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 4; ++s) {
      mbar_init(&full_bar[s], 1);
      mbar_init(&empty_bar[s], 1);
    }
    for (int s = 0; s < 2; ++s) {
      mbar_init(&tmem_full[s], 1);
      mbar_init(&tmem_empty[s], 128);
    }
  }
  if (warp_idx == 2)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 1) {
    uint32_t stage = 0, phase = 0;
    int local_tile = 0;
    for (int tile = blockIdx.x; tile < num_tiles;
         tile += gridDim.x, ++local_tile) {
      const uint32_t acc = local_tile % 2;
      mbar_wait(&tmem_empty[acc], ((local_tile / 2) & 1) ^ 1);
      fence_after();
      for (int k = 0; k < num_k; ++k) {
        mbar_wait(&full_bar[stage], phase);
        fence_after();
        if (elect_one()) {
          mma_ss(tmem_base + acc * 64, adesc + stage * 1024,
                 bdesc + stage * 1024, k > 0 ? 1u : 0u);
          commit_to(&empty_bar[stage]);
          if (k == num_k - 1)
            commit_to(&tmem_full[acc]);
        }
        __syncwarp();
        if (++stage == 4) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    int local_tile = 0;
    for (int tile = blockIdx.x; tile < num_tiles;
         tile += gridDim.x, ++local_tile) {
      const uint32_t acc = local_tile % 2;
      mbar_wait(&tmem_full[acc], (local_tile / 2) & 1);
      fence_after();
      for (uint32_t col = 0; col < 64; col += 4) {
        uint32_t v[4];
        ld_x4(tmem_base + lanes + acc * 64 + col, v);
        wait_ld();
        for (int i = 0; i < 4; ++i)
          out[(tile * 64 + col + i) * 128 + threadIdx.x % 128] =
              __uint_as_float(v[i]);
      }
      fence_before();
      mbar_arrive(&tmem_empty[acc]);
    }
  }
  tmem_sync();
  if (warp_idx == 2)
    tmem_dealloc(tmem_base, 128);
}

// One warp: mma -> commit -> mbarrier wait -> ld.
__global__ void same_thread_commit_wait_ld(uint64_t adesc, uint64_t bdesc,
                                           float *out) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t t = tmem_slot;
  if (elect_one()) {
    mma_ss(t, adesc, bdesc, 0);
    commit_to(&mma_done);
  }
  __syncwarp();
  mbar_wait(&mma_done, 0);
  fence_after();
  uint32_t v[4];
  ld_x4(t, v);
  wait_ld();
  out[threadIdx.x] = __uint_as_float(v[0]);
  tmem_dealloc(t, 64);
}

// After the K loop the MMA warp commits to empty_bar (freeing the smem
// stage) and only then to tmem_full: no mma is issued between the two
// commits, but a commit tracks every earlier mma of the thread, so the
// epilogue's wait on tmem_full covers the whole K loop.
__global__ void commit_empty_then_full(uint64_t adesc, uint64_t bdesc,
                                       float *out, int num_k) {
  __shared__ alignas(8) uint64_t empty_bar;
  __shared__ alignas(8) uint64_t tmem_full;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    mbar_init(&empty_bar, 1);
    mbar_init(&tmem_full, 1);
  }
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx == 1) {
    if (elect_one()) {
      for (int k = 0; k < num_k; ++k)
        mma_ss(tmem_base, adesc + k * 2, bdesc + k * 2, k > 0 ? 1u : 0u);
      commit_to(&empty_bar);
      commit_to(&tmem_full);
    }
    __syncwarp();
  } else if (warp_idx == 4) {
    mbar_wait(&tmem_full, 0);
    fence_after();
    uint32_t v[4];
    ld_x4(tmem_base, v);
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v[0]);
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 64);
}

// The region read was written by tcgen05.st (completed by wait::st), never
// by an mma: a separate allocation from the accumulator.
__global__ void ld_of_stored_region(uint64_t adesc, uint64_t bdesc,
                                    float *out) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t stage_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&acc_slot, 64);
  tmem_alloc(&stage_slot, 32);
  tmem_sync();
  const uint32_t acc = acc_slot;
  const uint32_t stg = stage_slot;
  if (elect_one()) {
    mma_ss(acc, adesc, bdesc, 0);
    commit_to(&mma_done);
  }
  __syncwarp();
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};"
               :: "r"(stg), "r"(threadIdx.x) : "memory");
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
  uint32_t v[4];
  ld_x4(stg, v);
  wait_ld();
  out[threadIdx.x] = __uint_as_float(v[0]);
  mbar_wait(&mma_done, 0);
  tmem_dealloc(stg, 32);
  tmem_dealloc(acc, 64);
}

// The same allocation holds the accumulator (columns 0..63, N = 64) and a
// staging area (columns 64..67) written by tcgen05.st: reading the staging
// columns does not read the accumulator.
__global__ void ld_of_stored_columns_beside_accumulator(uint64_t adesc,
                                                        uint64_t bdesc,
                                                        float *out) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t t = tmem_slot;
  if (elect_one()) {
    mma_ss(t, adesc, bdesc, 0);
    commit_to(&mma_done);
  }
  __syncwarp();
  asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1, %2, %3, %4};"
               :: "r"(t + 64), "r"(threadIdx.x), "r"(1u), "r"(2u), "r"(3u)
               : "memory");
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
  uint32_t v[4];
  ld_x4(t + 64, v);
  wait_ld();
  out[threadIdx.x] = __uint_as_float(v[0]);
  mbar_wait(&mma_done, 0);
  tmem_dealloc(t, 128);
}

// Bug: the wait on the commit is skipped in the last iteration of the tile
// loop, so a run with one tile reads the accumulator straight after the
// mma. (Paths that never issue the mma are not what makes this a bug; see
// accumulator-loop-ok.cu.)
__global__ void last_tile_skips_wait(uint64_t adesc, uint64_t bdesc,
                                     float *out, int num_tiles) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t t = tmem_slot;
  for (int tile = 0; tile < num_tiles; ++tile) {
    if (elect_one()) {
      mma_ss(t, adesc, bdesc, tile > 0 ? 1u : 0u);
      commit_to(&mma_done);
    }
    __syncwarp();
    if (tile + 1 < num_tiles)
      mbar_wait(&mma_done, tile & 1);
  }
  fence_after();
  uint32_t v[4];
  // CHECK: accumulator-read-before-commit.cu:[[@LINE+3]]:3: error: tcgen05.ld reads the accumulator in 'tmem_slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
  // CHECK-NEXT: accumulator-read-before-commit.cu:{{[0-9]+}}:17: note: 'tcgen05.ld.sync.aligned.32x32b.x4.b32' is issued here, inside 'ld_x4'
  // CHECK-NEXT: accumulator-read-before-commit.cu:[[@LINE-11]]:7: note: the mma writing it; the commits that track it arrive on mbarriers this path does not wait on
  ld_x4(t, v);
  wait_ld();
  out[threadIdx.x] = __uint_as_float(v[0]);
  tmem_sync();
  tmem_dealloc(t, 64);
}
