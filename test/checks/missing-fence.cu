// RUN: %tmemcheck %s 2>&1 | FileCheck %s --check-prefix=DEFAULT --allow-empty
// RUN: not %tmemcheck --checks='-*,tmem-missing-fence' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-missing-fence (strict, off by default): thread synchronisation
// around tcgen05 work without tcgen05.fence::after_thread_sync (after a
// barrier / mbarrier wait, before the next tcgen05 op) or
// tcgen05.fence::before_thread_sync (after tcgen05 ops, before a hand-off);
// a commit implies the latter (rules §5.3).
// DEFAULT-NOT: tmem-missing-fence

__device__ __forceinline__ uint32_t sa(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait_bar(uint64_t *b) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
               "@!p bra W_%=;\n\t}" :: "r"(sa(b)));
}
__device__ __forceinline__ void arrive(uint64_t *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sa(b)));
}
__device__ __forceinline__ void fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}
__device__ __forceinline__ uint32_t ld1(uint32_t t) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return r;
}

__global__ void unfenced(float *out, uint64_t *full, uint64_t *empty,
                         uint32_t t) {
  // CHECK: missing-fence.cu:[[@LINE+4]]:38: warning: tcgen05.ld follows thread synchronisation without tcgen05.fence::after_thread_sync, so it is not ordered after the other threads' tcgen05 work (rules §5.3) [tmem-missing-fence]
  // CHECK-NEXT: missing-fence.cu:30:17: note: 'tcgen05.ld.sync.aligned.32x32b.x1.b32' is issued here, inside 'ld1'
  // CHECK-NEXT: missing-fence.cu:[[@LINE+1]]:3: note: the synchronisation is here; put tcgen05.fence::after_thread_sync after it
  wait_bar(full);
  out[threadIdx.x] = __uint_as_float(ld1(t));
  // CHECK: missing-fence.cu:[[@LINE+3]]:3: warning: this synchronisation hands tcgen05 work to other threads without tcgen05.fence::before_thread_sync after the tcgen05.ld (rules §5.3) [tmem-missing-fence]
  // CHECK-NEXT: missing-fence.cu:20:17: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'arrive'
  // CHECK-NEXT: missing-fence.cu:[[@LINE-3]]:38: note: the tcgen05.ld is issued here
  arrive(empty);
}

// Must not be flagged: the DeepGEMM-style epilogue with both fences, and an
// MMA thread whose commit implies the before-fence.
__global__ void fenced(float *out, uint64_t *full, uint64_t *empty,
                       uint32_t t) {
  wait_bar(full);
  fence_after();
  out[threadIdx.x] = __uint_as_float(ld1(t));
  fence_before();
  arrive(empty);
}

__global__ void commit_implies_before(uint64_t *empty, uint64_t *full,
                                      uint32_t t, uint64_t a, uint64_t b) {
  wait_bar(empty);
  fence_after();
  if (threadIdx.x == 0) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(t), "l"(a), "l"(b), "r"(0x08200490u), "r"(0));
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
                 ".shared::cluster.b64 [%0];" :: "r"(sa(full)));
  }
  __syncthreads();
}
