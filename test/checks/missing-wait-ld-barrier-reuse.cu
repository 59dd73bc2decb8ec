// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// One mbarrier used twice, as CuTe's Blackwell tutorial 05 does: the
// mainloop waits on the TMA barrier before each mma, the epilogue arrives
// on the same barrier (expect_tx for its C load) while a tcgen05.ld of the
// previous epilogue tile may still be reading. The mainloop's wait only
// ever comes before that arrive: the arrive hands nothing to it, and the
// epilogue's own waiters only read. A persistent loop around both makes
// the next tile's mma a waiter that overwrites the columns: an error.
#include <cstdint>

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void arrive_tx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{ .reg .pred p; W_%=: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
               "@!p bra W_%=; }"
               :: "r"(smem(bar)), "r"(parity) : "memory");
}
__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b,
                                    uint32_t idesc) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0; "
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
               :: "r"(d), "l"(a), "l"(b), "r"(idesc));
}
__device__ __forceinline__ void commit(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
               :: "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void ld4(uint32_t taddr, uint32_t (&v)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
               : "r"(taddr));
}
__device__ __forceinline__ void sync_cta() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__global__ void tutorial_shape(float *out, uint64_t a, uint64_t b,
                               uint32_t idesc, int k_tiles) {
  __shared__ uint32_t slot;
  __shared__ alignas(8) uint64_t tma_bar, mma_bar;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(smem(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t phase = 0;
  for (int k = 0; k < k_tiles; ++k) {
    if (threadIdx.x == 0)
      arrive_tx(&tma_bar, 4096);
    wait(&tma_bar, phase);
    phase ^= 1;
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    if (threadIdx.x == 0) {
      mma(tmem, a, b, idesc);
      commit(&mma_bar);
    }
    wait(&mma_bar, k & 1);
  }
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  for (int e = 0; e < 4; ++e) {
    if (threadIdx.x == 0)
      arrive_tx(&tma_bar, 4096); // the epilogue's C load: a reader's wait
    wait(&tma_bar, phase);
    phase ^= 1;
    uint32_t v[4];
    ld4(tmem + ((warp * 32) << 16) + e * 4, v);
    for (int i = 0; i < 4; ++i)
      out[(e * 128 + threadIdx.x) * 4 + i] = __uint_as_float(v[i]);
    sync_cta();
  }
  sync_cta();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" :: "r"(tmem));
}

// The same kernel made persistent: after the epilogue's arrive, the next
// tile's mainloop waits on the barrier and its mma overwrites the columns
// the last ld may still be reading.
__global__ void persistent_shape(float *out, uint64_t a, uint64_t b,
                                 uint32_t idesc, int k_tiles, int tiles) {
  __shared__ uint32_t slot;
  __shared__ alignas(8) uint64_t tma_bar, mma_bar;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(smem(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t phase = 0;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    for (int k = 0; k < k_tiles; ++k) {
      if (threadIdx.x == 0)
        arrive_tx(&tma_bar, 4096);
      wait(&tma_bar, phase);
      phase ^= 1;
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      if (threadIdx.x == 0) {
        mma(tmem, a, b, idesc);
        commit(&mma_bar);
      }
      wait(&mma_bar, k & 1);
    }
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t v[4];
    ld4(tmem + ((warp * 32) << 16), v);
    for (int i = 0; i < 4; ++i)
      out[(t * 128 + threadIdx.x) * 4 + i] = __uint_as_float(v[i]);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    // CHECK: missing-wait-ld-barrier-reuse.cu:[[@LINE+3]]:7: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
    // CHECK: missing-wait-ld-barrier-reuse.cu:[[@LINE-5]]:5: note: the tcgen05.ld is issued here
    if (threadIdx.x == 0)
      arrive_tx(&tma_bar, 4096); // (a stand-in for the next tile's TMA)
    __syncthreads();
  }
  sync_cta();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" :: "r"(tmem));
}

// Warp roles written one after the other (`if (warp == 4) {...}` then
// `if (warp < 4) {...}`), as CuTe DSL's persistent GEMMs lay them out: the
// MMA warp's wait on `acc_empty` comes before the epilogue's arrive in the
// text, so the CFG has a path from that wait to the arrive and none back.
// No thread runs both, so that wait is not an earlier use: the next tile's
// mma overwrites the columns the epilogue may still be reading, and the
// missing tcgen05.wait::ld before the arrive is an error.
__global__ void sequential_roles(float *out, uint64_t a, uint64_t b,
                                 uint32_t idesc, int tiles) {
  __shared__ uint32_t slot;
  __shared__ alignas(8) uint64_t acc_full, acc_empty;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(smem(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  sync_cta();
  const uint32_t tmem = slot;
  if (warp == 4) {
    for (int t = 0; t < tiles; ++t) {
      wait(&acc_empty, (t & 1) ^ 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      if (threadIdx.x % 32 == 0) {
        mma(tmem, a, b, idesc);
        commit(&acc_full);
      }
      __syncwarp();
    }
  }
  if (warp < 4) {
    for (int t = 0; t < tiles; ++t) {
      wait(&acc_full, t & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      uint32_t v[4];
      ld4(tmem + ((warp * 32) << 16), v);
      out[t * 128 + threadIdx.x] = __uint_as_float(v[0] + v[1] + v[2] + v[3]);
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      if (threadIdx.x % 32 == 0)
        // CHECK: missing-wait-ld-barrier-reuse.cu:[[@LINE+1]]:23: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
                     :: "r"(smem(&acc_empty)) : "memory");
    }
  }
  sync_cta();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(tmem));
}
