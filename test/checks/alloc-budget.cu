// RUN: not %tmemcheck --checks='-*,tmem-alloc-budget' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-alloc-budget: a CTA has 512 TMEM columns. An alloc that, with the
// regions still allocated, needs more blocks until columns are freed, which
// never happens (rule A4, bug class 4): the kernel hangs.

template <uint32_t kCols>
__device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(slot)), "n"(kCols));
}

template <uint32_t kCols>
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "n"(kCols));
}

__global__ void full_then_more() {
  __shared__ uint32_t acc_slot, sf_slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 512;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&acc_slot)));
    // CHECK: alloc-budget.cu:[[@LINE+2]]:19: error: tcgen05.alloc of 32 columns while 512 are still allocated exceeds the 512 columns of TMEM; the alloc blocks forever (rule A4) [tmem-alloc-budget]
    // CHECK-NEXT: alloc-budget.cu:[[@LINE-4]]:19: note: 'acc_slot' holds 512 columns, allocated here
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 32;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&sf_slot)));
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc<32>(sf_slot);
    tmem_dealloc<512>(acc_slot);
  }
}

// Through helpers: the finding is at the call in the kernel.
__global__ void three_regions(float *out) {
  __shared__ uint32_t a_slot, b_slot, c_slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 1) {
    tmem_alloc<256>(&a_slot);
    tmem_alloc<256>(&b_slot);
    // CHECK: alloc-budget.cu:[[@LINE+4]]:5: error: tcgen05.alloc of 64 columns while 512 are still allocated exceeds the 512 columns of TMEM; the alloc blocks forever (rule A4) [tmem-alloc-budget]
    // CHECK-NEXT: alloc-budget.cu:9:17: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'tmem_alloc'
    // CHECK-NEXT: alloc-budget.cu:[[@LINE-4]]:5: note: 'a_slot' holds 256 columns, allocated here
    // CHECK-NEXT: alloc-budget.cu:[[@LINE-4]]:5: note: 'b_slot' holds 256 columns, allocated here
    tmem_alloc<64>(&c_slot);
  }
  __syncthreads();
  if (warp == 1) {
    tmem_dealloc<64>(c_slot);
    tmem_dealloc<256>(b_slot);
    tmem_dealloc<256>(a_slot);
  }
}

// Must not be flagged: exactly 512 columns live, and a second allocation
// after the first one was freed.
__global__ void two_halves() {
  __shared__ uint32_t a_slot, b_slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc<256>(&a_slot);
    tmem_alloc<256>(&b_slot);
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc<256>(a_slot);
    tmem_dealloc<256>(b_slot);
  }
}

__global__ void free_before_realloc() {
  __shared__ uint32_t a_slot, b_slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc<512>(&a_slot);
  __syncthreads();
  if (warp == 0)
    tmem_dealloc<512>(a_slot);
  __syncthreads();
  if (warp == 0)
    tmem_alloc<32>(&b_slot);
  __syncthreads();
  if (warp == 0)
    tmem_dealloc<32>(b_slot);
}
