// RUN: not %tmemcheck --checks='-*,tmem-use-after-dealloc' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-use-after-dealloc: a tcgen05 access (ld, st, cp, mma operands) to a
// region after it was freed on some path (rule A9).

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

// The epilogue reads the accumulator after the allocating warp freed it.
__global__ void ld_after_dealloc(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (warp_idx == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
  tmem_sync();
  uint32_t v;
  // CHECK: use-after-dealloc.cu:[[@LINE+2]]:17: error: tcgen05.ld accesses 'slot' after it was freed (rule A9) [tmem-use-after-dealloc]
  // CHECK-NEXT: use-after-dealloc.cu:[[@LINE-5]]:19: note: freed here
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(taddr + quarter_lanes()));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  out[threadIdx.x] = __uint_as_float(v);
}

// A store into a column of the freed region.
__global__ void st_after_dealloc(int value) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;"
                 :: "r"(taddr));
    // CHECK: use-after-dealloc.cu:[[@LINE+2]]:19: error: tcgen05.st accesses 'slot' after it was freed (rule A9) [tmem-use-after-dealloc]
    // CHECK-NEXT: use-after-dealloc.cu:[[@LINE-3]]:19: note: freed here
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};"
                 :: "r"(taddr + 32), "r"(value));
    asm volatile("tcgen05.wait::st.sync.aligned;");
  }
}

// An MMA into the freed accumulator.
__global__ void mma_after_dealloc(uint64_t a_desc, uint64_t b_desc,
                                  uint32_t idesc) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t d_tmem = slot;
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(d_tmem));
  tmem_sync();
  if (threadIdx.x == 0)
    // CHECK: use-after-dealloc.cu:[[@LINE+4]]:19: error: tcgen05.mma accesses 'slot' after it was freed (rule A9) [tmem-use-after-dealloc]
    // CHECK-NEXT: use-after-dealloc.cu:[[@LINE-5]]:19: note: freed here
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(d_tmem), "l"(a_desc), "l"(b_desc), "r"(idesc), "r"(0));
}

// A copy of scale factors into the freed region.
__global__ void cp_after_dealloc(uint64_t sf_desc) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t sf_tmem = slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(sf_tmem));
    if (threadIdx.x == 0)
      // CHECK: use-after-dealloc.cu:[[@LINE+2]]:21: error: tcgen05.cp accesses 'slot' after it was freed (rule A9) [tmem-use-after-dealloc]
      // CHECK-NEXT: use-after-dealloc.cu:[[@LINE-4]]:19: note: freed here
      asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;"
                   :: "r"(sf_tmem), "l"(sf_desc));
  }
}

// Through the prefix helpers: free, then a load in every warp.
__global__ void ld_after_dealloc_helpers(float *out) {
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
  // CHECK: use-after-dealloc.cu:[[@LINE+3]]:38: error: tcgen05.ld accesses 'slot' after it was freed (rule A9) [tmem-use-after-dealloc]
  // CHECK-NEXT: use-after-dealloc.cu:28:17: note: 'tcgen05.ld.sync.aligned.32x32b.x1.b32' is issued here, inside 'tmem_ld1'
  // CHECK-NEXT: use-after-dealloc.cu:[[@LINE-4]]:5: note: freed here
  out[threadIdx.x] = __uint_as_float(tmem_ld1(taddr + quarter_lanes()));
}

// The dealloc is inside the tile loop: the next tile reads freed columns.
__global__ void ld_after_dealloc_in_loop(int num_tiles, float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t taddr = slot;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    uint32_t v;
    // CHECK: use-after-dealloc.cu:[[@LINE+2]]:19: error: tcgen05.ld accesses 'slot' after it was freed (rule A9) [tmem-use-after-dealloc]
    // CHECK-NEXT: use-after-dealloc.cu:[[@LINE+7]]:21: note: freed here
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(taddr + quarter_lanes()));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[tile * blockDim.x + threadIdx.x] = __uint_as_float(v);
    tmem_sync();
    if (warp_idx == 0)
      asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                   :: "r"(taddr));
  }
}

// ---------------------------------------------------------------------------
// Correct kernels: none of these may be flagged. The shared suite of
// correct lifecycle shapes is in lifecycle-ok.cu, run with every default
// check; the ones here are specific to this check.

// Legal: the scale-factor region is freed early, the accumulator is still
// in use.
__global__ void ok_use_other_region(float *out) {
  __shared__ uint32_t acc_slot;
  __shared__ uint32_t sf_slot;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    tmem_alloc(&acc_slot, 128);
    tmem_alloc(&sf_slot, 32);
    tmem_relinquish();
  }
  tmem_sync();
  uint32_t acc = acc_slot;
  uint32_t sf = sf_slot;
  if (warp_idx == 0)
    tmem_dealloc(sf, 32);
  out[threadIdx.x] = __uint_as_float(tmem_ld1(acc + quarter_lanes()));
  tmem_sync();
  if (warp_idx == 0)
    tmem_dealloc(acc, 128);
}
