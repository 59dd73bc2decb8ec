// Input of sarif-code-scanning.test: a finding behind non-ASCII text on its
// line, and one with a lifecycle (alloc, release, dealloc, then a load)
// through helpers, whose notes become related locations and a code flow.
__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))),
         "r"(ncols) : "memory");
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}

__device__ __forceinline__ uint32_t tmem_ld1(uint32_t taddr) {
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(taddr) : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return v;
}

__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ __forceinline__ uint32_t quarter_lanes() {
  return ((threadIdx.x / 32) % 4 * 32) << 16;
}

// 96 columns, behind a comment with a 2-byte (ö), a 2-byte (ß) and a 4-byte
// UTF-8 character (U+1F600, two UTF-16 code units) on the same line.
__global__ void odd_columns() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    /* Spaltengröße 😀 */ asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 96;" :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(slot, 128);
}

// The allocating warp frees the columns, then every warp reads them.
__global__ void ld_after_dealloc(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (threadIdx.x / 32 == 1)
    tmem_dealloc(taddr, 64);
  tmem_sync();
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
}
