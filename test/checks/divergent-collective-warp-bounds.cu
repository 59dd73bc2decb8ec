// RUN: %tmemcheck %s 2>&1 | count 0
// RUN: %if cuda %{ %tmemcheck-cuda %s -- -DWITH_CUDA_MIN 2>&1 | count 0 %}
//
// Must not be flagged by tmem-divergent-collective: conditions on the
// thread index that select whole warps of a 1-D block, written the way
// hand-written decode kernels write them. The thread index is read once
// into a local (`const int tid = threadIdx.x`); the bound is a constant
// multiple of 32, or a uniform count times a multiple of 32 (rows per
// query times 32 heads), possibly through min() (CUDA's integer min ends in
// a libdevice declaration without a body; the stub headers have no min).

#ifdef WITH_CUDA_MIN
#define SMALLER(a, b) min(a, b)
#else
__device__ __forceinline__ int smaller(int a, int b) { return a < b ? a : b; }
#define SMALLER(a, b) smaller(a, b)
#endif

constexpr int kThreads = 128;
constexpr int kHeadsPerQuery = 32;

__device__ __forceinline__ uint32_t to_smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void rows_to_global(uint32_t taddr, float *dst) {
  float v[2];
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
               : "=f"(v[0]), "=f"(v[1]) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  dst[0] = v[0];
  dst[1] = v[1];
}

__global__ void __launch_bounds__(256)
decode_rows(int queries, int query_tiles, float *out) {
  __shared__ uint32_t tmem_base;
  const int tid = threadIdx.x;
  // Extra threads of a larger launch leave before any TMEM work: whole
  // warps, since 128 is a multiple of 32.
  if (tid >= kThreads)
    return;
  const int warp = tid / 32;
  const bool active = tid < kThreads;

  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(to_smem(&tmem_base)) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  asm volatile("bar.sync 1, 128;" ::: "memory");
  asm volatile("tcgen05.fence::after_thread_sync;");
  const uint32_t base = tmem_base;
  const uint32_t lanes = static_cast<uint32_t>(warp * 32) << 16;

  if (active)
    rows_to_global(base + lanes, out + 2 * tid);

  // Rows of the queries this CTA holds: a multiple of 32 whatever the count.
  const int held = SMALLER(queries, query_tiles * 2);
  const int valid_rows = held * kHeadsPerQuery;
  if (tid < valid_rows)
    rows_to_global(base + lanes + 2, out + 2 * (kThreads + tid));
  if (tid >= (query_tiles << 5))
    rows_to_global(base + lanes + 4, out + 2 * (2 * kThreads + tid));

  asm volatile("tcgen05.fence::before_thread_sync;");
  asm volatile("bar.sync 1, 128;" ::: "memory");
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(base));
}
