// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// tmem-missing-wait-ld: a tcgen05.ld is still in flight (no tcgen05.wait::ld
// of the same thread yet) when its columns are overwritten by the thread,
// handed back to other threads through an mbarrier arrive, or freed (rules
// §5.2, bug class 21). Reading the loaded registers before the wait is legal.

// Helpers, as CUTLASS/DeepGEMM-style code wraps the raw PTX. The buggy
// kernels write their tcgen05 asm inline so that each finding has its own
// line; a finding at a helper call carries an "issued here, inside" note.
__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :: "r"(smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
               :: "r"(smem_addr(bar)) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{ .reg .pred p; LAB_WAIT_%=: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
               "@!p bra LAB_WAIT_%=; }"
               :: "r"(smem_addr(bar)), "r"(parity) : "memory");
}

__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void wait_st() {
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; "
               "selp.u32 %0, 1, 0, p; }" : "=r"(pred));
  return pred != 0;
}

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(smem_addr(slot)), "r"(ncols) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

// Fenced CTA barrier: orders tcgen05 work across the threads of the CTA.
__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// 32 columns of one 32-lane quarter into 32 registers.
__device__ __forceinline__ void ld_x32(uint32_t taddr, uint32_t (&v)[32]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29,"
      " %30, %31}, [%32];"
      : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]),
        "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]), "=r"(v[9]),
        "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]),
        "=r"(v[15]), "=r"(v[16]), "=r"(v[17]), "=r"(v[18]), "=r"(v[19]),
        "=r"(v[20]), "=r"(v[21]), "=r"(v[22]), "=r"(v[23]), "=r"(v[24]),
        "=r"(v[25]), "=r"(v[26]), "=r"(v[27]), "=r"(v[28]), "=r"(v[29]),
        "=r"(v[30]), "=r"(v[31])
      : "r"(taddr) : "memory");
}

__device__ __forceinline__ void st_x32(uint32_t taddr, const uint32_t (&v)[32]) {
  asm volatile(
      "tcgen05.st.sync.aligned.32x32b.x32.b32 [%0], "
      "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16,"
      " %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30,"
      " %31, %32};"
      :: "r"(taddr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]),
         "r"(v[5]), "r"(v[6]), "r"(v[7]), "r"(v[8]), "r"(v[9]), "r"(v[10]),
         "r"(v[11]), "r"(v[12]), "r"(v[13]), "r"(v[14]), "r"(v[15]),
         "r"(v[16]), "r"(v[17]), "r"(v[18]), "r"(v[19]), "r"(v[20]),
         "r"(v[21]), "r"(v[22]), "r"(v[23]), "r"(v[24]), "r"(v[25]),
         "r"(v[26]), "r"(v[27]), "r"(v[28]), "r"(v[29]), "r"(v[30]),
         "r"(v[31])
      : "memory");
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64: 64 accumulator columns.
constexpr uint32_t kIdescN64 =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

// CUTLASS-style epilogue (warps 4..7 of a warp-specialised GEMM, two
// accumulator stages of 64 columns): the stage is handed back to the MMA
// warp through tmem_empty[acc] while the tcgen05.ld may still be reading it.
__global__ void epilogue_release_without_wait(float *out, int num_tiles) {
  __shared__ alignas(8) uint64_t tmem_full[2];
  __shared__ alignas(8) uint64_t tmem_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&tmem_full[s], 1);
      mbar_init(&tmem_empty[s], 128);
    }
  }
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    int local_tile = 0;
    for (int tile = blockIdx.x; tile < num_tiles;
         tile += gridDim.x, ++local_tile) {
      const uint32_t acc = local_tile % 2;
      mbar_wait(&tmem_full[acc], (local_tile / 2) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      uint32_t v[4];
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                   : "r"(tmem_base + lanes + acc * 64));
      for (int i = 0; i < 4; ++i)
        out[(tile * 128 + threadIdx.x % 128) * 4 + i] = __uint_as_float(v[i]);
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      // The fix-it spells the wait as this file does (its wait_ld helper).
      // CHECK: missing-wait-ld.cu:[[@LINE+4]]:7: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
      // CHECK-NEXT: fix-it:"{{.*}}missing-wait-ld.cu":{[[@LINE+3]]:1-[[@LINE+3]]:1}:"      wait_ld();\n"
      // CHECK-NEXT: missing-wait-ld.cu:21:17: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'mbar_arrive'
      // CHECK-NEXT: missing-wait-ld.cu:[[@LINE-10]]:21: note: the tcgen05.ld is issued here
      mbar_arrive(&tmem_empty[acc]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 128);
}

