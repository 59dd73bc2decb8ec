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
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

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
