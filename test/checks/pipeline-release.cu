// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// The same kernels compiled by nvcc: test/ptx/pipeline-release.test.
//
// An mbarrier arrive hands TMEM columns to other threads only when those
// threads wait on that mbarrier before they overwrite the columns (the
// accumulator "empty" barrier the MMA warp waits on before its next mma
// into them). An arrive on a barrier of another pipeline (a shared-memory
// stage's "empty" barrier, which only the TMA producer waits on) releases
// no TMEM: a tcgen05.ld still in flight there is not a bug.

__device__ __forceinline__ uint32_t sa(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wait_bar(uint64_t *b, uint32_t phase) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra W_%=;\n\t}" :: "r"(sa(b)), "r"(phase) : "memory");
}
__device__ __forceinline__ void arrive(uint64_t *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sa(b))
               : "memory");
}
__device__ __forceinline__ void commit(uint64_t *b) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b,
                                    uint32_t acc) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200490u), "r"(acc)
               : "memory");
}
__device__ __forceinline__ uint32_t ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr) : "memory");
  return r;
}
__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

constexpr int kStages = 4;

// Warp 0 produces shared-memory stages, warp 1 issues the mma, warps 4..7
// are the epilogue. The epilogue also consumes a shared-memory stage (a
// bias tile) and frees it with an arrive on smem_empty while its tcgen05.ld
// is in flight: fine, the producer only writes shared memory after waiting
// on it. kEarlyRelease: the accumulator is handed back (acc_empty) before
// the wait for the load: the MMA warp may overwrite the columns the load is
// still reading.
template <bool kEarlyRelease>
__device__ __forceinline__ void two_pipelines(float *out, const float *bias,
                                              uint64_t da, uint64_t db,
                                              int tiles, int k_blocks) {
  __shared__ uint32_t slot;
  __shared__ uint64_t smem_full[kStages], smem_empty[kStages];
  __shared__ uint64_t acc_full, acc_empty;
  __shared__ float stage_data[kStages][128];
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 128;" :: "r"(sa(&slot)));
    asm volatile(
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t tmem = slot;
  if (warp == 0) {
    // Producer: refills a stage once its consumers let it go.
    for (int i = 0; i < tiles * k_blocks; ++i) {
      int s = i % kStages;
      wait_bar(&smem_empty[s], ((i / kStages) & 1) ^ 1);
      stage_data[s][threadIdx.x % 32] = bias[i];
      arrive(&smem_full[s]);
    }
  } else if (warp == 1) {
    // MMA: reuses the accumulator once the epilogue has handed it back.
    for (int t = 0; t < tiles; ++t) {
      wait_bar(&acc_empty, (t & 1) ^ 1);
      for (int k = 0; k < k_blocks; ++k) {
        int i = t * k_blocks + k;
        wait_bar(&smem_full[i % kStages], (i / kStages) & 1);
        if (threadIdx.x % 32 == 0) {
          mma(tmem, da, db, k);
          commit(&smem_empty[i % kStages]);
        }
      }
      if (threadIdx.x % 32 == 0)
        commit(&acc_full);
    }
  } else if (warp >= 4) {
    const uint32_t lanes = ((warp % 4) * 32) << 16;
    for (int t = 0; t < tiles; ++t) {
      int s = t % kStages;
      wait_bar(&acc_full, t & 1);
      wait_bar(&smem_full[s], (t / kStages) & 1);
      uint32_t r = ld(tmem + lanes);
      float b = stage_data[s][threadIdx.x % 32];
      // Not a release of TMEM: only the producer waits on smem_empty.
      arrive(&smem_empty[s]);
      if (kEarlyRelease)
        arrive(&acc_empty);
      wait_ld();
      if (!kEarlyRelease)
        arrive(&acc_empty);
      out[t * 128 + threadIdx.x % 128] = __uint_as_float(r) + b;
    }
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(tmem));
}

// Correct: the smem stage's arrive with the load in flight is fine.
__global__ void __launch_bounds__(256)
    two_pipelines_ok(float *out, const float *bias, uint64_t da, uint64_t db,
                     int tiles, int k_blocks) {
  two_pipelines<false>(out, bias, da, db, tiles, k_blocks);
}

// Bug: the accumulator is handed back before its load completed.
__global__ void __launch_bounds__(256)
    accumulator_released_early(float *out, const float *bias, uint64_t da,
                               uint64_t db, int tiles, int k_blocks) {
  // Reported at the arrive in two_pipelines, where its call chain and the
  // load's part.
  // CHECK: pipeline-release.cu:106:9: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
  // CHECK-NEXT: pipeline-release.cu:20:17: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'arrive'
  // CHECK-NEXT: pipeline-release.cu:101:20: note: the tcgen05.ld is issued here
  two_pipelines<true>(out, bias, da, db, tiles, k_blocks);
}
