// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -verify %s
//
// tmem.TmemLifecycle, alloc after relinquish: tcgen05.alloc on a path that
// already ran tcgen05.relinquish_alloc_permit of the same cta_group (rule
// A8). The note points at the relinquish.

#define SMEM_ADDR(p) static_cast<uint32_t>(__cvta_generic_to_shared(p))
#define TMEM_ALLOC(slot, ncols)                                                \
  asm volatile(                                                                \
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"      \
      ::"r"(SMEM_ADDR(slot)), "n"(ncols))
#define TMEM_DEALLOC(taddr, ncols)                                             \
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"         \
               ::"r"(taddr), "n"(ncols))
#define TMEM_RELINQUISH()                                                      \
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;")

// A second region (scale factors) added after the permit was given up.
__global__ void second_region_after_relinquish(float *out) {
  __shared__ uint32_t acc_slot, sf_slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&acc_slot, 128);
    TMEM_RELINQUISH(); // expected-note {{alloc permit relinquished here}}
    TMEM_ALLOC(&sf_slot, 32); // expected-warning {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}} expected-note {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}}
    TMEM_DEALLOC(sf_slot, 32);
    TMEM_DEALLOC(acc_slot, 128);
  }
}

// Relinquish inside a loop that allocates: the second iteration.
__global__ void relinquish_in_loop(float *out, int tiles) {
  __shared__ uint32_t slot;
  for (int t = 0; t < tiles; ++t) { // expected-note 2 {{Assuming 't' is < 'tiles'}} expected-note 2 {{Loop condition is true.  Entering loop body}}
    if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note 2 {{Taking true branch}}
      TMEM_ALLOC(&slot, 64); // expected-warning {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}} expected-note {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}}
      TMEM_RELINQUISH(); // expected-note {{alloc permit relinquished here}}
      TMEM_DEALLOC(slot, 64);
    }
  }
}

// A relinquish on one CTA-uniform path, the alloc after the join.
__global__ void relinquish_on_one_path(float *out, int done_early) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    if (done_early) // expected-note {{Assuming 'done_early' is not equal to 0}} expected-note {{Taking true branch}}
      TMEM_RELINQUISH(); // expected-note {{alloc permit relinquished here}}
    TMEM_ALLOC(&slot, 32); // expected-warning {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}} expected-note {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}}
    TMEM_DEALLOC(slot, 32);
  }
}

// The same with cta_group::2 (a kernel uses one cta_group throughout).
__global__ void cta_pair(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    asm volatile( // expected-note {{alloc permit relinquished here}}
        "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;");
    asm volatile( // expected-warning {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::2 on this path: the CTA may not allocate any more (rule A8)}} expected-note {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::2 on this path: the CTA may not allocate any more (rule A8)}}
        "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], 64;"
        :: "r"(SMEM_ADDR(&slot)));
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, 64;"
                 :: "r"(slot));
  }
}

// CUTLASS's allocator (stand-in), modelled by name.
namespace cute {
namespace TMEM {
struct Allocator1Sm {
  __device__ void allocate(int num_columns, uint32_t *dst_ptr) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
        :: "r"(SMEM_ADDR(dst_ptr)), "r"(num_columns));
  }
  __device__ void free(uint32_t tmem_ptr, int num_columns) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(tmem_ptr), "r"(num_columns) : "memory");
  }
  __device__ void release_allocation_lock() {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
                 ::: "memory");
  }
};
} // namespace TMEM
} // namespace cute
__global__ void cutlass_allocate_after_release(float *out) {
  __shared__ uint32_t acc_base, sf_base;
  cute::TMEM::Allocator1Sm allocator;
  if (threadIdx.x / 32 == 0) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    allocator.allocate(256, &acc_base);
    allocator.release_allocation_lock(); // expected-note {{alloc permit relinquished here}}
    allocator.allocate(32, &sf_base); // expected-warning {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}} expected-note {{tcgen05.alloc after tcgen05.relinquish_alloc_permit.cta_group::1 on this path: the CTA may not allocate any more (rule A8)}}
    allocator.free(sf_base, 32);
    allocator.free(acc_base, 256);
  }
}

// Correct: relinquish right after the (only) alloc, as CUTLASS does.
__global__ void relinquish_after_alloc(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    TMEM_ALLOC(&slot, 128);
    TMEM_RELINQUISH();
  }
  __syncthreads();
  if (threadIdx.x < 32)
    TMEM_DEALLOC(slot, 128);
}

// Correct: both allocations before the relinquish.
__global__ void all_allocs_first(float *out) {
  __shared__ uint32_t acc_slot, sf_slot;
  if (threadIdx.x < 32) {
    TMEM_ALLOC(&acc_slot, 128);
    TMEM_ALLOC(&sf_slot, 32);
    TMEM_RELINQUISH();
    TMEM_DEALLOC(sf_slot, 32);
    TMEM_DEALLOC(acc_slot, 128);
  }
}
