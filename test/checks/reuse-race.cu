// RUN: not %tmemcheck --checks='-*,tmem-reuse-race' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-reuse-race: TMEM columns rewritten (an mma's D, tcgen05.st, cp)
// while an earlier reader in other threads — the epilogue's tcgen05.ld, or
// an mma still running in the tensor core — is not ordered before the
// write (rules §5.2, §5.3, bug class 32). Shapes from facebookexperimental/
// triton #1993/#2024/#3527 and TIRx-kernels #19.

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :: "r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity) {
  asm volatile("{ .reg .pred p; LAB_WAIT_%=: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
               "@!p bra LAB_WAIT_%=; }"
               :: "r"(smem_addr(bar)), "r"(parity) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
               :: "r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
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
__device__ __forceinline__ void tmem_sync() {
  fence_before();
  __syncthreads();
  fence_after();
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 128: 128 accumulator columns.
constexpr uint32_t kIdescN128 = (1u << 4) | (1u << 7) | (1u << 10) |
                                ((128u >> 3) << 17) | ((128u >> 4) << 24);

__device__ __forceinline__ void mma_ss(uint32_t d_tmem, uint64_t adesc,
                                       uint64_t bdesc, uint32_t accumulate) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; }"
               :: "r"(d_tmem), "l"(adesc), "l"(bdesc), "r"(kIdescN128),
                  "r"(accumulate)
               : "memory");
}
// A from TMEM ([a_tmem]): reads 8 columns at a_tmem.
__device__ __forceinline__ void mma_ts(uint32_t d_tmem, uint32_t a_tmem,
                                       uint64_t bdesc, uint32_t accumulate) {
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
               "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p; }"
               :: "r"(d_tmem), "r"(a_tmem), "l"(bdesc), "r"(kIdescN128),
                  "r"(accumulate)
               : "memory");
}
__device__ __forceinline__ void commit_to(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
               :: "r"(smem_addr(bar)) : "memory");
}
// 8 columns of this warp's lane quarter.
__device__ __forceinline__ void ld_x8(uint32_t taddr, uint32_t (&v)[8]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]),
                 "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
               : "r"(taddr) : "memory");
}
__device__ __forceinline__ void st_x8(uint32_t taddr, const uint32_t (&v)[8]) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 "
               "[%0], {%1, %2, %3, %4, %5, %6, %7, %8};"
               :: "r"(taddr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]),
                  "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7]) : "memory");
}
__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wait_st() {
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// ---- Bugs ----------------------------------------------------------------

// Persistent warp-specialised GEMM: the MMA warp starts the next tile's
// accumulation as soon as its operands are loaded, without waiting for the
// epilogue's "tmem empty" arrive: it overwrites the accumulator the
// epilogue warps are still reading (bug class 32).
__global__ void persistent_no_empty_wait(float *out, uint64_t adesc,
                                         uint64_t bdesc, int num_tiles,
                                         int k_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t smem_full[2], smem_empty[2];
  __shared__ uint64_t tmem_full, tmem_empty;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&tmem_slot, 128);
    if (elect_one()) {
      mbar_init(&tmem_full, 1);
      mbar_init(&tmem_empty, 128);
    }
  }
  tmem_sync();
  const uint32_t acc = tmem_slot;
  if (warp_idx == 1) {
    for (int tile = 0; tile < num_tiles; ++tile) {
      for (int k = 0; k < k_tiles; ++k) {
        mbar_wait(&smem_full[k % 2], (k / 2) & 1);
        fence_after();
        if (elect_one()) {
          // CHECK: reuse-race.cu:[[@LINE+1]]:11: error: tcgen05.mma rewrites columns of 'tmem_slot' that the tcgen05.ld of other threads may still be reading: this thread never waits on the mbarrier they arrive on after the load before writing them again (rules §5.2, §5.3; bug class 32) [tmem-reuse-race]
          mma_ss(acc, adesc, bdesc, k > 0);
          commit_to(&smem_empty[k % 2]);
        }
      }
      if (elect_one())
        commit_to(&tmem_full);
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      mbar_wait(&tmem_full, tile & 1);
      fence_after();
      for (int c = 0; c < 128; c += 8) {
        uint32_t v[8];
        ld_x8(acc + lanes + c, v);
        wait_ld();
        out[tile * 128 + c] = __uint_as_float(v[0]);
      }
      fence_before();
      mbar_arrive(&tmem_empty);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(acc, 128);
}
// CHECK-NEXT: reuse-race.cu:62:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_ss'
// CHECK-NEXT: reuse-race.cu:[[@LINE-13]]:9: note: the tcgen05.ld of the other threads is here
// CHECK-NEXT: reuse-race.cu:[[@LINE-24]]:9: note: the columns are handed to them here, and the write comes round again after it
// CHECK-NEXT: reuse-race.cu:[[@LINE-10]]:7: note: they signal 'tmem_empty' here; wait on it before the write

// The epilogue warps read the accumulator and tell nobody: the MMA warp's
// only waits are on its operand pipeline.
__global__ void epilogue_never_releases(float *out, uint64_t adesc,
                                        uint64_t bdesc, int num_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t smem_full, tmem_full;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t acc = tmem_slot;
  if (warp_idx == 1) {
    for (int tile = 0; tile < num_tiles; ++tile) {
      mbar_wait(&smem_full, tile & 1);
      if (elect_one()) {
        // CHECK: reuse-race.cu:[[@LINE+1]]:9: error: tcgen05.mma rewrites columns of 'tmem_slot' that the tcgen05.ld of other threads may still be reading: they signal nothing after the load, so nothing orders it before the write (rules §5.2, §5.3; bug class 32) [tmem-reuse-race]
        mma_ss(acc, adesc, bdesc, 0);
        commit_to(&tmem_full);
      }
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      mbar_wait(&tmem_full, tile & 1);
      uint32_t v[8];
      ld_x8(acc + lanes, v);
      wait_ld();
      out[tile] = __uint_as_float(v[0]);
    }
  }
}
// CHECK-NEXT: reuse-race.cu:62:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_ss'
// CHECK-NEXT: reuse-race.cu:[[@LINE-7]]:7: note: the tcgen05.ld of the other threads is here
// CHECK-NEXT: reuse-race.cu:[[@LINE-17]]:9: note: the columns are handed to them here, and the write comes round again after it

// TIRx-kernels #19: the state producer refills its single-stage TMEM
// operand for the next step without consuming the "empty" token the MMA
// issuer's commit returns, while that mma may still be reading it.
__global__ void producer_overwrites_mma_operand(uint64_t bdesc, int steps) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t state_full, state_empty;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t acc = tmem_slot;
  const uint32_t state = tmem_slot + 128;
  if (warp_idx == 1) {
    for (int s = 0; s < steps; ++s) {
      mbar_wait(&state_full, s & 1);
      fence_after();
      if (elect_one()) {
        mma_ts(acc, state, bdesc, s > 0);
        commit_to(&state_empty);
      }
      __syncwarp();
    }
  } else if (warp_idx == 4) {
    uint32_t v[8] = {};
    for (int s = 0; s < steps; ++s) {
      // CHECK: reuse-race.cu:[[@LINE+1]]:7: error: tcgen05.st rewrites columns of 'tmem_slot' that a tcgen05.mma of other threads may still be using: this thread never waits on a commit of that mma before writing them again (rules §5.2, §5.3; bug class 32) [tmem-reuse-race]
      st_x8(state, v);
      wait_st();
      fence_before();
      mbar_arrive(&state_full);
    }
  }
}
// CHECK-NEXT: reuse-race.cu:89:17: note: 'tcgen05.st.sync.aligned.32x32b.x8.b32' is issued here, inside 'st_x8'
// CHECK-NEXT: reuse-race.cu:[[@LINE-17]]:9: note: the tcgen05.mma of the other threads is here
// CHECK-NEXT: reuse-race.cu:[[@LINE-6]]:7: note: the columns are handed to them here, and the write comes round again after it
// CHECK-NEXT: reuse-race.cu:[[@LINE-18]]:9: note: they signal 'state_empty' here; wait on it before the write

