// RUN: not %tmemcheck --checks='-*,tmem-double-dealloc' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-double-dealloc: a tcgen05.dealloc of a region that is already freed
// on some path (rule A9).

// Helpers, as CUTLASS/DeepGEMM-style code wraps the raw PTX. Most buggy
// kernels write their asm inline so that each finding has its own line; the
// ones that call these helpers check the "issued here, inside" note.
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

// Through the prefix helpers: the finding is at the call in the kernel, with
// a note at the asm inside the helper.
__global__ void double_dealloc_in_helpers() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc(taddr, 64);
    // CHECK: double-dealloc.cu:[[@LINE+3]]:5: error: 'slot' is freed twice: this tcgen05.dealloc runs after the region was already freed on some path (rule A9) [tmem-double-dealloc]
    // CHECK-NEXT: double-dealloc.cu:17:17: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'tmem_dealloc'
    // CHECK-NEXT: double-dealloc.cu:[[@LINE-3]]:5: note: also freed here
    tmem_dealloc(taddr, 64);
  }
}

// Warp 0 and warp 1 both free the region.
__global__ void double_dealloc_two_warps(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (warp_idx == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
  if (warp_idx == 1)
    // CHECK: double-dealloc.cu:[[@LINE+2]]:19: error: 'slot' is freed twice: this tcgen05.dealloc runs after the region was already freed on some path (rule A9) [tmem-double-dealloc]
    // CHECK-NEXT: double-dealloc.cu:[[@LINE-4]]:19: note: also freed here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
}

// The dealloc sits in the stage loop, the alloc before it.
__global__ void double_dealloc_in_loop(int num_stages) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  for (int stage = 0; stage < num_stages; ++stage) {
    tmem_st1(taddr + quarter_lanes() + stage * 32, stage);
    tmem_sync();
    if (threadIdx.x / 32 == 0)
      // CHECK: double-dealloc.cu:[[@LINE+1]]:21: error: 'slot' is freed twice:{{.*}}[tmem-double-dealloc]
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                   :: "r"(taddr));
  }
}

// A CTA-uniform early-out frees, then the common exit path frees again.
__global__ void double_dealloc_uniform_paths(int num_tiles) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (blockIdx.x >= num_tiles) {
    if (warp_idx == 0)
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                   :: "r"(taddr));
  }
  tmem_sync();
  if (warp_idx == 0)
    // CHECK: double-dealloc.cu:[[@LINE+2]]:19: error: 'slot' is freed twice:{{.*}}[tmem-double-dealloc]
    // CHECK-NEXT: double-dealloc.cu:[[@LINE-6]]:21: note: also freed here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(taddr));
}

// RAII object plus a manual dealloc: the destructor, run where 'tmem' goes
// out of scope, frees a second time.
struct ScopedTmem {
  uint32_t *slot_;
  __device__ explicit ScopedTmem(uint32_t *slot) : slot_(slot) {
    if (threadIdx.x / 32 == 0) {
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                   :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot_))));
      tmem_relinquish();
    }
    tmem_sync();
  }
  __device__ ~ScopedTmem() {
    tmem_sync();
    if (threadIdx.x / 32 == 0)
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                   :: "r"(*slot_));
  }
};

__global__ void double_dealloc_raii_and_manual() {
  __shared__ uint32_t slot;
  ScopedTmem tmem(&slot);
  uint32_t taddr = slot;
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, 128);
  // CHECK: double-dealloc.cu:[[@LINE+4]]:1: error: 'slot' is freed twice: this tcgen05.dealloc runs after the region was already freed on some path (rule A9) [tmem-double-dealloc]
  // CHECK-NEXT: double-dealloc.cu:[[@LINE-12]]:21: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'ScopedTmem::~ScopedTmem'
  // CHECK-NEXT: double-dealloc.cu:[[@LINE-3]]:5: note: also freed here
  // (the destructor frees it again here)
}


// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged.

// Warp 0 allocates, warp 1 frees: legal (rule A7).
__global__ void ok_alloc_warp0_dealloc_warp1(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 128);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 1)
    tmem_dealloc(taddr, 128);
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

// Idle CTAs leave before they allocate anything.
__global__ void ok_early_return_before_alloc(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  if (blockIdx.x >= num_tiles)
    return;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 32);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, 32);
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

// Legal: a fresh allocation per tile, freed before the next one.
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

// Legal: each of two CTA-uniform paths frees once.
__global__ void ok_dealloc_on_each_path(int num_tiles) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (blockIdx.x >= num_tiles) {
    if (warp_idx == 0)
      tmem_dealloc(taddr, 64);
    return;
  }
  tmem_st1(taddr + quarter_lanes(), blockIdx.x);
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(taddr, 64);
}
