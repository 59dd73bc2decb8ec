#!/usr/bin/env python3
"""Writes a CUDA translation unit with N tcgen05 kernels for benchmarking.

Each kernel has the shape of a small warp-specialized GEMM tile: warp 0
allocates and publishes TMEM (128 to 512 columns, enough for the 128-column
accumulator), an elected thread of warp 1 issues MMAs and a commit, four
epilogue warps load their lane quarter and wait, warp 0 frees. The kernels
are correct: tmemcheck reports nothing, as on a clean code base.
The helpers are shared, so the analysis inlines them into every kernel.
Usage: gen_kernels.py N > out.cu
"""
import sys

HEADER = r'''#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], %1;" :: "r"(smem_u32(slot)), "r"(ncols) : "memory");
}
__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}
__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(pred));
  return pred != 0;
}
__device__ __forceinline__ void mma_f16(uint32_t d, uint64_t a, uint64_t b,
                                        uint32_t idesc, uint32_t acc) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(acc));
}
__device__ __forceinline__ void commit(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];" :: "r"(smem_u32(bar)) : "memory");
}
__device__ __forceinline__ void wait_parity(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n\t.reg .pred done;\n\tWAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra WAIT;\n\t}" :: "r"(smem_u32(bar)), "r"(phase)
               : "memory");
}
'''

KERNEL = r'''
__global__ void __launch_bounds__(256) kernel_{i}(float *out, uint64_t a,
                                                 uint64_t b, int k_iters) {{
  __shared__ uint32_t tmem_slot;
  __shared__ alignas(8) uint64_t full_bar;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {{
    tmem_alloc(&tmem_slot, {cols});
    tmem_relinquish();
  }}
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const uint32_t taddr = tmem_slot;
  if (warp == 1) {{
    if (elect_one()) {{
      for (int k = 0; k < k_iters; ++k)
        mma_f16(taddr, a + k, b + k, 0x08200490u, k > 0);
      commit(&full_bar);
    }}
  }} else if (warp >= 4) {{
    wait_parity(&full_bar, 0);
    asm volatile("tcgen05.fence::after_thread_sync;");
    uint32_t r0, r1;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {{%0, %1}}, [%2];"
                 : "=r"(r0), "=r"(r1)
                 : "r"(taddr + (((warp % 4) * 32) << 16)));
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    out[blockIdx.x * 256 + threadIdx.x] = __uint_as_float(r0 + r1) + {i};
  }}
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(taddr, {cols});
}}
'''


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    sys.stdout.write(HEADER)
    for i in range(n):
        sys.stdout.write(KERNEL.format(i=i, cols=(128, 256, 512, 128)[i % 4]))


if __name__ == "__main__":
    main()
