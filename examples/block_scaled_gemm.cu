// block_scaled_gemm.cu - a clean, warp-specialized MXFP8 block-scaled GEMM for sm_100a.
//
// D[M x N] (fp32, row-major) = (A * SFA)[M x K] * (B * SFB)[N x K]^T with A and
// B in FP8 E4M3 (both K-major) and one UE8M0 scale factor per 32 elements of K
// (tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X, rules S1).
// Persistent CTAs of 256 threads walk 128x128 output tiles; K is consumed in
// 128-wide k-blocks through a kNumStages-deep shared-memory ring that holds
// the A and B tiles and their scale factors.
//
//   warp 0     producer: one lane bulk-copies the pre-packed A/B k-blocks and
//              their scale-factor tiles into the smem ring.
//   warp 1     MMA issuer: per k-block one elected lane copies SFA and SFB
//              from smem into TMEM (tcgen05.cp.32x128b.warpx4: 32 rows
//              replicated into all four lane quarters, rules S2/S4), issues
//              four tcgen05.mma (K = 32 each; the SF_ID fields of the
//              instruction descriptor pick the scale-factor byte, rules S3)
//              and commits; after the last k-block it commits to
//              tmem_full[acc].
//   warp 2     TMEM allocator: 512 columns, freed at the very end.
//   warp 3     idle.
//   warps 4-7  epilogue: as in warp_specialized_gemm.cu.
//
// TMEM plan (the common layout, rules S5): accumulator stages first, the
// scale factors right after them, rounded up to a legal allocation:
//
//   columns   0..127  accumulator stage 0     (M = 128 lanes x N = 128)
//   columns 128..255  accumulator stage 1
//   columns 256..259  SFA (M / 32 = 4 columns, all 128 lanes)
//   columns 260..263  SFB (N / 32 = 4 columns)
//   columns 264..511  unused (264 is not a power of two: 512 allocated)
//
// `tmemcheck --report=html` draws this plan (docs/report.md).
// Expected findings: none (including the strict checks).
//
// Data layout contract: every 128x128 fp8 k-block of A and of B is pre-packed
// into 16 KiB of no-swizzle K-major core matrices, [row/8][k/16][8 rows][16
// bytes]; the scale factors of a k-block are 128 rows x 4 bytes (one UE8M0
// byte per 32 K elements), packed as the 32 x 16-byte source that
// tcgen05.cp.32x128b replicates: byte 4g + j of source row r is SF j of
// row 32g + r (column g, lane r of the SF region).
//
// Launch: grid = min(#tiles, #SMs), block = 256 threads,
//         dynamic shared memory = kSmemBytes (opt in with cudaFuncSetAttribute).

#include <cstdint>

namespace {

constexpr uint32_t kBlockM = 128;
constexpr uint32_t kBlockN = 128;
constexpr uint32_t kBlockK = 128;  // fp8: 128 bytes of K per row
constexpr uint32_t kUmmaK = 32;    // K of one kind::mxf8f6f4 MMA
constexpr uint32_t kSfVec = 32;    // K elements per scale factor (1X)
constexpr uint32_t kNumStages = 4; // smem ring depth
constexpr uint32_t kNumAccStages = 2;
constexpr uint32_t kTileBytesA = kBlockM * kBlockK; // 16 KiB
constexpr uint32_t kTileBytesB = kBlockN * kBlockK; // 16 KiB
constexpr uint32_t kSfBytesA = kBlockM * (kBlockK / kSfVec); // 512 B
constexpr uint32_t kSfBytesB = kBlockN * (kBlockK / kSfVec); // 512 B
constexpr uint32_t kStageBytes =
    kTileBytesA + kTileBytesB + kSfBytesA + kSfBytesB;
constexpr uint32_t kNumEpilogueThreads = 128;
constexpr uint32_t kSmemBytes = kNumStages * kStageBytes;
static_assert(kSmemBytes <= 227 * 1024, "smem ring exceeds the sm_100 limit");

// TMEM plan: accumulator stages, then SFA and SFB (columns).
constexpr uint32_t kTmemColSfa = kNumAccStages * kBlockN;  // 256
constexpr uint32_t kTmemColSfb = kTmemColSfa + kBlockM / 32; // 260
constexpr uint32_t kTmemColsUsed = kTmemColSfb + kBlockN / 32; // 264
constexpr uint32_t kTmemCols = 512; // next legal allocation size
static_assert(kTmemColsUsed <= kTmemCols, "TMEM plan exceeds the allocation");

// kind::mxf8f6f4 instruction descriptor (PTX ISA "Instruction descriptor"
// for .block_scale): A and B E4M3 (format 0), K-major, N >> 3 in bits
// 17-22, UE8M0 scale factors (bit 23), M >> 7 in bits 27-28; the SF_ID of B
// (bits 4-5) and of A (bits 29-30) are added per MMA.
constexpr uint32_t kIdesc = ((kBlockN >> 3) << 17) // N
                            | (1u << 23)           // scale type: UE8M0
                            | ((kBlockM >> 7) << 27); // M

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
__device__ __forceinline__ uint64_t smemDesc(uint32_t saddr, uint32_t sbo) {
  constexpr uint64_t kLbo = 128; // 8 rows x 16 bytes
  return static_cast<uint64_t>((saddr & 0x3FFFF) >> 4) | ((kLbo >> 4) << 16) |
         ((uint64_t{sbo} >> 4) << 32) | (uint64_t{1} << 46);
}

// One MMA of K = 32 scaled by the byte kSfId of each 32-bit SF cell.
template <uint32_t kSfId>
__device__ __forceinline__ void mmaMxf8(uint32_t d_tmem, uint64_t adesc,
                                        uint64_t bdesc, uint32_t sfa_tmem,
                                        uint32_t sfb_tmem,
                                        uint32_t accumulate) {
  constexpr uint32_t idesc = kIdesc | (kSfId << 29) | (kSfId << 4);
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.b32 p, %6, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale"
               ".scale_vec::1X [%0], %1, %2, %3, [%4], [%5], p;\n\t}"
               :: "r"(d_tmem), "l"(adesc), "l"(bdesc), "r"(idesc),
                  "r"(sfa_tmem), "r"(sfb_tmem), "r"(accumulate)
               : "memory");
}

