// RUN: %tmemcheck %s 2>&1 | count 0
//
// Must not be flagged by tmem-accumulator-read-before-commit: the mma, its
// commit and the wait on that commit's mbarrier all sit inside a loop whose
// trip count is a kernel parameter, and the accumulator is read after the
// loop. On the zero-trip path no mma was issued at all, so nothing is read
// before its completion; on every path through the body the wait comes
// first. The mbarrier is re-initialised for every tile and waited with
// parity 0 (a persistent-decode shape).

__device__ __forceinline__ uint32_t to_smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ bool one_lane() {
  uint32_t is_leader = 0;
  asm volatile("{\n\t.reg .pred q;\n\telect.sync _|q, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, q;\n\t}" : "=r"(is_leader));
  return is_leader != 0;
}

__device__ __forceinline__ void group_sync() {
  asm volatile("bar.sync 1, 128;" ::: "memory");
}

__device__ __forceinline__ void wait_parity0(uint32_t bar) {
  asm volatile("{\n\t.reg .pred done;\n\tRETRY_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t"
               "@!done bra RETRY_%=;\n\t}" :: "r"(bar) : "memory");
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64.
constexpr uint32_t kIdesc =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

__device__ __forceinline__ void issue_mma(uint32_t d, uint64_t a, uint64_t b,
                                          uint32_t accumulate) {
  asm volatile("{\n\t.reg .pred acc;\n\tsetp.ne.b32 acc, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, acc;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(kIdesc), "r"(accumulate));
}

__global__ void __launch_bounds__(128)
decode_tiles(int num_tiles, uint64_t adesc, uint64_t bdesc, float *out) {
  __shared__ uint64_t tile_done;
  __shared__ uint32_t tmem_base;
  const int warp = threadIdx.x / 32;
  const uint32_t done = to_smem(&tile_done);

  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(to_smem(&tmem_base)) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  group_sync();
  const uint32_t acc = tmem_base;

  for (int tile = 0; tile < num_tiles; ++tile) {
    if (warp == 0 && one_lane()) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(done));
      asm volatile("fence.mbarrier_init.release.cluster;");
    }
    group_sync();
    if (warp == 1 && one_lane()) {
      for (int k = 0; k < 4; ++k)
        issue_mma(acc, adesc + 2 * k, bdesc + 2 * k, tile > 0 || k > 0);
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                   :: "r"(done) : "memory");
    }
    wait_parity0(done);
    asm volatile("tcgen05.fence::after_thread_sync;");
    group_sync();
  }

  float v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=f"(v) : "r"(acc + ((warp * 32) << 16)));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[threadIdx.x] = v;
  asm volatile("tcgen05.fence::before_thread_sync;");
  group_sync();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" :: "r"(acc));
}
