// RUN: not %tmemcheck --checks='-*,tmem-leak' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-leak: a CTA-uniform path reaches the end of the kernel with TMEM
// columns still allocated (rule A9).

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

// Through the prefix helpers: the finding is at the call in the kernel, with
// a note at the asm inside the helper.
__global__ void leak_early_return_in_helpers(int num_tiles) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: leak.cu:[[@LINE+5]]:5: error: TMEM allocated into 'slot' (64 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
    // CHECK-NEXT: leak.cu:11:8: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'tmem_alloc'
    // CHECK-NEXT: leak.cu:[[@LINE+8]]:5: note: the kernel can exit here with the columns allocated
    // The path that does not return frees the columns: no note for it.
    // CHECK-NOT: note:
    tmem_alloc(&slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
  if (blockIdx.x >= num_tiles)
    return;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(slot, 64);
}

// An idle CTA leaves after the allocation.
__global__ void leak_early_return(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: leak.cu:[[@LINE+3]]:19: error: TMEM allocated into 'slot' (128 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
    // CHECK-NEXT: leak.cu:[[@LINE+9]]:5: note: the kernel can exit here with the columns allocated
    // CHECK-NOT: note:
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (blockIdx.x >= num_tiles)
    return;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
}

// A CTA-uniform flag skips the dealloc.
__global__ void leak_uniform_skip(int keep_for_next_launch) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    // CHECK: leak.cu:[[@LINE+2]]:19: error: TMEM allocated into 'slot' (64 columns) is still allocated{{.*}}[tmem-leak]
    // CHECK-NEXT: leak.cu:[[@LINE+10]]:1: note: the kernel can exit here with the columns allocated
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (!keep_for_next_launch && warp_idx == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(taddr));
}

// No dealloc at all.
__global__ void leak_never_freed(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: leak.cu:[[@LINE+2]]:19: error: TMEM allocated into 'slot' (256 columns) is still allocated{{.*}}[tmem-leak]
    // CHECK-NEXT: leak.cu:[[@LINE+7]]:1: note: no tcgen05.dealloc frees this region before the kernel ends
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  out[threadIdx.x] = __uint_as_float(tmem_ld1(slot + quarter_lanes()));
}

// A persistent loop that returns from inside the loop (CTA-uniform: the
// tile counter of a loop over blockIdx.x).
__global__ void leak_return_in_persistent_loop(int num_tiles, int abort_tile,
                                               float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: leak.cu:[[@LINE+3]]:19: error: TMEM allocated into 'slot' (128 columns) is still allocated{{.*}}[tmem-leak]
    // CHECK-NEXT: leak.cu:[[@LINE+10]]:7: note: the kernel can exit here with the columns allocated
    // CHECK-NOT: note:
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    if (tile == abort_tile)
      return;
    out[tile * blockDim.x + threadIdx.x] =
        __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
  }
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
}

// Two regions, only one of them freed.
__global__ void leak_second_region(float *out) {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&acc_slot))));
    // CHECK: leak.cu:[[@LINE+2]]:19: error: TMEM allocated into 'sf_slot' (32 columns) is still allocated{{.*}}[tmem-leak]
    // CHECK-NEXT: leak.cu:[[@LINE+12]]:1: note: no tcgen05.dealloc frees this region before the kernel ends
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&sf_slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t acc = acc_slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld1(acc + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(acc));
}

// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

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