// Write-after-read: a tcgen05.st to the columns the ld reads.
__global__ void ld_then_st_same_columns(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 32);
  tmem_sync();
  if (warp_idx == 0) {
    const uint32_t t = tmem_slot;
    uint32_t a, b;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
                 : "=r"(a), "=r"(b) : "r"(t));
    // PTX 9.4 pipelines ld -> st of one warp, PTX 9.1 does not: a warning.
    // CHECK: missing-wait-ld.cu:[[@LINE+3]]:19: warning: tcgen05.st overwrites columns that an earlier tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders an ld before a later st of the same warp, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
    // CHECK-NEXT: fix-it:"{{.*}}missing-wait-ld.cu":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"    wait_ld();\n"
    // CHECK-NEXT: missing-wait-ld.cu:[[@LINE-5]]:19: note: the tcgen05.ld is issued here
    asm volatile("tcgen05.st.sync.aligned.32x32b.x2.b32 [%0], {%1, %2};"
                 :: "r"(t + 1), "r"(b), "r"(a));
    wait_st();
    wait_ld();
    out[threadIdx.x] = __uint_as_float(a);
    tmem_dealloc(t, 32);
  }
}

// A tcgen05.cp of this (elected) thread overwrites columns 0..7 that the
// warp's ld of columns 0..3 may still be reading.
__global__ void ld_then_cp_overlapping(float *out, uint64_t sf_desc) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 32);
  tmem_sync();
  if (warp_idx == 0) {
    const uint32_t t = tmem_slot;
    uint32_t v[4];
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(t));
    out[threadIdx.x] = __uint_as_float(v[0] + v[3]);
    if (elect_one()) {
      // No fix-it: one lane runs this block, and wait::ld is .sync.aligned.
      // CHECK: missing-wait-ld.cu:[[@LINE+2]]:21: error: tcgen05.cp overwrites columns that an earlier tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
      // CHECK-NEXT: missing-wait-ld.cu:[[@LINE-6]]:19: note: the tcgen05.ld is issued here
      asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;"
                   :: "r"(t), "l"(sf_desc) : "memory");
    }
    __syncwarp();
    wait_ld();
    tmem_dealloc(t, 32);
  }
}

// A single-warp GEMM loop: the next tile's first mma overwrites the
// accumulator that this tile's epilogue ld may still be reading.
__global__ void ld_then_mma_overlapping(float *out, uint64_t adesc,
                                        uint64_t bdesc, int num_tiles) {
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  if (threadIdx.x == 0)
    mbar_init(&mma_done, 1);
  tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t t = tmem_slot;
  for (int tile = 0; tile < num_tiles; ++tile) {
    if (elect_one()) {
      // CHECK: missing-wait-ld.cu:[[@LINE+3]]:21: error: tcgen05.mma overwrites columns that an earlier tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
      // CHECK-NEXT: missing-wait-ld.cu:[[@LINE+11]]:19: note: the tcgen05.ld is issued here
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
                   "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
                   :: "r"(t), "l"(adesc), "l"(bdesc), "r"(kIdescN64), "r"(0)
                   : "memory");
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                   :: "r"(smem_addr(&mma_done)) : "memory");
    }
    __syncwarp();
    mbar_wait(&mma_done, tile & 1);
    uint32_t v[2];
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
                 : "=r"(v[0]), "=r"(v[1]) : "r"(t + 62));
    out[tile * 32 + threadIdx.x] = __uint_as_float(v[0] ^ v[1]);
  }
  wait_ld();
  tmem_dealloc(t, 64);
}

