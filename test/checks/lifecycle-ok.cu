// RUN: %tmemcheck %s 2>&1 | count 0
//
// Correct kernels for the lifecycle checks (tmem-leak, tmem-double-dealloc,
// tmem-dealloc-unallocated, tmem-dealloc-mismatch, tmem-use-after-dealloc,
// tmem-alloc-after-relinquish, tmem-missing-relinquish): alloc, relinquish
// and dealloc in the shapes real kernels use. No default check may report
// anything, and the exit status is 0. The bug shapes, and the correct kernels
// specific to one check, are in that check's file; production-shaped GEMM
// kernels are in lifecycle-negative.cu.

// Helpers, as CUTLASS/DeepGEMM-style code wraps the raw PTX.
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

__device__ __forceinline__ void tmem_st1(uint32_t taddr, uint32_t v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};"
               :: "r"(taddr), "r"(v) : "memory");
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// Fenced CTA barrier: orders tcgen05 work across the threads of the CTA.
__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// Lane offset of the issuing warp's 32-lane quarter (rule M6).
__device__ __forceinline__ uint32_t quarter_lanes() {
  return ((threadIdx.x / 32) % 4 * 32) << 16;
}

// Alloc and dealloc in different helper functions.
__device__ void setup_tmem(uint32_t *slot) {
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
}

__device__ void teardown_tmem(const uint32_t *slot) {
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(*slot, 64);
}

__global__ void ok_helper_functions(float *out) {
  __shared__ uint32_t slot;
  setup_tmem(&slot);
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  teardown_tmem(&slot);
}

// RAII: the destructor frees what the constructor allocated.
struct TmemAllocation {
  uint32_t *slot_;
  __device__ explicit TmemAllocation(uint32_t *slot) : slot_(slot) {
    if (threadIdx.x / 32 == 0) {
      tmem_alloc(slot_, 256);
      tmem_relinquish();
    }
    tmem_sync();
  }
  __device__ uint32_t base() const { return *slot_; }
  __device__ ~TmemAllocation() {
    tmem_sync();
    if (threadIdx.x / 32 == 0)
      tmem_dealloc(*slot_, 256);
  }
};

__global__ void ok_raii(float *out) {
  __shared__ uint32_t slot;
  TmemAllocation tmem(&slot);
  uint32_t taddr = tmem.base();
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
}

// The destructor also runs on an early return after the allocation.
__global__ void ok_raii_early_return(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  TmemAllocation tmem(&slot);
  if (blockIdx.x >= num_tiles)
    return;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(tmem.base() + quarter_lanes()));
}

// Column count from a template parameter (a legal power of two).
template <uint32_t kCols> __global__ void ok_template_cols(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, kCols);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, kCols);
}
template __global__ void ok_template_cols<64>(float *);
template __global__ void ok_template_cols<512>(float *);

// Persistent kernel: one allocation serves every tile of the CTA.
__global__ void ok_persistent(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 256);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    tmem_st1(taddr + quarter_lanes() + (tile % 2) * 128, tile);
    out[tile * blockDim.x + threadIdx.x] =
        __uint_as_float(tmem_ld1(taddr + quarter_lanes() + (tile % 2) * 128));
  }
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, 256);
}

// The warp index in a local, as CUTLASS and DeepGEMM write it.
__global__ void ok_warp_idx_local(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&slot, 128);
    tmem_relinquish();
  }
  tmem_sync();
  const uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(taddr, 128);
}

// No TMEM at all.
__global__ void ok_no_tmem(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

// Relinquish after the last alloc, then dealloc: legal (rule A8).
__global__ void ok_relinquish_then_dealloc() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 32);
  tmem_sync();
  uint32_t taddr = slot;
  if (threadIdx.x / 32 == 0) {
    tmem_relinquish();
    tmem_dealloc(taddr, 32);
  }
}

// Two regions in two slots, each freed with its own size.
__global__ void ok_two_regions(float *out) {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&acc_slot, 256);
    tmem_alloc(&sf_slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t sf = sf_slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(acc + quarter_lanes())) +
                     __uint_as_float(tmem_ld1(sf + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc(sf, 64);
    tmem_dealloc(acc, 256);
  }
}

// A fresh allocation per tile, used only while it is allocated and freed
// before the next one; the permit is relinquished once, after the loop (each
// alloc precedes the relinquish, each dealloc frees a live region).
__global__ void ok_realloc_per_tile(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    if (warp_idx == 0)
      tmem_alloc(&slot, 128);
    tmem_sync();
    uint32_t taddr = slot;
    out[tile * blockDim.x + threadIdx.x] =
        __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
    tmem_sync();
    if (warp_idx == 0)
      tmem_dealloc(taddr, 128);
  }
  if (warp_idx == 0)
    tmem_relinquish();
}
