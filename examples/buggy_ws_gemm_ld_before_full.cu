// buggy_ws_gemm_ld_before_full.cu - SEEDED BUG in warp_specialized_gemm.cu:
// epilogue reads the accumulator before waiting on tmem_full.
//
// Derived from warp_specialized_gemm.cu by exactly one change: the epilogue's
// mbarrier wait on tmem_full[acc] is moved from before the tcgen05.ld loop
// (line 291, marked "BUG (seeded)") to after it, just before the arrive on
// tmem_empty[acc] (line 323). The tcgen05.fence::after_thread_sync that
// followed the wait stays where it was. The MMA warp still commits to
// tmem_full[acc] (line 272); the epilogue now waits for that commit only after
// it has read the accumulator.
//
// Why it is wrong (rules §5.2, §5.3 pattern 4, bug class 20): the accumulator
// written by tcgen05.mma may only be read after mma -> tcgen05.commit ->
// mbarrier wait -> fence::after_thread_sync. Here the epilogue's
// tcgen05.ld.32x32b.x32 (line 300) can run while the MMAs of the tile are still
// accumulating (or before they were even issued), so it reads stale or partial
// sums. ptxas accepts this. On the second and later tiles a wait on tmem_full
// (for the previous tile) does precede the ld along the loop back edge; it is
// for the other accumulator stage and an older phase, so it does not order this
// tile's MMAs - and on the first tile no wait precedes the ld at all.
//
// Expected finding: tmem-accumulator-read-before-commit (error) at the
// tcgen05.ld on line 300 (no wait on tmem_full, the barrier the commit on line
// 272 targets, precedes it on the first tile's path).
// The final barrier + dealloc (line 340) is still safe: every epilogue thread
// waits on the last tmem_full commit before it reaches that barrier.
//
// ---- unchanged description of warp_specialized_gemm.cu follows (only its
// "Expected findings" line differs) ----
//
// D[M x N] (fp32, row-major) = A[M x K] * B[N x K]^T (bf16, both K-major).
// Persistent CTAs of 256 threads walk 128x128 output tiles; K is consumed in
// 64-wide k-blocks through a kNumStages-deep shared-memory ring.
//
//   warp 0     producer: one lane issues cp.async.bulk copies of pre-packed A/B
//              k-blocks into the smem ring (full_bar[s] / empty_bar[s]).
//   warp 1     MMA issuer: the whole warp waits on the barriers, one elected lane
//              issues tcgen05.mma.cta_group::1.kind::f16 (M=128, N=128, K=16)
//              and the tcgen05.commit that frees the smem stage; after the last
//              k-block the same lane commits to tmem_full[acc].
//   warp 2     TMEM allocator: 256 columns = 2 accumulator stages x 128 columns,
//              freed by the same warp at the very end (after relinquish).
//   warp 3     idle (keeps the epilogue warps aligned to a warpgroup).
//   warps 4-7  epilogue: wait tmem_full[acc], tcgen05.fence::after_thread_sync,
//              tcgen05.ld.32x32b.x32 from their own lane quarter (warp % 4),
//              tcgen05.wait::ld, store to D, tcgen05.fence::before_thread_sync,
//              arrive on tmem_empty[acc] so the MMA warp may reuse the stage.
//
// The two accumulator stages let the MMA warp work on tile t+1 while the
// epilogue drains tile t. All mbarrier operations are raw PTX inline asm.
//
// Expected findings: see the top of this file.
//
// Data layout contract (keeps the example free of TMA descriptors): the host
// pre-packs every 128x64 bf16 k-block of A and of B into 16 KiB of no-swizzle
// K-major core matrices, [row/8][k/8][8 rows][8 elems]; A_packed is indexed
// [m_blk][k_blk], B_packed [n_blk][k_blk].
//
// Launch: grid = min(#tiles, #SMs), block = 256 threads,
//         dynamic shared memory = kSmemBytes (opt in with cudaFuncSetAttribute).

