// RUN: %tmemcheck %s 2>&1 | count 0
//
// Must not be flagged: the MMA thread waits for its own commit, then tells
// the epilogue to go with a plain mbarrier arrive. Waiting on that second
// mbarrier orders the mma too (the completion is forwarded).

__device__ __forceinline__ uint32_t sa(const void *p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void wait_bar(uint64_t *b) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t@!p bra W_%=;\n\t}" :: "r"(sa(b)));
}
__global__ void k(float *out, uint64_t a, uint64_t b) {
  __shared__ uint32_t slot;
  __shared__ uint64_t done, go;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;" :: "r"(sa(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  uint32_t t = slot;
  if (warp == 1 && threadIdx.x % 32 == 0) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\ttcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" :: "r"(t), "l"(a), "l"(b), "r"(0x08200490u), "r"(0));
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(sa(&done)));
    wait_bar(&done);
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sa(&go)));
  }
  if (warp >= 4) {
    wait_bar(&go);
    uint32_t r;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(r) : "r"(t + (((warp % 4) * 32) << 16)));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = __uint_as_float(r);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" :: "r"(t));
}
