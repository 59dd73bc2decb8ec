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
