// RUN: not %tmemcheck --checks='-*,tmem-layout-overlap' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-layout-overlap: the scale-factor columns of a block-scaled mma
// (M/32 for [sfa], N/32 for [sfb], rules S4) must not overlap columns an mma
// accumulates into (rule S7). idesc 0x08200000: kind::mxf8f6f4, M = 128,
// N = 128, so D is 128 columns and each scale-factor matrix 4 columns.

__device__ __forceinline__ void mma_mx(uint32_t d, uint64_t a, uint64_t b,
                                       uint32_t sfa, uint32_t sfb) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale"
               ".scale_vec::1X [%0], %1, %2, %3, [%4], [%5], p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200000u), "r"(sfa),
                  "r"(sfb), "r"(1));
}

__device__ __forceinline__ uint32_t alloc512(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 512;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
  __syncthreads();
  return 0;
}

// Seeded: SFA placed inside accumulator stage 1 (columns 128..255).
__global__ void sfa_in_stage1(uint64_t a, uint64_t b) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    // CHECK: layout-overlap.cu:[[@LINE+3]]:5: error: the scale factors of A (columns 160..163) overlap the accumulator columns 128..255 that a tcgen05.mma writes (rule S7) [tmem-layout-overlap]
    // CHECK-NEXT: layout-overlap.cu:11:17: note: 'tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X' is issued here, inside 'mma_mx'
    // CHECK-NEXT: layout-overlap.cu:[[@LINE+2]]:5: note: the mma accumulating there
    mma_mx(t, a, b, t + 160, t + 264);
    mma_mx(t + 128, a, b, t + 256, t + 264);
    // (both mmas read the same SFB columns 264..267: fine)
  }
}

// Seeded: SFB inside the mma's own accumulator.
__global__ void sfb_in_own_accumulator(uint64_t a, uint64_t b) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    // CHECK: layout-overlap.cu:[[@LINE+3]]:5: error: the scale factors of B (columns 64..67) overlap the accumulator columns 0..127 that a tcgen05.mma writes (rule S7) [tmem-layout-overlap]
    // CHECK-NEXT: layout-overlap.cu:11:17: note: 'tcgen05.mma
    // CHECK-NEXT: layout-overlap.cu:[[@LINE+1]]:5: note: this mma's own accumulator
    mma_mx(t, a, b, t + 256, t + 64);
}

// Must not be flagged: two accumulator stages first, SFA and SFB right
// after them (the CUTLASS/DeepGEMM layout), and a stage index that is not a
// constant.
__global__ void common_layout(uint64_t a, uint64_t b, int stage) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    mma_mx(t, a, b, t + 256, t + 260);
    mma_mx(t + 128, a, b, t + 256, t + 260);
    mma_mx(t + stage * 128, a, b, t + 264, t + 268);
  }
}

__device__ __forceinline__ void cp_sf(uint32_t t, uint64_t desc) {
  asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;"
               :: "r"(t), "l"(desc));
}

// kind::f16 with A from TMEM (idesc 0x08200490: M = 128, N = 128).
__device__ __forceinline__ void mma_ts(uint32_t d, uint32_t a, uint64_t b) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p;\n\t}"
               :: "r"(d), "r"(a), "l"(b), "r"(0x08200490u), "r"(1));
}

// Seeded: the stage index is `tile % 2`, so D is columns 0..127 or
// 128..255, and SFA sits inside stage 1. Reported once, at the first of the
// four mmas of the k-block, with the tcgen05.cp filling SFA as a note.
__global__ void sfa_in_stage_of_tile(uint64_t a, uint64_t b, uint64_t sf,
                                     uint32_t tiles) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    for (uint32_t tile = 0; tile < tiles; ++tile) {
      const uint32_t d = t + (tile % 2) * 128;
      cp_sf(t + 192, sf);
      cp_sf(t + 256, sf);
      // CHECK: layout-overlap.cu:[[@LINE+4]]:7: error: the scale factors of A (columns 192..195) overlap the accumulator columns 128..255 (stage 1 of 2) that a tcgen05.mma writes (rule S7) [tmem-layout-overlap]
      // CHECK-NEXT: layout-overlap.cu:11:17: note: 'tcgen05.mma
      // CHECK-NEXT: layout-overlap.cu:[[@LINE+2]]:7: note: this mma's own accumulator
      // CHECK-NEXT: layout-overlap.cu:[[@LINE-5]]:7: note: scale factors are written into columns 192..195 here
      mma_mx(d, a, b, t + 192, t + 256);
      mma_mx(d, a + 2, b + 2, t + 192, t + 256);
      mma_mx(d, a + 4, b + 4, t + 192, t + 256);
    }
}

// Seeded: a scale-factor copy of 4 columns at 126 spills into the
// accumulator (0..127); the mma reads SFA at 128..131, which D does not
// reach, so only the copy overlaps.
__global__ void sf_copy_spills_into_accumulator(uint64_t a, uint64_t b,
                                                uint64_t sf) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    // CHECK: layout-overlap.cu:[[@LINE+3]]:5: error: tcgen05.cp writes scale factors of A into columns 126..129, which overlap the accumulator columns 0..127 that a tcgen05.mma writes (rule S7) [tmem-layout-overlap]
    // CHECK-NEXT: layout-overlap.cu:{{[0-9]+}}:17: note: 'tcgen05.cp.cta_group::1.32x128b.warpx4' is issued here, inside 'cp_sf'
    // CHECK-NEXT: layout-overlap.cu:[[@LINE+2]]:5: note: the mma accumulating there
    cp_sf(t + 126, sf);
    mma_mx(t, a, b, t + 128, t + 256);
  }
}

// Seeded: an mma whose A operand, read from TMEM, lies in its own D.
__global__ void a_operand_in_own_accumulator(uint64_t b) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    // CHECK: layout-overlap.cu:[[@LINE+3]]:5: error: the A operand (columns 64..71) overlaps the accumulator columns 0..127 that a tcgen05.mma writes (rule S7) [tmem-layout-overlap]
    // CHECK-NEXT: layout-overlap.cu:{{[0-9]+}}:17: note: 'tcgen05.mma
    // CHECK-NEXT: layout-overlap.cu:[[@LINE+1]]:5: note: this mma's own accumulator
    mma_ts(t, t + 64, b);
}

// Must not be flagged: the attention pattern, where P is written over the
// columns of the S accumulator and read as the A operand of the next mma
// (ordered by the kernel's pipeline, not an operand overlap of one mma).
__global__ void p_over_s(uint64_t q, uint64_t k, uint64_t v) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    mma_mx(t, q, k, t + 384, t + 388);  // S = Q K^T into 0..127
    mma_ts(t + 128, t, v);              // O += P V, P read from 0..7
  }
}

// Must not be flagged: CUTLASS-style overlapping accumulator stages
// (stage stride 64 < N = 128) with the scale factors after both; stage
// indices that are `tile & 1` or a conditional.
__global__ void overlapping_stages_sf_after(uint64_t a, uint64_t b,
                                           uint64_t sf, uint32_t tiles) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    for (uint32_t tile = 0; tile < tiles; ++tile) {
      cp_sf(t + 192, sf);
      cp_sf(t + 196, sf);
      mma_mx(t + (tile & 1) * 64, a, b, t + 192, t + 196);
      mma_mx(tile > 3 ? t + 64 : t, a, b, t + 192, t + 196);
    }
}
