// RUN: %tmemcheck --require-complete=false %s 2>&1 | count 0
// (The template pattern below is incomplete, and a run with it exits 1.)
//
// Correct kernels shaped like production code (CUTLASS / DeepGEMM style
// warp specialization). No default check may report anything, and the exit
// status is 0. Each kernel allocates from one warp, relinquishes, publishes
// the address with a barrier, elects a single thread for mma/commit, waits
// before reading the accumulator and frees what it allocated.

// ---- wrappers --------------------------------------------------------------

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .b32 %%rx;\n\t.reg .pred %%px;\n\t"
               "elect.sync %%rx|%%px, %1;\n\t@%%px mov.s32 %0, 1;\n\t}"
               : "+r"(pred) : "r"(0xffffffffu));
  return pred;
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :: "r"(smem_u32(bar)), "r"(count));
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n\t.reg .pred done;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra WAIT_%=;\n\t}"
               :: "r"(smem_u32(bar)), "r"(parity) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar,
                                                      uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smem_u32(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void bulk_load(void *dst, const void *src,
                                          uint32_t bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
               "::bytes [%0], [%1], %2, [%3];"
               :: "r"(smem_u32(dst)), "l"(src), "r"(bytes),
                  "r"(smem_u32(bar)) : "memory");
}

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], %1;" :: "r"(smem_u32(slot)), "r"(ncols));
}

__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols));
}

__device__ __forceinline__ void fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void mma_f16(uint32_t d, uint64_t adesc,
                                        uint64_t bdesc, uint32_t idesc,
                                        uint32_t accumulate) {
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(adesc), "l"(bdesc), "r"(idesc),
                  "r"(accumulate));
}

__device__ __forceinline__ void mma_commit(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];" :: "r"(smem_u32(bar)) : "memory");
}

__device__ __forceinline__ void ld_32x32b_x8(uint32_t taddr,
                                             uint32_t (&r)[8]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]),
                 "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(taddr));
}

__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

// ---- 1. warp-specialized GEMM ----------------------------------------------
// 192 threads: warp 0 loads (bulk copy + mbarrier), warp 1 issues the MMAs
// from one elected thread and commits, warp 2 allocates, warps 2..5 are the
// epilogue, each reading its own lane quarter (warp % 4).

constexpr uint32_t kStages = 2;
constexpr uint32_t kTileBytes = 8192;
constexpr uint32_t kAccCols = 128;

