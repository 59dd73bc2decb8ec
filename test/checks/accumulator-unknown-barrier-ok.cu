// RUN: %tmemcheck %s 2>&1 | count 0
//
// Must not be flagged by tmem-accumulator-read-before-commit: the TMEM
// address is known (a __shared__ slot), but the mbarrier the commit arrives
// on is an address tmemcheck cannot name (a base variable declared first and
// assigned later, as generated kernels do). Whether the epilogue's wait is
// on that mbarrier cannot be told, so the read is not reported.

__device__ __forceinline__ bool one_lane() {
  uint32_t is_leader = 0;
  asm volatile("{\n\t.reg .pred q;\n\telect.sync _|q, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, q;\n\t}" : "=r"(is_leader));
  return is_leader != 0;
}

__device__ __forceinline__ void wait_on(int bar, int phase) {
  asm volatile("{\n\t.reg .pred ok;\n\tSPIN_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 ok, [%0], %1;\n\t"
               "@!ok bra SPIN_%=;\n\t}" :: "r"(bar), "r"(phase) : "memory");
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64.
constexpr uint32_t kIdesc =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

__global__ void __launch_bounds__(256)
opaque_barriers(uint64_t adesc, uint64_t bdesc, int num_tiles, float *out) {
  extern __shared__ __align__(1024) char smem_raw[];
  __shared__ uint32_t tmem_base;
  int bars;
  bars = static_cast<int>(__cvta_generic_to_shared(smem_raw));
  const int warp = threadIdx.x / 32;
  if (warp == 0 && one_lane()) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bars));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bars + 8));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&tmem_base))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const uint32_t acc = tmem_base;

  for (int tile = 0; tile < num_tiles; ++tile) {
    const int stage = tile & 1;
    if (warp == 1 && one_lane()) {
      asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                   "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                   :: "r"(acc), "l"(adesc), "l"(bdesc), "r"(kIdesc), "r"(0));
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                   :: "r"(bars + stage * 8) : "memory");
    }
    wait_on(bars + stage * 8, (tile >> 1) & 1);
    asm volatile("tcgen05.fence::after_thread_sync;");
    if (warp >= 4) {
      float v;
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                   : "=f"(v) : "r"(acc + (((warp % 4) * 32) << 16)));
      asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
      out[tile * 128 + threadIdx.x - 128] = v;
    }
    asm volatile("tcgen05.fence::before_thread_sync;");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;");
  }
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" :: "r"(acc));
}
