// RUN: not %tmemcheck --checks='-*,tmem-alloc-after-relinquish' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-alloc-after-relinquish: a tcgen05.alloc that can run after the CTA
// executed tcgen05.relinquish_alloc_permit (rule A8).

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

// Relinquished right after the first alloc; the second region comes later.
__global__ void alloc_second_region_after_relinquish(float *out) {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&acc_slot))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  tmem_sync();
  if (warp_idx == 0)
    // CHECK: alloc-after-relinquish.cu:[[@LINE+2]]:19: error: tcgen05.alloc after tcgen05.relinquish_alloc_permit: the CTA has given up its right to allocate (rule A8) [tmem-alloc-after-relinquish]
    // CHECK-NEXT: alloc-after-relinquish.cu:[[@LINE-5]]:19: note: the permit is relinquished here
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&sf_slot))));
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t sf = sf_slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(acc + quarter_lanes()));
  tmem_sync();
  if (warp_idx == 0) {
    tmem_dealloc(sf, 32);
    tmem_dealloc(acc, 128);
  }
}

// Per-tile allocation with the relinquish inside the loop: the alloc of the
// next iteration comes after it (loop back edge).
__global__ void alloc_after_relinquish_back_edge(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    if (warp_idx == 0) {
      // CHECK: alloc-after-relinquish.cu:[[@LINE+2]]:21: error: tcgen05.alloc after tcgen05.relinquish_alloc_permit:{{.*}}[tmem-alloc-after-relinquish]
      // CHECK-NEXT: alloc-after-relinquish.cu:[[@LINE+3]]:21: note: the permit is relinquished here
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                   :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
      asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
    }
    tmem_sync();
    uint32_t taddr = slot;
    out[tile * blockDim.x + threadIdx.x] =
        __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
    tmem_sync();
    if (warp_idx == 0)
      tmem_dealloc(taddr, 64);
  }
}

// Relinquished on one CTA-uniform path only.
__global__ void alloc_after_conditional_relinquish(int single_stage) {
  __shared__ uint32_t slot0;
  __shared__ uint32_t slot1;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    tmem_alloc(&slot0, 128);
  if (single_stage) {
    if (warp_idx == 0)
      asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  if (warp_idx == 0)
    // CHECK: alloc-after-relinquish.cu:[[@LINE+3]]:5: error: tcgen05.alloc after tcgen05.relinquish_alloc_permit:{{.*}}[tmem-alloc-after-relinquish]
    // CHECK-NEXT: alloc-after-relinquish.cu:11:8: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'tmem_alloc'
    // CHECK-NEXT: alloc-after-relinquish.cu:[[@LINE-5]]:21: note: the permit is relinquished here
    tmem_alloc(&slot1, 64);
  tmem_sync();
  uint32_t t0 = slot0;
  uint32_t t1 = slot1;
  tmem_sync();
  if (warp_idx == 0) {
    tmem_dealloc(t1, 64);
    tmem_dealloc(t0, 128);
  }
}

// Warp 1 relinquishes, warp 0 allocates afterwards: the permit is the CTA's.
__global__ void alloc_after_relinquish_other_warp() {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 1)
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  tmem_sync();
  if (warp_idx == 0)
    // CHECK: alloc-after-relinquish.cu:[[@LINE+2]]:19: error: tcgen05.alloc after tcgen05.relinquish_alloc_permit:{{.*}}[tmem-alloc-after-relinquish]
    // CHECK-NEXT: alloc-after-relinquish.cu:[[@LINE-4]]:19: note: the permit is relinquished here
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
  tmem_sync();
  uint32_t taddr = slot;
  if (warp_idx == 0)
    tmem_dealloc(taddr, 32);
}

// Through helpers: the relinquish is in the setup helper, the alloc after it
// in the kernel.
__device__ void setup_and_relinquish(uint32_t *slot) {
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(slot, 256);
    tmem_relinquish();
  }
  tmem_sync();
}

__global__ void alloc_after_relinquish_in_helper() {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t extra_slot;
  setup_and_relinquish(&acc_slot);
  if (threadIdx.x / 32 == 0)
    // CHECK: alloc-after-relinquish.cu:[[@LINE+3]]:5: error: tcgen05.alloc after tcgen05.relinquish_alloc_permit:{{.*}}[tmem-alloc-after-relinquish]
    // CHECK-NEXT: alloc-after-relinquish.cu:11:8: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'tmem_alloc'
    // CHECK-NEXT: alloc-after-relinquish.cu:[[@LINE-4]]:3: note: the permit is relinquished here
    tmem_alloc(&extra_slot, 64);
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t extra = extra_slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc(extra, 64);
    tmem_dealloc(acc, 256);
  }
}

// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

// Legal: the relinquish comes after the alloc in program order even though
// it sits in a helper called later.
__device__ void finish_allocating() {
  if (threadIdx.x / 32 == 0)
    tmem_relinquish();
}

__global__ void ok_relinquish_in_later_helper() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 64);
  finish_allocating();
  tmem_sync();
  uint32_t taddr = slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, 64);
}
