// RUN: not %tmemcheck --checks='-*,tmem-missing-relinquish' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-missing-relinquish (warning): a kernel allocates TMEM but never
// executes tcgen05.relinquish_alloc_permit (rule A8). Legal, but the next CTA
// on the SM cannot allocate until this one exits.

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

// The minimal lifecycle without the relinquish.
__global__ void no_relinquish(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0)
    // CHECK: missing-relinquish.cu:[[@LINE+2]]:19: warning: kernel 'no_relinquish' allocates TMEM but never executes tcgen05.relinquish_alloc_permit; the next CTA on this SM cannot allocate until this one exits (rule A8) [tmem-missing-relinquish]
    // CHECK-NEXT: missing-relinquish.cu:[[@LINE+1]]:19: note: relinquish the permit after the last alloc, in the allocating warp
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (warp_idx == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
}

// Through the prefix helpers; two regions, reported once at the first alloc.
__global__ void no_relinquish_helpers() {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: missing-relinquish.cu:[[@LINE+3]]:5: warning: kernel 'no_relinquish_helpers' allocates TMEM but never executes tcgen05.relinquish_alloc_permit;{{.*}}[tmem-missing-relinquish]
    // CHECK-NEXT: missing-relinquish.cu:12:8: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'tmem_alloc'
    // CHECK-NEXT: missing-relinquish.cu:[[@LINE+1]]:5: note: relinquish the permit after the last alloc, in the allocating warp
    tmem_alloc(&acc_slot, 256);
    tmem_alloc(&sf_slot, 64);
  }
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t sf = sf_slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc(sf, 64);
    tmem_dealloc(acc, 256);
  }
}

// The teardown helper that would relinquish exists but is never called.
__device__ void release_tmem(uint32_t taddr) {
  if (threadIdx.x / 32 == 0) {
    tmem_relinquish();
    tmem_dealloc(taddr, 64);
  }
}

__global__ void relinquish_helper_never_called() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    // CHECK: missing-relinquish.cu:[[@LINE+3]]:5: warning: kernel 'relinquish_helper_never_called' allocates TMEM but never executes tcgen05.relinquish_alloc_permit;{{.*}}[tmem-missing-relinquish]
    // CHECK-NEXT: missing-relinquish.cu:12:8: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'tmem_alloc'
    // CHECK-NEXT: missing-relinquish.cu:[[@LINE+1]]:5: note: relinquish the permit after the last alloc, in the allocating warp
    tmem_alloc(&slot, 64);
  tmem_sync();
  uint32_t taddr = slot;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr, 64);
}

// A persistent kernel that allocates per tile and never relinquishes.
__global__ void no_relinquish_per_tile(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    if (warp_idx == 0)
      // CHECK: missing-relinquish.cu:[[@LINE+2]]:21: warning: kernel 'no_relinquish_per_tile' allocates TMEM{{.*}}[tmem-missing-relinquish]
      // CHECK-NEXT: missing-relinquish.cu:[[@LINE+1]]:21: note: relinquish the permit after the last alloc, in the allocating warp
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                   :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_sync();
    uint32_t taddr = slot;
    out[tile * blockDim.x + threadIdx.x] =
        __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
    tmem_sync();
    if (warp_idx == 0)
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                   :: "r"(taddr));
  }
}

// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

// Legal: the relinquish is in the teardown helper, right before the dealloc
// (CUTLASS does it after the mainloop).
__device__ void relinquish_and_free(uint32_t taddr) {
  if (threadIdx.x / 32 == 0) {
    tmem_relinquish();
    tmem_dealloc(taddr, 128);
  }
}

__global__ void ok_relinquish_at_teardown(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 128);
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  relinquish_and_free(taddr);
}

// Unknown, so silent: the teardown is a function defined in another
// translation unit (a -rdc build); it may relinquish. The run says so in a
// remark instead (test/cli/declared-only-remark.test).
__device__ void teardown_elsewhere(uint32_t taddr);

__global__ void ok_teardown_in_another_unit(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 128);
  tmem_sync();
  uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  teardown_elsewhere(taddr);
}