#include <cstdint>

namespace {

constexpr uint32_t kBlockM = 128;
constexpr uint32_t kBlockN = 128;
constexpr uint32_t kBlockK = 64;   // bf16: 128 bytes of K per row
constexpr uint32_t kUmmaK = 16;    // K of one kind::f16 MMA
constexpr uint32_t kNumStages = 4; // smem ring depth
constexpr uint32_t kNumAccStages = 2;
constexpr uint32_t kTmemCols = kNumAccStages * kBlockN; // 256
constexpr uint32_t kTileBytesA = kBlockM * kBlockK * 2; // 16 KiB
constexpr uint32_t kTileBytesB = kBlockN * kBlockK * 2; // 16 KiB
constexpr uint32_t kStageBytes = kTileBytesA + kTileBytesB;
constexpr uint32_t kNumEpilogueThreads = 128;
constexpr uint32_t kSmemBytes = kNumStages * kStageBytes;
static_assert(kSmemBytes <= 227 * 1024, "smem ring exceeds the sm_100 limit");
static_assert(kTmemCols == 256, "2 accumulator stages x 128 fp32 columns");

// kind::f16 instruction descriptor: BF16 x BF16 -> F32, A and B K-major,
// N = 128 (bits 17-22 hold N >> 3), M = 128 (bits 24-28 hold M >> 4).
constexpr uint32_t kIdesc = (1u << 4)                   // D format: F32
                            | (1u << 7)                 // A format: BF16
                            | (1u << 10)                // B format: BF16
                            | ((kBlockN >> 3) << 17)    // N
                            | ((kBlockM >> 4) << 24);   // M

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ bool electOne() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "elect.sync _|p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(pred));
  return pred != 0;
}

// ---- mbarrier (raw PTX) ---------------------------------------------------

__device__ __forceinline__ void mbarInit(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :: "r"(smemAddr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbarArrive(uint64_t *bar) {
  asm volatile("{\n\t.reg .b64 state;\n\t"
               "mbarrier.arrive.shared::cta.b64 state, [%0];\n\t}"
               :: "r"(smemAddr(bar)) : "memory");
}

__device__ __forceinline__ void mbarArriveExpectTx(uint64_t *bar,
                                                   uint32_t bytes) {
  asm volatile("{\n\t.reg .b64 state;\n\t"
               "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n\t}"
               :: "r"(smemAddr(bar)), "r"(bytes) : "memory");
}

// Spin until the phase with the given parity has completed.
__device__ __forceinline__ void mbarWait(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n\t.reg .pred done;\n\t"
               "MBAR_WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra MBAR_WAIT_%=;\n\t}"
               :: "r"(smemAddr(bar)), "r"(parity) : "memory");
}

// ---- bulk copy -----------------------------------------------------------

__device__ __forceinline__ void bulkCopyG2S(void *dst, const void *src,
                                            uint32_t bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1], %2, [%3];"
               :: "r"(smemAddr(dst)), "l"(src), "r"(bytes), "r"(smemAddr(bar))
               : "memory");
}

// ---- tcgen05 (raw PTX) ---------------------------------------------------

__device__ __forceinline__ void fenceBeforeThreadSync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void fenceAfterThreadSync() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// No-swizzle K-major smem descriptor: start >> 4 (bits 0-13), leading byte
// offset >> 4 (bits 16-29, next core matrix along K), stride byte offset >> 4
// (bits 32-45, next 8-row group), descriptor version 1 (bits 46-47).
__device__ __forceinline__ uint64_t smemDesc(uint32_t saddr) {
  constexpr uint64_t kLbo = 128;                   // 8 rows x 16 bytes
  constexpr uint64_t kSbo = (kBlockK / 8) * 128;   // one 8-row group
  return static_cast<uint64_t>((saddr & 0x3FFFF) >> 4) | ((kLbo >> 4) << 16) |
         ((kSbo >> 4) << 32) | (uint64_t{1} << 46);
}

