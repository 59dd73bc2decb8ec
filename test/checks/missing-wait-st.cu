// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-st' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-missing-wait-st: a tcgen05.st is still in flight (no tcgen05.wait::st
// of the same thread yet) when an mma of the thread reads its columns, other
// threads are told to go ahead through an mbarrier arrive, or the region is
// freed (rules §5.1, §5.2, bug class 22; PTX 9.1 does not pipeline st->mma).

// Helpers, as CUTLASS/DeepGEMM-style code wraps the raw PTX. The buggy
// kernels write their tcgen05 asm inline so that each finding has its own
// line; a finding at a helper call carries an "issued here, inside" note.
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

__device__ __forceinline__ void wait_st() {
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
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
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// Eight columns (one A k-slice of 16 bf16 per row) of this warp's quarter.
__device__ __forceinline__ void st_x8(uint32_t taddr, const uint32_t (&v)[8]) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], "
               "{%1, %2, %3, %4, %5, %6, %7, %8};"
               :: "r"(taddr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]),
                  "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7])
               : "memory");
}

// D[128 x 64] += A (TMEM) * B (smem descriptor).
__device__ __forceinline__ void mma_ts(uint32_t d_tmem, uint32_t a_tmem,
                                       uint64_t bdesc, uint32_t idesc,
                                       uint32_t accumulate) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
               "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p; }"
               :: "r"(d_tmem), "r"(a_tmem), "l"(bdesc), "r"(idesc),
                  "r"(accumulate)
               : "memory");
}

__device__ __forceinline__ void commit_to(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
               :: "r"(smem_addr(bar)) : "memory");
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64: 64 accumulator columns.
constexpr uint32_t kIdescN64 =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

// A single warp converts its rows of A into TMEM (columns 64..71) and its
// elected lane feeds them to the mma at once: st -> mma is not pipelined.
__global__ void st_then_mma_reads_a(const float *a_src, uint64_t bdesc,
                                    float *out) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t t = tmem_slot;
  const uint32_t a_tmem = t + 64;
  uint32_t a[8];
  for (int i = 0; i < 8; ++i)
    a[i] = __float_as_uint(a_src[threadIdx.x * 8 + i]);
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], "
               "{%1, %2, %3, %4, %5, %6, %7, %8};"
               :: "r"(a_tmem), "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
                  "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7])
               : "memory");
  if (elect_one()) {
    // CHECK: missing-wait-st.cu:[[@LINE+3]]:19: error: tcgen05.mma reads TMEM columns that an earlier tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
    // CHECK-NEXT: missing-wait-st.cu:[[@LINE-7]]:17: note: the tcgen05.st is issued here
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p; }"
                 :: "r"(t), "r"(a_tmem), "l"(bdesc), "r"(kIdescN64), "r"(0)
                 : "memory");
    commit_to(&mma_done);
  }
  __syncwarp();
  mbar_wait(&mma_done, 0);
  wait_st();
  uint32_t d;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(d) : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[threadIdx.x] = __uint_as_float(d);
  tmem_dealloc(t, 128);
}

// FlashAttention-style hand-off: the softmax warps write P into TMEM and
// tell the MMA warp through p_full that it may read it, before the store
// has completed.
__global__ void st_then_arrive(const float *scores, uint64_t v_desc,
                               int num_blocks) {
  __shared__ alignas(8) uint64_t p_full[2];
  __shared__ alignas(8) uint64_t p_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&p_full[s], 128);
      mbar_init(&p_empty[s], 1);
    }
  }
  if (warp_idx == 4)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx < 4) {
    // softmax warpgroup: P for stage s in columns 64 + 8 s.
    const uint32_t lanes = (warp_idx * 32) << 16;
    for (int blk = 0; blk < num_blocks; ++blk) {
      const uint32_t s = blk % 2;
      mbar_wait(&p_empty[s], ((blk / 2) & 1) ^ 1);
      uint32_t p[8];
      for (int i = 0; i < 8; ++i)
        p[i] = __float_as_uint(scores[(blk * 128 + threadIdx.x) * 8 + i] * 0.125f);
      asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], "
                   "{%1, %2, %3, %4, %5, %6, %7, %8};"
                   :: "r"(tmem_base + lanes + 64 + s * 8), "r"(p[0]), "r"(p[1]),
                      "r"(p[2]), "r"(p[3]), "r"(p[4]), "r"(p[5]), "r"(p[6]),
                      "r"(p[7])
                   : "memory");
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      // CHECK: missing-wait-st.cu:[[@LINE+3]]:7: error: this mbarrier arrive lets other threads read columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
      // CHECK-NEXT: missing-wait-st.cu:21:17: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'mbar_arrive'
      // CHECK-NEXT: missing-wait-st.cu:[[@LINE-9]]:21: note: the tcgen05.st is issued here
      mbar_arrive(&p_full[s]);
    }
  } else if (warp_idx == 4) {
    // MMA warp: O += P * V.
    for (int blk = 0; blk < num_blocks; ++blk) {
      const uint32_t s = blk % 2;
      mbar_wait(&p_full[s], (blk / 2) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      if (elect_one()) {
        mma_ts(tmem_base, tmem_base + 64 + s * 8, v_desc, kIdescN64,
               blk > 0 ? 1u : 0u);
        commit_to(&p_empty[s]);
      }
      __syncwarp();
    }
  }
  tmem_sync();
  if (warp_idx == 4)
    tmem_dealloc(tmem_base, 128);
}

