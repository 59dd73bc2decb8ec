// Role tests that nvcc hoists into predicates set in several arms of a
// %tid.x test (`if (threadIdx.x == 0) init(); if (warp == 0) alloc();`
// sends thread 0 straight to the alloc and keeps `warp == 0` in a
// predicate for the dealloc). Compiled to hoisted-roles.ptx by
// regenerate.sh; hoisted-roles.test says what must and must not be found.
#include <cstdint>

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; "
               "selp.u32 %0, 1, 0, p; }" : "=r"(pred));
  return pred != 0;
}
__device__ __forceinline__ void mbar_init(uint64_t *bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(bar)));
}
__device__ __forceinline__ void mbar_wait(uint64_t *bar) {
  asm volatile("{ .reg .pred p; W_%=: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; "
               "@!p bra W_%=; }" :: "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void sync_all() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void alloc64(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
               :: "r"(smem(slot)) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
__device__ __forceinline__ void dealloc64(uint32_t t) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
               :: "r"(t) : "memory");
}

// Warp 1's elected lane issues the mma and commits it; warps 4-7 wait on
// the commit, read and wait; warp 0 frees after the barrier. The mma's
// thread never frees: nothing to report.
__global__ void mma_warp_is_not_the_dealloc_warp(uint64_t adesc,
                                                 uint64_t bdesc, float *out) {
  __shared__ alignas(8) uint64_t full;
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&full);
  if (warp == 0)
    alloc64(&slot);
  sync_all();
  const uint32_t t = slot;
  if (warp == 1 && elect_one()) {
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 0, 0; "
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
                 :: "r"(t), "l"(adesc), "l"(bdesc), "r"(0x8100490u));
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(smem(&full)) : "memory");
  } else if (warp >= 4) {
    mbar_wait(&full);
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t + (((warp % 4) * 32) << 16)));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    out[threadIdx.x] = __uint_as_float(v);
  }
  sync_all();
  if (warp == 0)
    dealloc64(t);
}

// Warps 4-7 load in a loop and wait once after it; warp 0 frees after
// the barrier: its own thread has no load in flight. Nothing to report.
__global__ void epilogue_loop_then_dealloc_by_warp0(float *out, int n) {
  __shared__ alignas(8) uint64_t full;
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&full);
  if (warp == 0)
    alloc64(&slot);
  sync_all();
  const uint32_t t = slot;
  if (warp >= 4) {
    float acc = 0;
    for (int i = 0; i < n; ++i) {
      uint32_t v;
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                   : "=r"(v) : "r"(t + (((warp % 4) * 32) << 16) + (i % 64)));
      asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
      acc += __uint_as_float(v);
    }
    out[threadIdx.x] = acc;
  }
  sync_all();
  if (warp == 0)
    dealloc64(t);
}

// Warp 1 commits to `full`; warp 4 waits on it, reads, waits for the load
// and arrives on `empty`; warp 0 waits on `empty` and frees. The mma's
// thread skips the dealloc through the predicate nvcc hoisted. Nothing to
// report.
__global__ void dealloc_after_epilogue_hand_off(uint64_t adesc, uint64_t bdesc,
                                               float *out) {
  __shared__ alignas(8) uint64_t full, empty;
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    mbar_init(&full);
    mbar_init(&empty);
  }
  if (warp == 0)
    alloc64(&slot);
  sync_all();
  const uint32_t t = slot;
  if (warp == 1) {
    if (elect_one()) {
      asm volatile("{ .reg .pred p; setp.ne.b32 p, 0, 0; "
                   "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
                   :: "r"(t), "l"(adesc), "l"(bdesc), "r"(0x8100490u));
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                   :: "r"(smem(&full)) : "memory");
    }
    __syncwarp();
  } else if (warp == 4) {
    mbar_wait(&full);
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    out[threadIdx.x] = __uint_as_float(v);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    if (threadIdx.x % 32 == 0)
      mbar_arrive(&empty);
  }
  if (warp == 0) {
    mbar_wait(&empty);
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    dealloc64(t);
  }
}

// The epilogue warps never wait for their loads (a bug the CUDA side
// reports only with the strict tmem-ld-use-before-wait); the deallocating
// warp 0 loads nothing, so tmem-missing-wait-ld, which is about the freeing
// thread's own loads, must not claim that it does (it did when the hoisted
// `warp == 0` predicate was unknown).
__global__ void epilogue_never_waits(float *out) {
  __shared__ alignas(8) uint64_t full;
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&full);
  if (warp == 0)
    alloc64(&slot);
  sync_all();
  const uint32_t t = slot;
  if (warp >= 4) {
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t + (((warp % 4) * 32) << 16)));
    out[threadIdx.x] = __uint_as_float(v);
  }
  sync_all();
  if (warp == 0)
    dealloc64(t);
}

// The mma of warp 1 is never committed (a bug of its own); the dealloc of
// warp 0 must not be reported as freeing while "this thread's" mma runs.
__global__ void mma_never_committed(uint64_t adesc, uint64_t bdesc) {
  __shared__ alignas(8) uint64_t full;
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&full);
  if (warp == 0)
    alloc64(&slot);
  sync_all();
  const uint32_t t = slot;
  if (warp == 1 && elect_one())
    asm volatile("{ .reg .pred p; setp.ne.b32 p, 0, 0; "
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
                 :: "r"(t), "l"(adesc), "l"(bdesc), "r"(0x8100490u));
  sync_all();
  if (warp == 0)
    dealloc64(t);
}

// The bug the analysis must still find through the hoisted predicate: the
// dealloc warp itself loads and frees without waiting.
__global__ void dealloc_warp_loads_without_wait(float *out) {
  __shared__ alignas(8) uint64_t full;
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    mbar_init(&full);
  if (warp == 0)
    alloc64(&slot);
  sync_all();
  const uint32_t t = slot;
  uint32_t v = 0;
  if (warp == 0)
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t));
  if (warp == 0)
    dealloc64(t);
  out[threadIdx.x] = __uint_as_float(v);
}