__device__ __forceinline__ void mmaBf16(uint32_t d_tmem, uint64_t adesc,
                                        uint64_t bdesc, uint32_t accumulate) {
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d_tmem), "l"(adesc), "l"(bdesc), "r"(kIdesc),
                  "r"(accumulate)
               : "memory");
}

__device__ __forceinline__ void commitTo(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];"
               :: "r"(smemAddr(bar)) : "memory");
}

} // namespace

__global__ void __launch_bounds__(256, 1)
ws_gemm_bf16(const uint8_t *__restrict__ a_packed,
             const uint8_t *__restrict__ b_packed, float *__restrict__ d,
             uint32_t m, uint32_t n, uint32_t k) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ alignas(8) uint64_t full_bar[kNumStages];
  __shared__ alignas(8) uint64_t empty_bar[kNumStages];
  __shared__ alignas(8) uint64_t tmem_full[kNumAccStages];
  __shared__ alignas(8) uint64_t tmem_empty[kNumAccStages];
  __shared__ uint32_t tmem_slot;

  const uint32_t warp_idx = threadIdx.x / 32; // warp-uniform
  const uint32_t lane_idx = threadIdx.x % 32;
  const uint32_t tiles_n = n / kBlockN;
  const uint32_t num_tiles = (m / kBlockM) * tiles_n;
  const uint32_t num_k_blocks = k / kBlockK;

  // ---- setup ----
  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kNumStages; ++s) {
      mbarInit(&full_bar[s], 1);  // producer's expect_tx arrive
      mbarInit(&empty_bar[s], 1); // MMA warp's commit
    }
    for (uint32_t s = 0; s < kNumAccStages; ++s) {
      mbarInit(&tmem_full[s], 1);                     // MMA warp's commit
      mbarInit(&tmem_empty[s], kNumEpilogueThreads); // every epilogue thread
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (warp_idx == 2) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(smemAddr(&tmem_slot)), "r"(kTmemCols)
                 : "memory");
  }
  fenceBeforeThreadSync();
  __syncthreads();
  fenceAfterThreadSync();
  const uint32_t tmem_base = tmem_slot;

  if (warp_idx == 0) {
    // ---- producer ----
    if (lane_idx == 0) {
      uint32_t stage = 0, phase = 0;
      for (uint32_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
        const uint32_t m_blk = tile / tiles_n, n_blk = tile % tiles_n;
        for (uint32_t kb = 0; kb < num_k_blocks; ++kb) {
          mbarWait(&empty_bar[stage], phase ^ 1);
          uint8_t *sa = smem + stage * kStageBytes;
          uint8_t *sb = sa + kTileBytesA;
          const uint8_t *ga =
              a_packed + (size_t(m_blk) * num_k_blocks + kb) * kTileBytesA;
          const uint8_t *gb =
              b_packed + (size_t(n_blk) * num_k_blocks + kb) * kTileBytesB;
          mbarArriveExpectTx(&full_bar[stage], kStageBytes);
          bulkCopyG2S(sa, ga, kTileBytesA, &full_bar[stage]);
          bulkCopyG2S(sb, gb, kTileBytesB, &full_bar[stage]);
          if (++stage == kNumStages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
  } else if (warp_idx == 1) {
    // ---- MMA issuer ----
    uint32_t stage = 0, phase = 0, local_tile = 0;
    for (uint32_t tile = blockIdx.x; tile < num_tiles;
         tile += gridDim.x, ++local_tile) {
      const uint32_t acc = local_tile % kNumAccStages;
      const uint32_t acc_phase = (local_tile / kNumAccStages) & 1;
      const uint32_t d_tmem = tmem_base + acc * kBlockN;

      // The epilogue must have drained this accumulator stage.
      mbarWait(&tmem_empty[acc], acc_phase ^ 1);
      fenceAfterThreadSync();

      for (uint32_t kb = 0; kb < num_k_blocks; ++kb) {
        mbarWait(&full_bar[stage], phase);
        fenceAfterThreadSync();
        // elect.sync with a full mask elects the same lane every time, so the
        // MMAs of every k-block and both commits come from one thread (§5.2).
        if (electOne()) {
          const uint32_t sa = smemAddr(smem + stage * kStageBytes);
          const uint32_t sb = sa + kTileBytesA;
#pragma unroll
          for (uint32_t kk = 0; kk < kBlockK / kUmmaK; ++kk) {
            // K = 16 bf16 = two core matrices = 256 bytes further along K.
            mmaBf16(d_tmem, smemDesc(sa + kk * 256), smemDesc(sb + kk * 256),
                    (kb | kk) != 0 ? 1u : 0u);
          }
          commitTo(&empty_bar[stage]); // smem stage may be refilled
          if (kb == num_k_blocks - 1)
            commitTo(&tmem_full[acc]); // accumulator is complete
        }
        __syncwarp();
        if (++stage == kNumStages) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  } else if (warp_idx >= 4) {
    // ---- epilogue (one warpgroup: quarters 0..3) ----
    const uint32_t quarter = warp_idx % 4;
    uint32_t local_tile = 0;
    for (uint32_t tile = blockIdx.x; tile < num_tiles;
         tile += gridDim.x, ++local_tile) {
      const uint32_t m_blk = tile / tiles_n, n_blk = tile % tiles_n;
      const uint32_t acc = local_tile % kNumAccStages;
      const uint32_t acc_phase = (local_tile / kNumAccStages) & 1;

      // BUG (seeded): the mbarWait on tmem_full[acc] moved below the loads.
      fenceAfterThreadSync();

      const uint32_t row = m_blk * kBlockM + quarter * 32 + lane_idx;
      float *d_row = d + size_t(row) * n + n_blk * kBlockN;
      const uint32_t t_row = tmem_base + acc * kBlockN + ((quarter * 32) << 16);
      for (uint32_t col = 0; col < kBlockN; col += 32) {
        uint32_t v[32];
        asm volatile(
            "tcgen05.ld.sync.aligned.32x32b.x32.b32 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14,"
            " %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27,"
            " %28, %29, %30, %31}, [%32];"
            : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]),
              "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]), "=r"(v[9]),
              "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]),
              "=r"(v[14]), "=r"(v[15]), "=r"(v[16]), "=r"(v[17]),
              "=r"(v[18]), "=r"(v[19]), "=r"(v[20]), "=r"(v[21]),
              "=r"(v[22]), "=r"(v[23]), "=r"(v[24]), "=r"(v[25]),
              "=r"(v[26]), "=r"(v[27]), "=r"(v[28]), "=r"(v[29]),
              "=r"(v[30]), "=r"(v[31])
            : "r"(t_row + col)
            : "memory");
        asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#pragma unroll
        for (uint32_t i = 0; i < 32; i += 4) {
          float4 out = make_float4(__uint_as_float(v[i]), __uint_as_float(v[i + 1]),
                                   __uint_as_float(v[i + 2]),
                                   __uint_as_float(v[i + 3]));
          *reinterpret_cast<float4 *>(d_row + col + i) = out;
        }
      }
      mbarWait(&tmem_full[acc], acc_phase); // BUG (seeded): moved here
      // All loads of this stage are complete (wait::ld above); hand it back.
      fenceBeforeThreadSync();
      mbarArrive(&tmem_empty[acc]);
    }
  }

  // ---- teardown ----
  // The epilogue waited on every tmem_full commit and finished its loads, so
  // after this barrier no tcgen05 operation on the columns is in flight.
  __syncwarp();
  fenceBeforeThreadSync();
  __syncthreads();
  fenceAfterThreadSync();
  if (warp_idx == 2) {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
                 ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(tmem_base), "r"(kTmemCols)
                 : "memory");
  }
}
