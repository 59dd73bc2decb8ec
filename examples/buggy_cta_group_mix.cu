// buggy_cta_group_mix.cu - cta_group::2 allocation, cta_group::1 MMA.
//
// Rule A12: every tcgen05 instruction of a kernel (alloc, dealloc, relinquish,
// mma, cp, shift, commit) must use the same .cta_group. This kernel was meant
// to become a 2-CTA (CTA pair) GEMM: the allocator warp already uses
// tcgen05.alloc/relinquish/dealloc .cta_group::2, but the MMA issuer still
// issues the 1-CTA form tcgen05.mma.cta_group::1.kind::f16 (and the matching
// commit .cta_group::1).
//
// Expected finding (tmem-cta-group-mismatch, error): kernel 'mixed_cta_group'
// mixes cta_group::1 and cta_group::2; the error points at the first
// cta_group::1 instruction (the tcgen05.mma inside the elect.sync branch) with
// a note at the tcgen05.alloc.cta_group::2, where ::2 is first used.
//
// THIS FILE DOES NOT COMPILE WITH NVCC, on purpose. ptxas enforces the rule per
// kernel (EXP-4) and stops the build with an error that the kernel "uses single
// CTA(.cta_group::1) and CTA pair granularity(.cta_group::2)". It is here
// because that error only arrives at the very end of a long build (and, with
// -rdc, only at device link time by nvlink), while tmemcheck reports it on
// the source line as you type. Clang parses it fine (no tcgen05 validation).
//
// Launch: clusters of 2 CTAs, 128 threads each.

#include <cstdint>

namespace {

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

// SM100 shared-memory matrix descriptor, no swizzle (K-major, 8x8 core
// matrices): start >> 4, LBO >> 4 at bit 16, SBO >> 4 at bit 32, version 1.
__device__ __forceinline__ uint64_t smemDesc(uint32_t saddr, uint32_t lbo,
                                             uint32_t sbo) {
  return static_cast<uint64_t>((saddr & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>((lbo & 0x3FFFF) >> 4) << 16) |
         (static_cast<uint64_t>((sbo & 0x3FFFF) >> 4) << 32) |
         (static_cast<uint64_t>(1) << 46);
}

// kind::f16 instruction descriptor: BF16 x BF16 -> F32, K-major A and B.
constexpr uint32_t kIdesc = (1u << 4)            // D format F32
                            | (1u << 7)          // A format BF16
                            | (1u << 10)         // B format BF16
                            | ((128u >> 3) << 17) // N = 128
                            | ((128u >> 4) << 24); // M = 128

} // namespace

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
mixed_cta_group(float *__restrict__ out) {
  __shared__ alignas(1024) uint16_t smem_a[128 * 16];
  __shared__ alignas(1024) uint16_t smem_b[128 * 16];
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;

  const uint32_t warp_idx = threadIdx.x / 32;

  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;"
                 :: "r"(smemAddr(&mma_done)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  // Both CTAs of the pair are running before the paired alloc (rule A6).
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  if (warp_idx == 0) {
    // cta_group::2: the pair allocates 128 columns in each CTA.
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(smemAddr(&tmem_slot)), "r"(128u)
                 : "memory");
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t tmem_acc = tmem_slot;

  if (warp_idx == 1 && electOne()) {
    const uint64_t adesc = smemDesc(smemAddr(smem_a), 128, 256);
    const uint64_t bdesc = smemDesc(smemAddr(smem_b), 128, 256);
    // BUG: cta_group::1 in a kernel that allocated with cta_group::2.
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(tmem_acc), "l"(adesc), "l"(bdesc), "r"(kIdesc), "r"(0)
                 : "memory");
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
                 ".shared::cluster.b64 [%0];"
                 :: "r"(smemAddr(&mma_done)) : "memory");
  }

  // Everyone waits for the accumulator, then reads its lane quarter.
  asm volatile("{\n\t.reg .pred done;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra WAIT_%=;\n\t}"
               :: "r"(smemAddr(&mma_done)), "r"(0) : "memory");
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(tmem_acc + ((warp_idx * 32) << 16)) : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  out[blockIdx.x * 128 + threadIdx.x] = __uint_as_float(v);

  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
               "barrier.cluster.wait.acquire.aligned;" ::: "memory");
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp_idx == 0) {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;"
                 ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;"
                 :: "r"(tmem_acc), "r"(128u) : "memory");
  }
}
