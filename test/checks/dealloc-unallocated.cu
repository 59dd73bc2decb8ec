// RUN: not %tmemcheck --checks='-*,tmem-dealloc-unallocated' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-dealloc-unallocated: a tcgen05.dealloc whose address is not the start
// of an allocation: a constant, an offset into a region, a slot no alloc
// writes, or a path on which the region was never allocated (rule A9).

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

// "The only allocation starts at column 0": not a value the alloc returned
// when it takes fewer than 512 columns (another CTA on the SM may hold
// column 0). Of a 512-column allocation it is: alloc-base.cu.
__global__ void dealloc_constant_zero(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  out[threadIdx.x] = __uint_as_float(tmem_ld1(slot + quarter_lanes()));
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    // CHECK: dealloc-unallocated.cu:[[@LINE+1]]:19: error: tcgen05.dealloc of the constant address 0, which is not a value tcgen05.alloc returned; free the address the alloc stored in its shared-memory slot (rule A9) [tmem-dealloc-unallocated]
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(0));
}

// The second half of a 128-column allocation is not an allocation start.
__global__ void dealloc_base_plus_64() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(taddr));
    // CHECK: dealloc-unallocated.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 'slot' at an offset of 0 lane(s) and 64 column(s): only the start of an allocation can be freed (rule A9) [tmem-dealloc-unallocated]
    // CHECK-NEXT: dealloc-unallocated.cu:[[@LINE-10]]:19: note: allocated here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(taddr + 64));
  }
}

// A lane offset (the quarter of warp 1) is not an allocation start either.
__global__ void dealloc_lane_offset() {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  const uint32_t taddr = slot + (32u << 16);
  if (warp_idx == 1)
    // CHECK: dealloc-unallocated.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 'slot' at an offset of 32 lane(s) and 0 column(s):{{.*}}[tmem-dealloc-unallocated]
    // CHECK-NEXT: dealloc-unallocated.cu:[[@LINE-8]]:19: note: allocated here
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(taddr));
}

// The accumulator is allocated into acc_slot, but the dealloc reads
// sf_slot, which no alloc ever writes.
__global__ void dealloc_slot_never_allocated() {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&acc_slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t sf = sf_slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(acc));
    // CHECK: dealloc-unallocated.cu:[[@LINE+1]]:19: error: tcgen05.dealloc frees the address read from 'sf_slot', but no tcgen05.alloc in this kernel writes that slot (rule A9) [tmem-dealloc-unallocated]
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(sf));
  }
}

// A CTA-uniform flag skips the alloc but not the dealloc.
__global__ void dealloc_alloc_skipped(int use_tmem) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (use_tmem) {
    if (warp_idx == 0) {
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                   :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    }
  }
  if (warp_idx == 0)
    tmem_relinquish();
  tmem_sync();
  uint32_t taddr = slot;
  if (warp_idx == 0)
    // CHECK: dealloc-unallocated.cu:[[@LINE+2]]:19: error: tcgen05.dealloc frees 'slot' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]
    // CHECK-NEXT: dealloc-unallocated.cu:[[@LINE-10]]:21: note: allocated here, but not on every path to the dealloc
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(taddr));
}

// Same, with the alloc behind an early-out of the allocating warp only.
__global__ void dealloc_alloc_skipped_uniform_else(int num_tiles) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (blockIdx.x < num_tiles && warp_idx == 0)
    tmem_alloc(&slot, 128);
  if (warp_idx == 0)
    tmem_relinquish();
  tmem_sync();
  uint32_t taddr = slot;
  if (warp_idx == 0)
    // CHECK: dealloc-unallocated.cu:[[@LINE+3]]:5: error: tcgen05.dealloc frees 'slot' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]
    // CHECK-NEXT: dealloc-unallocated.cu:18:17: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'tmem_dealloc'
    // CHECK-NEXT: dealloc-unallocated.cu:[[@LINE-8]]:5: note: allocated here, but not on every path to the dealloc
    tmem_dealloc(taddr, 128);
}

// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

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
