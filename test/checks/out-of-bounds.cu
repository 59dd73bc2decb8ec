// RUN: not %tmemcheck --checks='-*,tmem-out-of-bounds' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-out-of-bounds: an access footprint (rules §3: ld/st shape x .xN,
// mma D width from a constant instruction descriptor) that leaves the
// columns its region was allocated with, when offset, width and size are
// all constants.

__device__ __forceinline__ uint32_t sa(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void alloc64(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 64;" :: "r"(sa(slot)));
}

__global__ void ld_past_the_end(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    alloc64(&slot);
  __syncthreads();
  const uint32_t t = slot;
  uint32_t r[4];
  // 32x32b.x4 at column 62 reads columns 62..65 of a 64-column region.
  // CHECK: out-of-bounds.cu:[[@LINE+2]]:17: error: tcgen05.ld touches columns 62..65 of 'slot', which has 64 columns allocated (rules §3) [tmem-out-of-bounds]
  // CHECK-NEXT: out-of-bounds.cu:[[@LINE-6]]:5: note: 'slot' is allocated here with 64 columns
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(t + 62));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  out[threadIdx.x] = __uint_as_float(r[0] + r[1] + r[2] + r[3]);
}

__global__ void mma_wider_than_allocation(uint64_t a, uint64_t b) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    alloc64(&slot);
  __syncthreads();
  // idesc 0x08200490: M=128, N=128 -> D is 128 columns; only 64 allocated.
  if (threadIdx.x == 0)
    // CHECK: out-of-bounds.cu:[[@LINE+2]]:19: error: tcgen05.mma touches columns 0..127 of 'slot', which has 64 columns allocated (rules §3) [tmem-out-of-bounds]
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(slot), "l"(a), "l"(b), "r"(0x08200490u), "r"(0));
  // CHECK-NEXT: out-of-bounds.cu:[[@LINE-8]]:5: note: 'slot' is allocated here with 64 columns
}

// Must not be flagged: the last columns exactly, an offset that is not a
// constant (a stage index), and a 16x32bx2 access whose halves fit.
__global__ void in_bounds(float *out, int stage) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    alloc64(&slot);
  __syncthreads();
  const uint32_t t = slot;
  uint32_t r[4], s;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(t + 60));
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(s) : "r"(t + stage * 32));
  asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%0, %1}, [%2], 2;"
               : "=r"(r[0]), "=r"(r[1]) : "r"(t + 60));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  out[threadIdx.x] = __uint_as_float(r[0] + r[1] + r[2] + r[3] + s);
}
