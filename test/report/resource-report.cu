// RUN: %tmemcheck --checks=-* --report=json %s | FileCheck %s
// RUN: %tmemcheck --checks=-* --report %s | FileCheck %s --check-prefix=TEXT
//
// --report: per kernel, each allocation with the columns it gets and the
// columns its known accesses reach, the column ranges per role, the peak of
// columns allocated at once, and the readback cost of the epilogue.

__device__ __forceinline__ uint32_t sa(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void two_stage_gemm(uint64_t a, uint64_t b, uint64_t sf,
                               float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 512;" :: "r"(sa(&slot)));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    // Two accumulator stages of N = 128 (idesc 0x08200490: M = 128, N = 128).
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(t), "l"(a), "l"(b), "r"(0x08200490u), "r"(0));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(t + 128), "l"(a), "l"(b), "r"(0x08200490u), "r"(0));
    // Scale factors copied right after the accumulators.
    asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;"
                 :: "r"(t + 256), "l"(sf));
  }
  uint32_t r[8];
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, "
               "%5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]),
                 "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  out[threadIdx.x] = __uint_as_float(r[0] + r[7]);
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 512;"
                 :: "r"(t));
}

// CHECK:      "columns_read_per_thread": 8,
// CHECK:      "kernel": "two_stage_gemm",
// CHECK:      "peak_columns": 512,
// CHECK:      "allocated_columns": 512,
// CHECK:      "name": "slot",
// CHECK:      "begin": 0,
// CHECK-NEXT: "end": 128,
// CHECK-NEXT: "role": "accumulator",
// CHECK:      "begin": 128,
// CHECK-NEXT: "end": 256,
// CHECK-NEXT: "role": "accumulator",
// CHECK:      "begin": 256,
// CHECK-NEXT: "end": 260,
// CHECK-NEXT: "role": "copy",
// CHECK:      "unused_columns": 252,
// CHECK-NEXT: "used_columns": 260
// CHECK:      "tcgen05_ld_instructions": 1

// TEXT: TMEM report for kernel 'two_stage_gemm'
// TEXT-NEXT: region 'slot' allocated at 17:19: 512 columns, 260 used by known accesses, 252 unused
// TEXT-NEXT: accumulator    columns   0..127 (first at 26:19)
// TEXT-NEXT: accumulator    columns 128..255 (first at 29:19)
// TEXT-NEXT: copy           columns 256..259 (first at 32:19)
// TEXT-NEXT: peak columns allocated at once: 512
// TEXT-NEXT: readback: 1 tcgen05.ld instruction(s), 8 column(s) read per thread
