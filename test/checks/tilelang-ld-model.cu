// RUN: not %tmemcheck --checks='-*,tmem-accumulator-read-before-commit,tmem-missing-wait-ld' %s 2>/dev/null | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-accumulator-read-before-commit,tmem-missing-wait-ld' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR
//
// TileLang's tcgen05.ld wrappers, tl::tcgen05_ld_<D>dp<B>bNx<N, pack16>(
// start, offset, dst), are modelled by name: their body calls a dependent
// member template without `template`, which nvcc accepts and Clang rejects
// (the file then has a compile error, hence exit 2), so the ld inside is
// never seen. The model is a tcgen05.ld of N repeats at start + offset
// followed by tcgen05.wait::ld, as the wrapper's body does.
// ERR: tilelang-ld-model.cu:{{[0-9]+}}:{{[0-9]+}}: error: missing 'template' keyword
// ERR-NEXT: tmemcheck: error: {{.*}}tilelang-ld-model.cu: 1 compile error(s), results may be incomplete

namespace tl {
struct ld_32x32b {
  template <int N>
  static __device__ void copy(uint32_t const &taddr, uint32_t *dst) {
    static_assert(N == 4, "this test only issues .x4");
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(dst[0]), "=r"(dst[1]), "=r"(dst[2]), "=r"(dst[3])
                 : "r"(taddr));
  }
};

template <typename Op, int N>
__device__ __forceinline__ void issue(uint32_t const &taddr, uint32_t *dst) {
  Op::copy<N>(taddr, dst); // no `template`: Clang rejects, nvcc accepts
}

template <int N, bool pack16, typename T>
__device__ __forceinline__ void tcgen05_ld_32dp32bNx(uint32_t const &start,
                                                     uint32_t const &offset,
                                                     T *dst) {
  issue<ld_32x32b, N>(start + offset, reinterpret_cast<uint32_t *>(dst));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}
} // namespace tl

__device__ __forceinline__ bool one_lane() {
  uint32_t is_leader = 0;
  asm volatile("{\n\t.reg .pred q;\n\telect.sync _|q, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, q;\n\t}" : "=r"(is_leader));
  return is_leader != 0;
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64.
constexpr uint32_t kIdesc =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

template <bool kWaitForMma>
__global__ void __launch_bounds__(128) tile(uint64_t adesc, uint64_t bdesc,
                                            float *out) {
  __shared__ uint32_t C_tmem[1];
  __shared__ uint64_t mma_done;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&mma_done))));
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(C_tmem))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  if (warp == 0 && one_lane()) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(C_tmem[0]), "l"(adesc), "l"(bdesc), "r"(kIdesc), "r"(0));
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&mma_done))) : "memory");
  }
  if (kWaitForMma) {
    asm volatile("{\n\t.reg .pred ok;\n\tW_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 ok, [%0], 0;\n\t"
                 "@!ok bra W_%=;\n\t}"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&mma_done))) : "memory");
    asm volatile("tcgen05.fence::after_thread_sync;");
  }
  uint32_t C_local[4];
  const uint32_t lanes = static_cast<uint32_t>(warp * 32) << 16;
  // CHECK: tilelang-ld-model.cu:[[@LINE+2]]:3: error: tcgen05.ld reads the accumulator in 'C_tmem[0]' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
  // CHECK-NEXT: tilelang-ld-model.cu:[[@LINE-15]]:19: note: the mma writing it; the commits that track it arrive on mbarriers this path does not wait on
  tl::tcgen05_ld_32dp32bNx<4, false>(C_tmem[0] + lanes, 8, &C_local[0]);
  out[threadIdx.x] = __uint_as_float(C_local[0]);
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" :: "r"(C_tmem[0]));
}

// The epilogue that waits is silent; the one that does not is reported.
template __global__ void tile<true>(uint64_t, uint64_t, float *);
template __global__ void tile<false>(uint64_t, uint64_t, float *);
