// RUN: not %tmemcheck --checks='-*,tmem-accumulator-read-before-commit' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// The commit arrives on a barrier tmemcheck can name (a __shared__ array),
// but the epilogue waits on an mbarrier whose address it cannot (it comes
// from a table in global memory, as a pipeline object tmemcheck did not
// follow would give it): that wait may be on the commit's barrier, so the
// read after it is not reported. Without any wait, it still is.
#include <cstdint>

__device__ __forceinline__ uint32_t sa(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait_on(uint32_t bar, uint32_t phase) {
  asm volatile("{\n\t.reg .pred ok;\n\tSPIN_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 ok, [%0], %1;\n\t"
               "@!ok bra SPIN_%=;\n\t}" :: "r"(bar), "r"(phase) : "memory");
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64.
constexpr uint32_t kIdesc =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

template <bool kWait>
__device__ __forceinline__ void gemm(uint64_t adesc, uint64_t bdesc,
                                     const uint32_t *bar_table, float *out) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t full[2];
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(sa(&tmem_base)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const uint32_t acc = tmem_base;
  if (warp == 1 && threadIdx.x % 32 == 0) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(acc), "l"(adesc), "l"(bdesc), "r"(kIdesc), "r"(0));
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(sa(&full[0])) : "memory");
  }
  if (warp >= 4) {
    if (kWait)
      wait_on(bar_table[0], 0);
    asm volatile("tcgen05.fence::after_thread_sync;");
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(acc + (((warp % 4) * 32) << 16)));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = __uint_as_float(v);
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" :: "r"(acc));
}

__global__ void __launch_bounds__(256)
waits_on_an_unnamed_barrier(uint64_t a, uint64_t b, const uint32_t *t, float *o) {
  gemm<true>(a, b, t, o);
}

__global__ void __launch_bounds__(256)
never_waits(uint64_t a, uint64_t b, const uint32_t *t, float *o) {
  // CHECK: accumulator-unknown-wait-ok.cu:[[@LINE+2]]:3: error: tcgen05.ld reads the accumulator in 'tmem_base' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
  // CHECK-NEXT: accumulator-unknown-wait-ok.cu:50:19: note: 'tcgen05.ld.sync.aligned.32x32b.x1.b32' is issued here, inside 'gemm'
  gemm<false>(a, b, t, o);
}
