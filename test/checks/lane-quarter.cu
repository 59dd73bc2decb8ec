// RUN: not %tmemcheck --checks='-*,tmem-lane-quarter' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-lane-quarter: warp w may tcgen05.ld/st only lanes 32*(w%4) ..
// 32*(w%4)+31 (rule M6). Judged only when the warp (from comparisons of
// threadIdx.x / 32 with constants) and the lane offset are both constants.

__device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
  __syncthreads();
}

__global__ void wrong_quarter(float *out) {
  const uint32_t warp_idx = threadIdx.x / 32;
  __shared__ uint32_t slot;
  tmem_alloc(&slot);
  const uint32_t t = slot;
  uint32_t r = 0;
  if (warp_idx == 5) {
    // Warp 5 is in quarter 1 (lanes 32..63), not lanes 0..31.
    // CHECK: lane-quarter.cu:[[@LINE+1]]:19: error: tcgen05.ld of warp 5 touches lanes 0..31, but a warp may only access the lanes of its quarter, 32..63 for warp 5 (rule M6) [tmem-lane-quarter]
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(r) : "r"(t));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = __uint_as_float(r);
  }
  if (warp_idx == 2) {
    // A 16-lane shape from lane 88: crosses from quarter 2 into quarter 3.
    // CHECK: lane-quarter.cu:[[@LINE+1]]:19: error: tcgen05.st of warp 2 touches lanes 88..103, but a warp may only access the lanes of its quarter, 64..95 for warp 2 (rule M6) [tmem-lane-quarter]
    asm volatile("tcgen05.st.sync.aligned.16x64b.x1.b32 [%0], {%1};"
                 :: "r"(t + (88u << 16)), "r"(r));
    asm volatile("tcgen05.wait::st.sync.aligned;");
  }
}

// Must not be flagged: each warp of a warpgroup loads its own quarter with
// (warp_idx % 4) * 32 << 16 (not a constant: not judged), a constant quarter
// that matches the warp, the upper 16 lanes of the quarter, and warps that
// are not pinned to one index.
__global__ void right_quarter(float *out) {
  const uint32_t warp_idx = threadIdx.x / 32;
  __shared__ uint32_t slot;
  tmem_alloc(&slot);
  const uint32_t t = slot;
  uint32_t r = 0;
  if (warp_idx >= 4 && warp_idx < 8)
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(r) : "r"(t + (((warp_idx % 4) * 32) << 16)));
  if (warp_idx == 6)
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(r) : "r"(t + (64u << 16)));
  if (warp_idx == 3)
    asm volatile("tcgen05.ld.sync.aligned.16x64b.x1.b32 {%0}, [%1];"
                 : "=r"(r) : "r"(t + (112u << 16)));
  if (warp_idx < 4)
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(r) : "r"(t));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  out[threadIdx.x] = __uint_as_float(r);
}
