// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -verify %s
//
// tmem.TmemLifecycle, double dealloc: a path that runs tcgen05.dealloc twice
// on the same allocation (rule A9). The notes walk back to the alloc and
// the first dealloc.

#define SMEM_ADDR(p) static_cast<uint32_t>(__cvta_generic_to_shared(p))
#define TMEM_ALLOC(slot, ncols)                                                \
  asm volatile(                                                                \
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"      \
      ::"r"(SMEM_ADDR(slot)), "n"(ncols))
#define TMEM_DEALLOC(taddr, ncols)                                             \
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"         \
               ::"r"(taddr), "n"(ncols))

// A "cleanup" dealloc copied to the end, after the normal one.
__global__ void cleanup_copy(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 128); // expected-note {{TMEM allocated here}}
  __syncthreads();
  const uint32_t base = slot;
  __syncthreads();
  if (warp == 0) // expected-note {{'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_DEALLOC(base, 128); // expected-note {{TMEM deallocated here}}
  if (warp == 0) // expected-note {{'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_DEALLOC(slot, 128); // expected-warning {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}} expected-note {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}}
}

// A dealloc inside a loop whose alloc is outside it.
__global__ void dealloc_in_loop(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 64); // expected-note {{TMEM allocated here}}
  __syncthreads();
  for (int stage = 0; stage < 2; ++stage) { // expected-note 2 {{Loop condition is true.  Entering loop body}}
    out[stage] = 0.0f;
    if (threadIdx.x < 32) // expected-note 2 {{Taking true branch}}
      TMEM_DEALLOC(slot, 64); // expected-warning {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}} expected-note {{TMEM deallocated here}} expected-note {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}}
  }
}

// Through helpers: the report is at the helper's instruction, the notes
// lead through the calls.
__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile( // expected-note {{TMEM allocated here}}
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(SMEM_ADDR(slot)), "r"(ncols) : "memory");
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" // expected-warning {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}} expected-note {{TMEM deallocated here}} expected-note {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}}
               :: "r"(taddr), "r"(ncols) : "memory");
}
__global__ void through_helpers(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    tmem_alloc(&slot, 32); // expected-note {{Calling 'tmem_alloc'}} expected-note {{Returning from 'tmem_alloc'}}
    tmem_dealloc(slot, 32); // expected-note {{Calling 'tmem_dealloc'}} expected-note {{Returning from 'tmem_dealloc'}}
    tmem_dealloc(slot, 32); // expected-note {{Calling 'tmem_dealloc'}}
  }
}

// CUTLASS's allocator, modelled by name (stand-in with the real asm).
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
};
} // namespace TMEM
} // namespace cute

__global__ void cutlass_free_twice(float *out, int flag) {
  __shared__ uint32_t tmem_base;
  cute::TMEM::Allocator1Sm allocator;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    allocator.allocate(256, &tmem_base); // expected-note {{TMEM allocated here}}
    allocator.free(tmem_base, 256); // expected-note {{TMEM deallocated here}}
    if (flag) // expected-note {{Assuming 'flag' is not equal to 0}} expected-note {{Taking true branch}}
      allocator.free(tmem_base, 256); // expected-warning {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}} expected-note {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}}
  }
}

// Correct: the two deallocs are in the two arms of a CTA-uniform branch.
__global__ void one_dealloc_per_arm(float *out, int flag) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    TMEM_ALLOC(&slot, 32);
    if (flag)
      TMEM_DEALLOC(slot, 32);
    else
      TMEM_DEALLOC(slot, 32);
  }
}

// Correct: freed, allocated again into the same slot, freed again.
__global__ void realloc_same_slot(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    TMEM_ALLOC(&slot, 64);
    TMEM_DEALLOC(slot, 64);
    TMEM_ALLOC(&slot, 64);
    TMEM_DEALLOC(slot, 64);
  }
}
