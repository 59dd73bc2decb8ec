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
// CHECK:      "tcgen05_ld_instructions": 1,
// CHECK-NEXT: "tcgen05_ld_per_tile": 1

// TEXT: TMEM report for kernel 'two_stage_gemm'
// TEXT-NEXT: region 'slot' allocated at 17:19: 512 columns, 260 used by known accesses, 252 unused
// TEXT-NEXT: accumulator    columns   0..127 (first at 26:19)
// TEXT-NEXT: accumulator    columns 128..255 (first at 29:19)
// TEXT-NEXT: copy           columns 256..259 (first at 32:19)
// TEXT-NEXT: peak columns allocated at once: 512
// TEXT-NEXT: readback: 1 tcgen05.ld instruction(s), 1 run(s) and 8 column(s) read per thread per tile

// The readback per tile multiplies each tcgen05.ld by the constant trip
// counts of the `for` loops around it (through inlined helpers); the tile
// loop, whose count is not a constant, counts once.
// RUN: %tmemcheck --checks=-* --report %s | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: TMEM report for kernel 'epilogue_loops'
// LOOPS:       readback: 2 tcgen05.ld instruction(s), 10 run(s) and 320 column(s) read per thread per tile
__device__ __forceinline__ void ld32(uint32_t t, uint32_t *r) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, "
               "%5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, "
               "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
               "%30, %31}, [%32];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]),
                 "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8]), "=r"(r[9]),
                 "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]),
                 "=r"(r[14]), "=r"(r[15]), "=r"(r[16]), "=r"(r[17]),
                 "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]),
                 "=r"(r[22]), "=r"(r[23]), "=r"(r[24]), "=r"(r[25]),
                 "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]),
                 "=r"(r[30]), "=r"(r[31])
               : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
}

__global__ void epilogue_loops(float *out, uint32_t tiles) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 512;" :: "r"(sa(&slot)));
  __syncthreads();
  const uint32_t t = slot;
  uint32_t r[32];
  for (uint32_t tile = 0; tile < tiles; ++tile) {
    // 128 columns: 4 loads of 32.
    for (uint32_t col = 0; col < 128; col += 32)
      ld32(t + col, r);
    // 2 x 3 more loads of 32 columns: 10 loads, 320 columns in all.
    for (int i = 0; i <= 1; ++i)
      for (uint32_t j = 0; j != 96; j += 32)
        ld32(t + 256 + j, r);
    out[threadIdx.x] = __uint_as_float(r[0]);
  }
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 512;"
                 :: "r"(t));
}

// Kernels that never touch TMEM (fill kernels, reference GEMMs) are left
// out of the report.
// RUN: %tmemcheck --checks=-* --report %s | FileCheck %s --check-prefix=NOTMEM
// NOTMEM-NOT: kernel 'no_tmem_fill'
__global__ void no_tmem_fill(float *out) { out[threadIdx.x] = 1.0f; }