__global__ void __launch_bounds__(192)
warp_specialized_gemm(const uint8_t *a, const uint8_t *b, float *d,
                      uint64_t adesc0, uint64_t bdesc0, uint32_t idesc,
                      int k_blocks) {
  __shared__ __align__(128) uint8_t smem_a[kStages][kTileBytes];
  __shared__ __align__(128) uint8_t smem_b[kStages][kTileBytes];
  __shared__ uint64_t full_bar[kStages], empty_bar[kStages];
  __shared__ uint64_t acc_full_bar;
  __shared__ uint32_t tmem_slot;

  const uint32_t warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);

  if (warp_idx == 0 && elect_one_sync()) {
    for (uint32_t s = 0; s < kStages; ++s) {
      mbar_init(&full_bar[s], 1);
      mbar_init(&empty_bar[s], 1);
    }
    mbar_init(&acc_full_bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (warp_idx == 2) {
    tmem_alloc(&tmem_slot, kAccCols);
    tmem_relinquish();
  }
  fence_before();
  __syncthreads();
  fence_after();
  const uint32_t tmem_base = tmem_slot;

  if (warp_idx == 0) {
    // Producer.
    if (elect_one_sync()) {
      for (int k = 0; k < k_blocks; ++k) {
        uint32_t s = k % kStages;
        if (k >= (int)kStages)
          mbar_wait(&empty_bar[s], ((k / kStages) + 1) & 1);
        mbar_arrive_expect_tx(&full_bar[s], 2 * kTileBytes);
        bulk_load(smem_a[s], a + (size_t)k * kTileBytes, kTileBytes,
                  &full_bar[s]);
        bulk_load(smem_b[s], b + (size_t)k * kTileBytes, kTileBytes,
                  &full_bar[s]);
      }
    }
  } else if (warp_idx == 1) {
    // MMA issuer.
    for (int k = 0; k < k_blocks; ++k) {
      uint32_t s = k % kStages;
      mbar_wait(&full_bar[s], (k / kStages) & 1);
      fence_after();
      if (elect_one_sync()) {
        mma_f16(tmem_base, adesc0 + s * (kTileBytes >> 4),
                bdesc0 + s * (kTileBytes >> 4), idesc, k > 0);
        mma_commit(&empty_bar[s]);
      }
      __syncwarp();
    }
    if (elect_one_sync())
      mma_commit(&acc_full_bar);
    __syncwarp();
  } else {
    // Epilogue: warps 2..5 cover lane quarters 2, 3, 0, 1.
    mbar_wait(&acc_full_bar, 0);
    fence_after();
    const uint32_t quarter = warp_idx % 4;
    const uint32_t row = quarter * 32 + threadIdx.x % 32;
    for (uint32_t c = 0; c < kAccCols; c += 8) {
      uint32_t r[8];
      ld_32x32b_x8(tmem_base + ((quarter * 32) << 16) + c, r);
      wait_ld();
      for (int j = 0; j < 8; ++j)
        d[row * kAccCols + c + j] = __uint_as_float(r[j]);
    }
  }

  fence_before();
  __syncthreads();
  if (warp_idx == 2) {
    fence_after();
    tmem_dealloc(tmem_base, kAccCols);
  }
}

// ---- 2. raw asm election, @p-guarded mma in one asm string ------------------

__global__ void elect_in_asm(float *out, uint64_t adesc, uint64_t bdesc,
                             uint32_t idesc) {
  __shared__ uint64_t done_bar;
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&slot, 64);
    tmem_relinquish();
  }
  if (threadIdx.x == 0) {
    mbar_init(&done_bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  fence_before();
  __syncthreads();
  fence_after();
  const uint32_t taddr = slot;

  if (warp_idx == 0) {
    // elect.sync output tested by an `if`.
    uint32_t leader;
    asm volatile("{\n\t.reg .pred e;\n\t"
                 "elect.sync _|e, 0xffffffff;\n\t"
                 "selp.b32 %0, 1, 0, e;\n\t}" : "=r"(leader));
    if (leader)
      mma_f16(taddr, adesc, bdesc, idesc, 0);
    // elect.sync and a @p-guarded mma in the same asm string.
    asm volatile("{\n\t.reg .pred e, p;\n\t"
                 "elect.sync _|e, 0xffffffff;\n\t"
                 "setp.ne.b32 p, %4, 0;\n\t"
                 "@e tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;"
                 "\n\t}"
                 :: "r"(taddr), "l"(adesc), "l"(bdesc), "r"(idesc), "r"(1));
    // A lane test elects the committing thread (the same thread, lane 0,
    // that elect.sync picks with a full mask).
    if (threadIdx.x % 32 == 0)
      mma_commit(&done_bar);
  }
  if (warp_idx < 4) {
    mbar_wait(&done_bar, 0);
    fence_after();
    uint32_t r[8];
    ld_32x32b_x8(taddr + ((warp_idx * 32) << 16), r);
    wait_ld();
    for (int j = 0; j < 8; ++j)
      out[threadIdx.x * 8 + j] = __uint_as_float(r[j]);
  }
  fence_before();
  __syncthreads();
  if (warp_idx == 0) {
    fence_after();
    tmem_dealloc(taddr, 64);
  }
}

// ---- 3. grid-stride style loop around a collective load ---------------------
// Loop conditions are exempt from the divergence check; the block has a
// multiple of 32 threads, so whole warps leave the loop together.

__global__ void strided_loop(float *out, int n) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&slot, 32);
    tmem_relinquish();
  }
  fence_before();
  __syncthreads();
  fence_after();
  const uint32_t taddr = slot + (((warp_idx % 4) * 32) << 16);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    uint32_t r[8];
    ld_32x32b_x8(taddr, r);
    wait_ld();
    out[i] = __uint_as_float(r[0]) + __uint_as_float(r[7]);
  }
  fence_before();
  __syncthreads();
  if (warp_idx == 0)
    tmem_dealloc(slot, 32);
}