// The allocating warp frees its columns at once and reads the register
// after the free: nothing shows the load done (release before use).
__global__ void ld_then_dealloc(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&tmem_slot, 32);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t t = tmem_slot;
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t + 31));
    // CHECK: missing-wait-ld.cu:[[@LINE+3]]:19: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
    // CHECK-NEXT: fix-it:"{{.*}}missing-wait-ld.cu":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"    wait_ld();\n"
    // CHECK-NEXT: missing-wait-ld.cu:[[@LINE-4]]:19: note: the tcgen05.ld is issued here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(t) : "memory");
    out[threadIdx.x] = __uint_as_float(v);
  }
}

// No fix-it where inserting a line before the releasing statement is not
// certainly right: the statement is the body of an `if` without braces (a
// line before it would leave the if), it shares its line with the load, or
// the load and the release are in one call. (The register is read after
// the free each time: nothing shows the load done.)
__device__ __forceinline__ void ld_and_free(uint32_t t, float *out) {
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(t));
  // Reported here, where the load and the free are: the kernel calls both.
  // CHECK: missing-wait-ld.cu:[[@LINE+1]]:3: error: tcgen05.dealloc frees columns{{.*}}[tmem-missing-wait-ld]
  tmem_dealloc(t, 32);
  out[threadIdx.x] = __uint_as_float(v); // read after the free
}

__global__ void release_not_fixable(float *out, int mode) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&tmem_slot, 32);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t t = tmem_slot;
    if (mode == 0) {
      uint32_t v;
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                   : "=r"(v) : "r"(t));
      if (mode == 0)
        // CHECK: missing-wait-ld.cu:[[@LINE+1]]:9: error: tcgen05.dealloc frees columns{{.*}}[tmem-missing-wait-ld]
        tmem_dealloc(t, 32);
      out[threadIdx.x] = __uint_as_float(v); // read after the free
    } else if (mode == 1) {
      uint32_t v;
      // CHECK: missing-wait-ld.cu:[[@LINE+1]]:93: error: tcgen05.dealloc frees columns{{.*}}[tmem-missing-wait-ld]
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(v) : "r"(t)); tmem_dealloc(t, 32);
      out[threadIdx.x] = __uint_as_float(v);
    } else {
      ld_and_free(t, out);
    }
  }
}

// ---- Must not be flagged -------------------------------------------------

// The loaded registers are used before the wait (legal: register
// dependency, rules §5.2); wait::ld comes before the tmem_empty arrive.
__global__ void registers_used_before_wait(float *out, int num_tiles) {
  __shared__ alignas(8) uint64_t tmem_full[2];
  __shared__ alignas(8) uint64_t tmem_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&tmem_full[s], 1);
      mbar_init(&tmem_empty[s], 128);
    }
  }
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    int local_tile = 0;
    for (int tile = blockIdx.x; tile < num_tiles;
         tile += gridDim.x, ++local_tile) {
      const uint32_t acc = local_tile % 2;
      mbar_wait(&tmem_full[acc], (local_tile / 2) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      uint32_t v[32];
      ld_x32(tmem_base + lanes + acc * 64, v);
      float sum = 0.f;
      for (int i = 0; i < 32; ++i)
        sum += __uint_as_float(v[i]);
      out[tile * 128 + threadIdx.x % 128] = sum;
      wait_ld();
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      mbar_arrive(&tmem_empty[acc]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 128);
}

// Sub-tiles loaded one after another; the wait inside the loop covers each
// load before the arrive that ends the iteration.
__global__ void wait_inside_loop(float *out, int num_tiles) {
  __shared__ alignas(8) uint64_t tmem_full[2];
  __shared__ alignas(8) uint64_t tmem_empty[2];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&tmem_full[s], 1);
      mbar_init(&tmem_empty[s], 4);
    }
  }
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      const uint32_t acc = tile % 2;
      mbar_wait(&tmem_full[acc], (tile / 2) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      for (uint32_t col = 0; col < 128; col += 32) {
        uint32_t v[32];
        ld_x32(tmem_base + lanes + acc * 128 + col, v);
        wait_ld();
        for (int i = 0; i < 32; ++i)
          out[(tile * 128 + col + i) * 128 + threadIdx.x % 128] =
              __uint_as_float(v[i]);
      }
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      if (threadIdx.x % 32 == 0)
        mbar_arrive(&tmem_empty[acc]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 256);
}

