// RUN: %tmemcheck --require-complete=false --checks='-*,tmem-divergent-collective' %s 2>&1 | count 0
//
// Must not be flagged (the DeepGEMM role chain): the lanes an election
// leaves out of `if (warp_idx == 0 && elect_one())` fall through to the
// later role tests, which warp 0 fails, so they never reach the epilogue's
// warp-collective tcgen05.wait::ld. Also in a template pattern, where the
// epilogue bound depends on a template parameter, and inside loops.

__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(pred));
  return pred != 0;
}

template <uint32_t kNumNonEpilogueThreads, uint32_t kNumEpilogueThreads>
__global__ void roles(uint32_t t, float *out, int n) {
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0 && elect_one()) {
    out[0] = 1.0f;
  } else if (warp_idx == 1) {
    out[1] = 2.0f;
  } else if (warp_idx >= kNumNonEpilogueThreads / 32 &&
             warp_idx < (kNumNonEpilogueThreads + kNumEpilogueThreads) / 32) {
    for (int i = 0; i < n; ++i) {
      uint32_t r;
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                   : "=r"(r) : "r"(t + i));
      asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
      out[threadIdx.x] = __uint_as_float(r);
    }
  }
}

template __global__ void roles<128, 128>(uint32_t, float *, int);

template <uint32_t kNonEpi>
__global__ void roles_pattern(uint32_t t, float *out) {
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0 && elect_one()) {
    out[0] = 1.0f;
  } else if (warp_idx >= kNonEpi / 32) {
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  }
}
