// RUN: not %tmemcheck --checks='-*,tmem-dealloc-mismatch' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-dealloc-mismatch: a tcgen05.dealloc frees a different number of
// columns than the region was allocated with (rule A10).

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

// Frees half of the allocation: the other 64 columns leak.
__global__ void dealloc_half(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    // CHECK: dealloc-mismatch.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 64 columns of 'slot', which was allocated with 128 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-10]]:19: note: allocated here with 128 columns
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(taddr));
}

// Frees more than was allocated (ptxas' guardrail traps).
__global__ void dealloc_too_many() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (threadIdx.x / 32 == 0)
    // CHECK: dealloc-mismatch.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 256 columns of 'slot', which was allocated with 64 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-8]]:19: note: allocated here with 64 columns
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(taddr));
}

// Column counts through constants and the prefix helpers.
constexpr uint32_t kAccCols = 256;
constexpr uint32_t kStageCols = kAccCols / 2;

__global__ void dealloc_helper_constants() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, kAccCols);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    // CHECK: dealloc-mismatch.cu:[[@LINE+3]]:5: error: tcgen05.dealloc frees 128 columns of 'slot', which was allocated with 256 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:17:17: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'tmem_dealloc'
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-9]]:5: note: allocated here with 256 columns
    tmem_dealloc(taddr, kStageCols);
}

// The template parameter sizes the alloc, a stale literal the dealloc; only
// the instantiation where they differ is wrong.
template <uint32_t kCols> __global__ void dealloc_template(float *out) {
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
    // CHECK: dealloc-mismatch.cu:[[@LINE+3]]:5: error: tcgen05.dealloc frees 128 columns of 'slot', which was allocated with 512 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:17:17: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'tmem_dealloc'
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-10]]:5: note: allocated here with 512 columns
    tmem_dealloc(taddr, 128);
}
template __global__ void dealloc_template<128>(float *);
template __global__ void dealloc_template<512>(float *);

// Two regions freed with each other's sizes.
__global__ void dealloc_swapped_sizes() {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&acc_slot))));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&sf_slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t sf = sf_slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    // CHECK: dealloc-mismatch.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 32 columns of 'acc_slot', which was allocated with 256 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-12]]:19: note: allocated here with 256 columns
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(acc));
    // CHECK: dealloc-mismatch.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 256 columns of 'sf_slot', which was allocated with 32 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-14]]:19: note: allocated here with 32 columns
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(sf));
  }
}

// The slot is a one-element __shared__ array whose name is passed as the
// pointer (`__cvta_generic_to_shared(slot)`, no `&`): the alloc still writes
// the slot that `slot[0]` reads.
__global__ void dealloc_half_array_slot() {
  __shared__ int slot[1];
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    const int dst = static_cast<int>(__cvta_generic_to_shared(slot));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(dst), "r"(256));
    tmem_relinquish();
  }
  tmem_sync();
  const int taddr = slot[0];
  tmem_sync();
  if (warp == 0)
    // CHECK: dealloc-mismatch.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 128 columns of 'slot[0]', which was allocated with 256 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-9]]:19: note: allocated here with 256 columns
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "r"(128));
}

// The slot is carved out of the dynamic shared-memory buffer by a byte
// offset: the alloc writes the integer shared address `smem + 616`, the
// kernel reads it back through `(int *)(smem_raw + 616)`.
__global__ void dealloc_half_carved_slot() {
  extern __shared__ __align__(1024) char smem_raw[];
  const int smem = static_cast<int>(__cvta_generic_to_shared(smem_raw));
  const int *slot = reinterpret_cast<const int *>(smem_raw + 616);
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(smem + 616), "r"(256));
    tmem_relinquish();
  }
  tmem_sync();
  const int taddr = slot[0];
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    // CHECK: dealloc-mismatch.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 128 columns of 'smem_raw[616]', which was allocated with 256 columns (rule A10) [tmem-dealloc-mismatch]
    // CHECK-NEXT: dealloc-mismatch.cu:[[@LINE-9]]:19: note: allocated here with 256 columns
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "r"(128));
}

// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

// Legal: the count in a local that is never modified, and a count computed
// from the same template parameter as the alloc.
template <uint32_t kStages> __global__ void ok_stage_cols() {
  __shared__ uint32_t slot;
  const uint32_t cols = kStages * 64;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, cols);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, kStages * 64);
}
template __global__ void ok_stage_cols<2>();
template __global__ void ok_stage_cols<4>();