// ---- Correct look-alikes: no finding -------------------------------------

// The same persistent GEMM with two accumulator stages, each released by
// the epilogue through tmem_empty[stage] and acquired by the MMA warp
// before it writes the stage again.
__global__ void persistent_double_buffered(float *out, uint64_t adesc,
                                           uint64_t bdesc, int num_tiles,
                                           int k_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t smem_full[2], smem_empty[2];
  __shared__ uint64_t tmem_full[2], tmem_empty[2];
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t base = tmem_slot;
  if (warp_idx == 1) {
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile % 2;
      const uint32_t acc = base + stage * 128;
      mbar_wait(&tmem_empty[stage], ((tile / 2) & 1) ^ 1);
      fence_after();
      for (int k = 0; k < k_tiles; ++k) {
        mbar_wait(&smem_full[k % 2], (k / 2) & 1);
        fence_after();
        if (elect_one()) {
          mma_ss(acc, adesc, bdesc, k > 0);
          commit_to(&smem_empty[k % 2]);
        }
      }
      if (elect_one())
        commit_to(&tmem_full[stage]);
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile % 2;
      mbar_wait(&tmem_full[stage], (tile / 2) & 1);
      fence_after();
      uint32_t v[8];
      ld_x8(base + stage * 128 + lanes, v);
      wait_ld();
      out[tile] = __uint_as_float(v[0]);
      fence_before();
      mbar_arrive(&tmem_empty[stage]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(base, 256);
}

// FlashAttention-style aliasing: P is written over S by the softmax warps
// and read from TMEM by the PV mma; S is written again only after the
// softmax arrived on p_full, and P only after the next S commit (which
// also covers the PV mma) arrived on s_full.
__global__ void fa_style_s_p_alias(uint64_t qdesc, uint64_t kdesc,
                                   uint64_t vdesc, int kv_blocks) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t s_full, p_full, o_full;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t s_tmem = tmem_slot;
  const uint32_t o_tmem = tmem_slot + 128;
  if (warp_idx == 1) {
    for (int j = 0; j < kv_blocks; ++j) {
      if (elect_one()) {
        mma_ss(s_tmem, qdesc, kdesc, 0);
        commit_to(&s_full);
      }
      __syncwarp();
      mbar_wait(&p_full, j & 1);
      fence_after();
      if (elect_one()) {
        mma_ts(o_tmem, s_tmem, vdesc, j > 0);
        commit_to(&o_full);
      }
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int j = 0; j < kv_blocks; ++j) {
      mbar_wait(&s_full, j & 1);
      fence_after();
      uint32_t v[8];
      ld_x8(s_tmem + lanes, v);
      wait_ld();
      for (int i = 0; i < 8; ++i)
        v[i] = __float_as_uint(__uint_as_float(v[i]) * 0.5f);
      st_x8(s_tmem + lanes, v);
      wait_st();
      fence_before();
      mbar_arrive(&p_full);
    }
  }
}

// One tile per CTA: the epilogue reads the accumulator once after the
// commit; the mma never comes round again, so nothing needs releasing.
__global__ void single_tile(float *out, uint64_t adesc, uint64_t bdesc,
                            int k_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t smem_full, tmem_full;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 128);
  tmem_sync();
  const uint32_t acc = tmem_slot;
  if (warp_idx == 1) {
    for (int k = 0; k < k_tiles; ++k) {
      mbar_wait(&smem_full, k & 1);
      if (elect_one())
        mma_ss(acc, adesc, bdesc, k > 0);
      __syncwarp();
    }
    if (elect_one())
      commit_to(&tmem_full);
  } else if (warp_idx >= 4) {
    mbar_wait(&tmem_full, 0);
    fence_after();
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    for (int c = 0; c < 128; c += 8) {
      uint32_t v[8];
      ld_x8(acc + lanes + c, v);
      wait_ld();
      out[c] = __uint_as_float(v[0]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(acc, 128);
}

// ---- Stages of an mbarrier array ------------------------------------------

// The MMA warp acquires the other accumulator stage (`stage ^ 1`) before
// writing stage `stage`: the epilogue released `tmem_empty[stage]`, so the
// wait orders nothing before this write (bug class 32).
__global__ void wrong_stage_wait(float *out, uint64_t adesc, uint64_t bdesc,
                                 int num_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t tmem_full[2], tmem_empty[2];
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t base = tmem_slot;
  if (warp_idx == 1) {
#pragma unroll 1
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile % 2;
      mbar_wait(&tmem_empty[stage ^ 1], ((tile / 2) & 1) ^ 1);
      fence_after();
      if (elect_one()) {
        // CHECK: reuse-race.cu:[[@LINE+1]]:9: error: tcgen05.mma rewrites columns of 'tmem_slot' that the tcgen05.ld of other threads may still be reading: this thread never waits on the mbarrier they arrive on after the load before writing them again (rules §5.2, §5.3; bug class 32) [tmem-reuse-race]
        mma_ss(base + stage * 128, adesc, bdesc, 0);
        commit_to(&tmem_full[stage]);
      }
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
#pragma unroll 1
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile % 2;
      mbar_wait(&tmem_full[stage], (tile / 2) & 1);
      fence_after();
      uint32_t v[8];
      ld_x8(base + stage * 128 + lanes, v);
      wait_ld();
      out[tile] = __uint_as_float(v[0]);
      fence_before();
      mbar_arrive(&tmem_empty[stage]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(base, 256);
}
// CHECK-NEXT: reuse-race.cu:62:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_ss'
// CHECK-NEXT: reuse-race.cu:[[@LINE-12]]:7: note: the tcgen05.ld of the other threads is here
// CHECK-NEXT: reuse-race.cu:[[@LINE-25]]:9: note: the columns are handed to them here, and the write comes round again after it
// CHECK-NEXT: reuse-race.cu:[[@LINE-10]]:7: note: they signal 'tmem_empty[]' here; wait on it before the write

// The MMA warp waits on the shared-memory pipeline's "empty" barrier of
// the stage instead of the accumulator's: another pipeline, which the
// epilogue never arrives on.
__global__ void unrelated_pipeline_wait(float *out, uint64_t adesc,
                                        uint64_t bdesc, int num_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t smem_empty[2], tmem_full[2], tmem_empty[2];
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t base = tmem_slot;
  if (warp_idx == 1) {
#pragma unroll 1
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile % 2;
      mbar_wait(&smem_empty[stage], ((tile / 2) & 1) ^ 1);
      fence_after();
      if (elect_one()) {
        // CHECK: reuse-race.cu:[[@LINE+1]]:9: error: tcgen05.mma rewrites columns of 'tmem_slot' that the tcgen05.ld of other threads may still be reading: this thread never waits on the mbarrier they arrive on after the load before writing them again (rules §5.2, §5.3; bug class 32) [tmem-reuse-race]
        mma_ss(base + stage * 128, adesc, bdesc, 0);
        commit_to(&tmem_full[stage]);
      }
      __syncwarp();
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
#pragma unroll 1
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile % 2;
      mbar_wait(&tmem_full[stage], (tile / 2) & 1);
      fence_after();
      uint32_t v[8];
      ld_x8(base + stage * 128 + lanes, v);
      wait_ld();
      out[tile] = __uint_as_float(v[0]);
      fence_before();
      mbar_arrive(&tmem_empty[stage]);
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(base, 256);
}
// CHECK-NEXT: reuse-race.cu:62:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_ss'
// CHECK-NEXT: reuse-race.cu:[[@LINE-12]]:7: note: the tcgen05.ld of the other threads is here
// CHECK-NEXT: reuse-race.cu:[[@LINE-25]]:9: note: the columns are handed to them here, and the write comes round again after it
// CHECK-NEXT: reuse-race.cu:[[@LINE-10]]:7: note: they signal 'tmem_empty[]' here; wait on it before the write

// Correct: the persistent double-buffered accumulator with a stage
// variable carried round the loop and a phase bit flipped when it wraps
// (DeepGEMM's shape); each side pairs the stage's columns with the
// stage's barrier.
__global__ void double_buffered_carried_stage(float *out, uint64_t adesc,
                                              uint64_t bdesc, int num_tiles) {
  __shared__ uint32_t tmem_slot;
  __shared__ uint64_t tmem_full[2], tmem_empty[2];
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&tmem_slot, 256);
  tmem_sync();
  const uint32_t base = tmem_slot;
  if (warp_idx == 1) {
    uint32_t stage = 0, phase = 0;
#pragma unroll 1
    for (int tile = 0; tile < num_tiles; ++tile) {
      mbar_wait(&tmem_empty[stage], phase ^ 1);
      fence_after();
      if (elect_one()) {
        mma_ss(base + stage * 128, adesc, bdesc, 0);
        commit_to(&tmem_full[stage]);
      }
      __syncwarp();
      stage = (stage + 1) % 2;
      phase ^= stage == 0;
    }
  } else if (warp_idx >= 4) {
    const uint32_t lanes = ((warp_idx % 4) * 32) << 16;
    uint32_t stage = 0, phase = 0;
#pragma unroll 1
    for (int tile = 0; tile < num_tiles; ++tile) {
      mbar_wait(&tmem_full[stage], phase);
      fence_after();
      uint32_t v[8];
      ld_x8(base + stage * 128 + lanes, v);
      wait_ld();
      out[tile] = __uint_as_float(v[0]);
      fence_before();
      mbar_arrive(&tmem_empty[stage]);
      stage = (stage + 1) % 2;
      phase ^= stage == 0;
    }
  }
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(base, 256);
}