// 32 rows x 128 bits from smem, replicated into all four lane quarters:
// 4 columns x 128 lanes of scale factors.
__device__ __forceinline__ void copySf(uint32_t tmem, uint64_t sdesc) {
  asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;"
               :: "r"(tmem), "l"(sdesc) : "memory");
}

__device__ __forceinline__ void commitTo(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];"
               :: "r"(smemAddr(bar)) : "memory");
}

} // namespace

__global__ void __launch_bounds__(256, 1)
block_scaled_gemm_mxf8(const uint8_t *__restrict__ a_packed,
                       const uint8_t *__restrict__ b_packed,
                       const uint8_t *__restrict__ sfa_packed,
                       const uint8_t *__restrict__ sfb_packed,
                       float *__restrict__ d, uint32_t m, uint32_t n,
                       uint32_t k) {
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
          uint8_t *ssfa = sb + kTileBytesB;
          uint8_t *ssfb = ssfa + kSfBytesA;
          const size_t a_blk = size_t(m_blk) * num_k_blocks + kb;
          const size_t b_blk = size_t(n_blk) * num_k_blocks + kb;
          mbarArriveExpectTx(&full_bar[stage], kStageBytes);
          bulkCopyG2S(sa, a_packed + a_blk * kTileBytesA, kTileBytesA,
                      &full_bar[stage]);
          bulkCopyG2S(sb, b_packed + b_blk * kTileBytesB, kTileBytesB,
                      &full_bar[stage]);
          bulkCopyG2S(ssfa, sfa_packed + a_blk * kSfBytesA, kSfBytesA,
                      &full_bar[stage]);
          bulkCopyG2S(ssfb, sfb_packed + b_blk * kSfBytesB, kSfBytesB,
                      &full_bar[stage]);
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
    const uint32_t sfa_tmem = tmem_base + kTmemColSfa;
    const uint32_t sfb_tmem = tmem_base + kTmemColSfb;
    static_assert(kBlockK / kUmmaK == 4, "one MMA per SF byte");
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
          const uint32_t ssfa = sb + kTileBytesB;
          const uint32_t ssfb = ssfa + kSfBytesA;
          // Scale factors of this k-block into their fixed TMEM columns; the
          // MMAs below are ordered after the copies by the tcgen05 pipeline
          // of this thread (cp -> mma, rules S8).
          copySf(sfa_tmem, smemDesc(ssfa, 128));
          copySf(sfb_tmem, smemDesc(ssfb, 128));
          // K = 32 fp8 = two core matrices = 256 bytes further along K.
          constexpr uint32_t kSbo = (kBlockK / 16) * 128; // next 8-row group
          const uint32_t first = kb == 0 ? 0u : 1u;
          mmaMxf8<0>(d_tmem, smemDesc(sa, kSbo), smemDesc(sb, kSbo), sfa_tmem,
                     sfb_tmem, first);
          mmaMxf8<1>(d_tmem, smemDesc(sa + 256, kSbo), smemDesc(sb + 256, kSbo),
                     sfa_tmem, sfb_tmem, 1);
          mmaMxf8<2>(d_tmem, smemDesc(sa + 512, kSbo), smemDesc(sb + 512, kSbo),
                     sfa_tmem, sfb_tmem, 1);
          mmaMxf8<3>(d_tmem, smemDesc(sa + 768, kSbo), smemDesc(sb + 768, kSbo),
                     sfa_tmem, sfb_tmem, 1);
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

      mbarWait(&tmem_full[acc], acc_phase);
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
