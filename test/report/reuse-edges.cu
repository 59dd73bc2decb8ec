// RUN: %tmemcheck --checks=-* --report %s | FileCheck %s
// RUN: %tmemcheck --checks=-* --report=json %s | FileCheck %s --check-prefix=JSON
//
// The report's riskiest reuse edge: of all pairs of accesses whose columns
// overlap, the one with the thinnest ordering, riskiest first: operands of
// one mma overlapping, two roles sharing columns, scale factors re-copied
// over columns earlier mmas read (rule S8), overlapping accumulator stages,
// an accumulator stage reused after the epilogue's ld.

__device__ __forceinline__ void alloc512(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 512;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
  __syncthreads();
}

// kind::f16, M = 128, N = 128: D is 128 columns.
__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200490u), "r"(1));
}

__device__ __forceinline__ void mma_ts(uint32_t d, uint32_t a, uint64_t b) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p;\n\t}"
               :: "r"(d), "r"(a), "l"(b), "r"(0x08200490u), "r"(1));
}

// mxf8f6f4, M = 128, N = 128: SFA and SFB 4 columns each.
__device__ __forceinline__ void mma_mx(uint32_t d, uint64_t a, uint64_t b,
                                       uint32_t sfa, uint32_t sfb) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale"
               ".scale_vec::1X [%0], %1, %2, %3, [%4], [%5], p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200000u), "r"(sfa),
                  "r"(sfb), "r"(1));
}

__device__ __forceinline__ void ld8(uint32_t t, uint32_t *r) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, "
               "%5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]),
                 "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
}

__device__ __forceinline__ void st8(uint32_t t, const uint32_t *r) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1, %2, %3, "
               "%4, %5, %6, %7, %8};"
               :: "r"(t), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]),
                  "r"(r[4]), "r"(r[5]), "r"(r[6]), "r"(r[7]));
  asm volatile("tcgen05.wait::st.sync.aligned;");
}

// CHECK-LABEL: kernel 'p_over_s'
// CHECK:      riskiest reuse: columns shared by two roles: columns 0..7 of 'slot', accumulator at [[@LINE+11]]:5 then a-operand at [[@LINE+12]]:5
// CHECK-NEXT: ordered by only the kernel's own pipeline synchronisation (rules §5)
// JSON:       "kernel": "p_over_s",
// JSON:       "riskiest_reuse": {
// JSON-NEXT:    "begin": 0,
// JSON-NEXT:    "earlier": {
__global__ void p_over_s(uint64_t q, uint64_t k, uint64_t v) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    mma(t, q, k);          // S into 0..127
    mma_ts(t + 128, t, v); // P (written over S) read as A from 0..7
  }
}

// CHECK-LABEL: kernel 'sf_refresh'
// CHECK:      riskiest reuse: scale factors re-copied over columns earlier mmas read: columns 256..259 of 'slot', scale-factor-a at [[@LINE+11]]:7 then scale-factor-a at [[@LINE+9]]:21
// CHECK-NEXT: ordered by the issuing thread's tcgen05 pipeline order, mma reads -> cp writes (rule S8: UNCONFIRMED for scale-factor reads)
__global__ void sf_refresh(uint64_t a, uint64_t b, uint64_t sf,
                           uint32_t kblocks) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    for (uint32_t kb = 0; kb < kblocks; ++kb) {
      asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;"
                   :: "r"(t + 256), "l"(sf));
      mma_mx(t, a, b, t + 256, t + 260);
    }
}

// CHECK-LABEL: kernel 'overlapping_stages'
// CHECK:      riskiest reuse: overlapping accumulator stages: columns 64..127 of 'slot', accumulator at [[@LINE+9]]:7 then accumulator at [[@LINE+9]]:7
// CHECK-NEXT: ordered by the accumulator-stage barriers (tmem-empty), rules §5.4
__global__ void overlapping_stages(uint64_t a, uint64_t b, uint32_t tiles) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    for (uint32_t tile = 0; tile < tiles; ++tile)
      // Stage stride 64 < N = 128, as CUTLASS's IsOverlappingAccum.
      mma(t + (tile & 1) * 64, a, b);
}

// CHECK-LABEL: kernel 'stage_reuse'
// CHECK:      riskiest reuse: accumulator stage reused after the epilogue read it: columns 0..127 of 'slot', load at [[@LINE+9]]:3 then accumulator at [[@LINE+7]]:5
// CHECK-NEXT: ordered by tcgen05.wait::ld, then the epilogue's arrive on the stage's empty barrier that the MMA warp waits on (rules §5.2)
__global__ void stage_reuse(uint64_t a, uint64_t b, float *out) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0)
    mma(t, a, b);
  uint32_t r[8];
  ld8(t, r);
  out[threadIdx.x] = __uint_as_float(r[0]);
}

// CHECK-LABEL: kernel 'staging_only'
// CHECK:      staging        columns   8..15
// CHECK:      riskiest reuse: none (no columns are reused by known accesses)
// JSON:       "kernel": "staging_only",
// JSON:       "riskiest_reuse": null
__global__ void staging_only(float *out) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  uint32_t r[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  st8(t + 8, r);
  ld8(t + 8, r);
  out[threadIdx.x] = __uint_as_float(r[0]);
}