// ---- 4. templates ------------------------------------------------------------

template <uint32_t kCols, uint32_t kAllocWarp>
__global__ void templated_accumulator(float *out, uint64_t adesc,
                                      uint64_t bdesc, uint32_t idesc) {
  __shared__ uint64_t done_bar;
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == kAllocWarp) {
    tmem_alloc(&slot, kCols);
    tmem_relinquish();
  }
  if (threadIdx.x == 0) {
    mbar_init(&done_bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  fence_before();
  __syncthreads();
  fence_after();
  const uint32_t taddr = slot;
  if (warp_idx == 0 && elect_one_sync()) {
    mma_f16(taddr, adesc, bdesc, idesc, 0);
    mma_commit(&done_bar);
  }
  if (warp_idx < 4) {
    mbar_wait(&done_bar, 0);
    fence_after();
    for (uint32_t c = 0; c < kCols; c += 8) {
      uint32_t r[8];
      ld_32x32b_x8(taddr + ((warp_idx * 32) << 16) + c, r);
      wait_ld();
      out[threadIdx.x * kCols + c] = __uint_as_float(r[0]);
    }
  }
  fence_before();
  __syncthreads();
  if (warp_idx == kAllocWarp) {
    fence_after();
    tmem_dealloc(taddr, kCols);
  }
}
template __global__ void templated_accumulator<64, 0>(float *, uint64_t,
                                                      uint64_t, uint32_t);
template __global__ void templated_accumulator<256, 3>(float *, uint64_t,
                                                       uint64_t, uint32_t);

// Never instantiated: analyzed as a pattern with kCols unknown.
template <uint32_t kCols>
__global__ void uninstantiated_pattern(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 1) {
    tmem_alloc(&slot, kCols);
    tmem_relinquish();
  }
  fence_before();
  __syncthreads();
  fence_after();
  uint32_t r[8];
  ld_32x32b_x8(slot + (((threadIdx.x / 32) % 4 * 32) << 16), r);
  wait_ld();
  out[threadIdx.x] = __uint_as_float(r[3]);
  fence_before();
  __syncthreads();
  if (threadIdx.x / 32 == 1)
    tmem_dealloc(slot, kCols);
}

// ---- 5. two regions, the budget exactly used, freed in reverse order ---------

__global__ void two_regions(float *out) {
  __shared__ uint32_t acc_slot, aux_slot;
  const uint32_t warp_idx = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp_idx == 1) {
    tmem_alloc(&acc_slot, 256);
    tmem_alloc(&aux_slot, 256);
    tmem_relinquish();
  }
  asm volatile("bar.sync 0;" ::: "memory");
  fence_after();
  const uint32_t acc = acc_slot, aux = aux_slot;
  if (warp_idx < 4) {
    uint32_t r[8], q[8];
    ld_32x32b_x8(acc + ((warp_idx * 32) << 16), r);
    ld_32x32b_x8(aux + ((warp_idx * 32) << 16), q);
    wait_ld();
    out[threadIdx.x] = __uint_as_float(r[0]) + __uint_as_float(q[0]);
  }
  fence_before();
  __syncthreads();
  if (warp_idx == 1) {
    fence_after();
    tmem_dealloc(aux, 256);
    tmem_dealloc(acc, 256);
  }
}
