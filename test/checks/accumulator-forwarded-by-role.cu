// RUN: not %tmemcheck --checks='-*,tmem-accumulator-read-before-commit' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// A role that issues no mma forwards the commits it waited on: the softmax
// warpgroup waits for the QK mma's commit, stores its row statistics over
// the first columns of S and arrives for the correction warpgroup, which
// reads them (CUTLASS 77 FMHA's pipeline_s0_c). The correction waits on no
// commit itself, yet every column it reads was written after the mma
// completed, by a chain of release and acquire (rules §5.2).

__device__ __forceinline__ uint32_t sa(const void *p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void wait_bar(uint64_t *b) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t@!p bra W_%=;\n\t}" :: "r"(sa(b)));
}
__device__ __forceinline__ void arrive(uint64_t *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sa(b)));
}
__device__ __forceinline__ void mma_and_commit(uint32_t t, uint64_t a, uint64_t b, uint64_t *bar) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\ttcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" :: "r"(t), "l"(a), "l"(b), "r"(0x08200490u), "r"(0));
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(sa(bar)));
}

// Must not be flagged.
__global__ void __launch_bounds__(384) forwarded(float *out, uint64_t a, uint64_t b) {
  __shared__ uint32_t slot;
  __shared__ uint64_t s_full, s_c;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;" :: "r"(sa(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  uint32_t t = slot;
  const uint32_t row = ((warp % 4) * 32) << 16;
  if (warp == 8 && threadIdx.x % 32 == 0) {
    mma_and_commit(t, a, b, &s_full);
  } else if (warp < 4) { // softmax
    wait_bar(&s_full);
    uint32_t s;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(s) : "r"(t + row));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" :: "r"(t + row), "r"(s * 2));
    asm volatile("tcgen05.wait::st.sync.aligned;");
    arrive(&s_c);
  } else if (warp < 8) { // correction
    wait_bar(&s_c);
    uint32_t r;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(r) : "r"(t + row));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = __uint_as_float(r);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" :: "r"(t));
}

// Must be flagged: the arriving role never waited on the commit, so its
// arrive orders nothing the mma did.
__global__ void __launch_bounds__(384) not_forwarded(float *out, uint64_t a, uint64_t b) {
  __shared__ uint32_t slot;
  __shared__ uint64_t s_full, s_c;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;" :: "r"(sa(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  uint32_t t = slot;
  const uint32_t row = ((warp % 4) * 32) << 16;
  if (warp == 8 && threadIdx.x % 32 == 0) {
    mma_and_commit(t, a, b, &s_full);
  } else if (warp < 4) {
    arrive(&s_c);
  } else if (warp < 8) {
    wait_bar(&s_c);
    uint32_t r;
    // CHECK: accumulator-forwarded-by-role.cu:[[@LINE+1]]:19: error: tcgen05.ld reads the accumulator in 'slot' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(r) : "r"(t + row));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = __uint_as_float(r);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" :: "r"(t));
}