// The allocating warp initialises its columns and frees them while the
// store may still be writing.
__global__ void st_then_dealloc(const float *init) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&tmem_slot, 32);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t t = tmem_slot;
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};"
                 :: "r"(t + 16), "r"(__float_as_uint(init[threadIdx.x])));
    // CHECK: missing-wait-st.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
    // CHECK-NEXT: missing-wait-st.cu:[[@LINE-3]]:19: note: the tcgen05.st is issued here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(t) : "memory");
  }
}

// ---- Must not be flagged -------------------------------------------------

// st, wait::st, then the mma of the same thread reads the columns.
__global__ void st_wait_then_mma(const float *a_src, uint64_t bdesc,
                                 float *out, int num_k) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t t = tmem_slot;
  for (int k = 0; k < num_k; ++k) {
    uint32_t a[8];
    for (int i = 0; i < 8; ++i)
      a[i] = __float_as_uint(a_src[(k * 32 + threadIdx.x) * 8 + i]);
    if (k > 0)
      mbar_wait(&mma_done, (k - 1) & 1); // the previous mma read A
    st_x8(t + 64, a);
    wait_st();
    if (elect_one()) {
      mma_ts(t, t + 64, bdesc, kIdescN64, k > 0 ? 1u : 0u);
      commit_to(&mma_done);
    }
    __syncwarp();
  }
  mbar_wait(&mma_done, (num_k - 1) & 1);
  uint32_t d;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(d) : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[threadIdx.x] = __uint_as_float(d);
  tmem_dealloc(t, 128);
}

// The softmax warps complete their stores (wait::st) before the p_full
// arrive; the MMA warp reads P only after waiting on it.
__global__ void st_wait_then_arrive(const float *scores, uint64_t v_desc,
                                    int num_blocks) {
  __shared__ alignas(8) uint64_t p_full[2];
  __shared__ alignas(8) uint64_t p_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&p_full[s], 128);
      mbar_init(&p_empty[s], 1);
    }
  }
  if (warp_idx == 4)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx < 4) {
    const uint32_t lanes = (warp_idx * 32) << 16;
    for (int blk = 0; blk < num_blocks; ++blk) {
      const uint32_t s = blk % 2;
      mbar_wait(&p_empty[s], ((blk / 2) & 1) ^ 1);
      uint32_t p[8];
      for (int i = 0; i < 8; ++i)
        p[i] = __float_as_uint(scores[(blk * 128 + threadIdx.x) * 8 + i] * 0.125f);
      st_x8(tmem_base + lanes + 64 + s * 8, p);
      wait_st();
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      mbar_arrive(&p_full[s]);
    }
  } else if (warp_idx == 4) {
    for (int blk = 0; blk < num_blocks; ++blk) {
      const uint32_t s = blk % 2;
      mbar_wait(&p_full[s], (blk / 2) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      if (elect_one()) {
        mma_ts(tmem_base, tmem_base + 64 + s * 8, v_desc, kIdescN64,
               blk > 0 ? 1u : 0u);
        commit_to(&p_empty[s]);
      }
      __syncwarp();
    }
  }
  tmem_sync();
  if (warp_idx == 4)
    tmem_dealloc(tmem_base, 128);
}

// The store in flight writes columns 96..103; the mma reads A from columns
// 64..71 (8 columns per kind::f16 instruction, rules §3.4) and writes D to
// 0..63. Nothing the mma touches is being stored.
__global__ void st_to_columns_the_mma_does_not_read(const float *a_src,
                                                    uint64_t bdesc) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t t = tmem_slot;
  uint32_t a[8];
  for (int i = 0; i < 8; ++i)
    a[i] = __float_as_uint(a_src[threadIdx.x * 8 + i]);
  st_x8(t + 64, a);
  wait_st();
  st_x8(t + 96, a); // staged for a later k-block
  if (elect_one()) {
    mma_ts(t, t + 64, bdesc, kIdescN64, 0);
    commit_to(&mma_done);
  }
  __syncwarp();
  mbar_wait(&mma_done, 0);
  wait_st();
  tmem_dealloc(t, 128);
}