// Columns 0..31 are read and columns 64..95 written: disjoint, no wait
// needed between them.
__global__ void disjoint_columns(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  if (warp_idx == 0) {
    const uint32_t t = tmem_slot;
    uint32_t v[32];
    ld_x32(t, v);
    st_x32(t + 64, v);
    wait_st();
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v[5]);
    tmem_dealloc(t, 128);
  }
}

// CUTLASS's epilogue: the epilogue warps stage through shared memory with
// a named barrier of their own 128 threads between the ld and the
// wait::ld; the wait still precedes the arrive.
__global__ void named_barrier_between_ld_and_wait(float *out, int num_tiles) {
  __shared__ alignas(8) uint64_t tmem_full[2];
  __shared__ alignas(8) uint64_t tmem_empty[2];
  __shared__ float staging[128][33];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      mbar_init(&tmem_full[s], 1);
      mbar_init(&tmem_empty[s], 128);
    }
  }
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 64);
  tmem_sync();
  const uint32_t tmem_base = tmem_slot;
  if (warp_idx >= 4) {
    const uint32_t row = threadIdx.x % 128;
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      const uint32_t acc = tile % 2;
      mbar_wait(&tmem_full[acc], (tile / 2) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      uint32_t v[32];
      ld_x32(tmem_base + lanes + acc * 32, v);
      for (int i = 0; i < 32; ++i)
        staging[row][i] = __uint_as_float(v[i]);
      asm volatile("bar.sync 1, 128;" ::: "memory");
      for (int i = 0; i < 32; ++i)
        out[(tile * 32 + i) * 128 + row] = staging[i][row];
      asm volatile("bar.sync 1, 128;" ::: "memory");
      wait_ld();
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      mbar_arrive(&tmem_empty[acc]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(tmem_base, 64);
}

// The ld is in the epilogue role (warp 1); the arrive before its wait::ld
// is made by the producer role (warp 0), a different thread. Warp 2 owns the
// allocation.
__global__ void arrive_in_another_role(float *out, const float *in,
                                       int num_tiles) {
  __shared__ alignas(8) uint64_t smem_full;
  __shared__ alignas(8) uint64_t tmem_empty;
  __shared__ float tile_buf[32];
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    mbar_init(&smem_full, 32);
    mbar_init(&tmem_empty, 32);
  }
  if (warp_idx == 2)
    tmem_alloc(&tmem_slot, 32);
  tmem_sync();
  const uint32_t t = tmem_slot;
  uint32_t v[4];
  for (int tile = 0; tile < num_tiles; ++tile) {
    if (warp_idx == 1) {
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
                   : "r"(t + (32u << 16)));
    }
    if (warp_idx == 0) {
      tile_buf[threadIdx.x] = in[tile * 32 + threadIdx.x];
      mbar_arrive(&smem_full);
    }
    if (warp_idx == 1) {
      mbar_wait(&smem_full, tile & 1);
      out[tile * 32 + threadIdx.x % 32] =
          tile_buf[threadIdx.x % 32] * __uint_as_float(v[0] + v[3]);
      wait_ld();
      asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
      mbar_arrive(&tmem_empty);
    }
  }
  tmem_sync();
  if (warp_idx == 2)
    tmem_dealloc(t, 32);
}

// The load and its wait sit in two blocks guarded by the same warp-uniform
// role test, so every thread that issues the ld also waits for it before
// the same warp frees the columns. (A path through the first block that
// skips the second is no thread's path.)
__global__ void wait_in_second_role_block(float *out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 1)
    tmem_alloc(&tmem_slot, 32);
  tmem_sync();
  const uint32_t t = tmem_slot;
  uint32_t v = 0;
  if (warp_idx == 1) {
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t + (32u << 16)));
  }
  out[threadIdx.x] = 1.0f;
  if (warp_idx == 1) {
    wait_ld();
    out[threadIdx.x] = __uint_as_float(v);
  }
  tmem_sync();
  if (warp_idx == 1)
    tmem_dealloc(t, 32);
}
