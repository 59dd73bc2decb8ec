// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -verify %s
//
// tmem.TmemLifecycle, leak: a kernel returns on a path where an allocation
// made on that path is still held, and no other thread of the CTA can have
// freed it (rule A9). The warning is at the return (or the closing brace),
// the notes lead back to the alloc.

#define SMEM_ADDR(p) static_cast<uint32_t>(__cvta_generic_to_shared(p))
#define TMEM_ALLOC(slot, ncols)                                                \
  asm volatile(                                                                \
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"      \
      ::"r"(SMEM_ADDR(slot)), "n"(ncols))
#define TMEM_DEALLOC(taddr, ncols)                                             \
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"         \
               ::"r"(taddr), "n"(ncols))

// An early return for out-of-range tiles added after the alloc: every warp
// of such a CTA returns, nobody frees.
__global__ void early_return(float *out, int m) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 128); // expected-note {{TMEM allocated here}}
  __syncthreads();
  const uint32_t base = slot;
  if (blockIdx.x * 128 >= m) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    return; // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'early_return' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'early_return' returns (rule A9)}}
  out[blockIdx.x * 128 + threadIdx.x] = 0.0f;
  __syncthreads();
  if (warp == 0)
    TMEM_DEALLOC(base, 128);
}

// No dealloc at all.
__global__ void never_freed(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 64); // expected-note {{TMEM allocated here}}
  __syncthreads();
  out[threadIdx.x] = 1.0f; // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'never_freed' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'never_freed' returns (rule A9)}}
}

// Freed only when a kernel parameter says so.
__global__ void freed_only_if(float *out, int num_k_blocks) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 32); // expected-note {{TMEM allocated here}}
    if (num_k_blocks > 0) // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'freed_only_if' returns (rule A9)}} expected-note {{Assuming 'num_k_blocks' is <= 0}} expected-note {{Taking false branch}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'freed_only_if' returns (rule A9)}}
      TMEM_DEALLOC(slot, 32);
  }
}

// A lane-dependent branch on the way does not excuse the leak: the other
// lanes return just the same.
__global__ void lane_branch_then_return(float *out, int m) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 32); // expected-note {{TMEM allocated here}}
  __syncthreads();
  if (threadIdx.x % 32 == 0) // expected-note {{Assuming the condition is false}} expected-note {{Taking false branch}}
    out[warp] = 0.0f;
  if (m == 0) // expected-note {{Assuming 'm' is equal to 0}} expected-note {{Taking true branch}}
    return; // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'lane_branch_then_return' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'lane_branch_then_return' returns (rule A9)}}
  __syncthreads();
  if (warp == 0)
    TMEM_DEALLOC(slot, 32);
}

// Allocated by a helper; the kernel never frees.
__device__ uint32_t alloc_tmem(uint32_t *slot) {
  asm volatile( // expected-note {{TMEM allocated here}}
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 256;"
      :: "r"(SMEM_ADDR(slot)));
  return *slot;
}
__global__ void helper_alloc_not_freed(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    const uint32_t base = alloc_tmem(&slot); // expected-note {{Calling 'alloc_tmem'}} expected-note {{Returning from 'alloc_tmem'}}
    out[threadIdx.x] = static_cast<float>(base); // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'helper_alloc_not_freed' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'helper_alloc_not_freed' returns (rule A9)}}
  }
}

// The slot lives in dynamic shared memory; the barriers do not lose it.
struct SharedStorage {
  uint64_t full_bar;
  uint32_t tmem_base;
};
__global__ void slot_in_dynamic_smem(float *out, int tiles) {
  extern __shared__ char smem[];
  SharedStorage &ss = *reinterpret_cast<SharedStorage *>(smem);
  if (threadIdx.x < 32) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&ss.tmem_base, 64); // expected-note {{TMEM allocated here}}
  __syncthreads();
  if (tiles == 0) // expected-note {{Assuming 'tiles' is equal to 0}} expected-note {{Taking true branch}}
    return; // expected-warning {{TMEM allocated into 'smem[0].tmem_base' is not deallocated before kernel 'slot_in_dynamic_smem' returns (rule A9)}} expected-note {{TMEM allocated into 'smem[0].tmem_base' is not deallocated before kernel 'slot_in_dynamic_smem' returns (rule A9)}}
  __syncthreads();
  if (threadIdx.x < 32)
    TMEM_DEALLOC(ss.tmem_base, 64);
}

// CUTLASS's allocator (stand-in), never freed.
namespace cute {
namespace TMEM {
struct Allocator1Sm {
  __device__ void allocate(int num_columns, uint32_t *dst_ptr) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
        :: "r"(SMEM_ADDR(dst_ptr)), "r"(num_columns));
  }
};
} // namespace TMEM
} // namespace cute
__global__ void cutlass_allocator_not_freed(float *out) {
  __shared__ uint32_t tmem_base;
  cute::TMEM::Allocator1Sm allocator;
  if (threadIdx.x / 32 == 0) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    allocator.allocate(512, &tmem_base); // expected-warning {{TMEM allocated into 'tmem_base' is not deallocated before kernel 'cutlass_allocator_not_freed' returns (rule A9)}} expected-note {{TMEM allocated here}} expected-note {{TMEM allocated into 'tmem_base' is not deallocated before kernel 'cutlass_allocator_not_freed' returns (rule A9)}}
}

// Allocated by warp 2, freed by warp 0, but a CTA-uniform return comes
// first, so warp 0 never gets there.
__global__ void other_warp_never_frees(float *out, int m) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 2) // expected-note {{Assuming 'warp' is equal to 2}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 32); // expected-note {{TMEM allocated here}}
  __syncthreads();
  if (m == 0) // expected-note {{Assuming 'm' is equal to 0}} expected-note {{Taking true branch}}
    return; // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'other_warp_never_frees' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'other_warp_never_frees' returns (rule A9)}}
  if (warp == 0)
    TMEM_DEALLOC(slot, 32);
}

// Two regions, only the accumulator freed: the other warps skip the
// dealloc under the same `warp == 0` test they skipped the alloc with.
__global__ void second_region_not_freed(float *out) {
  __shared__ uint32_t acc_slot, sf_slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) { // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&acc_slot, 128);
    TMEM_ALLOC(&sf_slot, 32); // expected-note {{TMEM allocated here}}
  }
  __syncthreads();
  if (warp == 0) // expected-note {{'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_DEALLOC(acc_slot, 128); // expected-warning {{TMEM allocated into 'sf_slot' is not deallocated before kernel 'second_region_not_freed' returns (rule A9)}} expected-note {{TMEM allocated into 'sf_slot' is not deallocated before kernel 'second_region_not_freed' returns (rule A9)}}
}

// Correct: an early return before the alloc.
__global__ void return_before_alloc(float *out, int m) {
  __shared__ uint32_t slot;
  if (blockIdx.x * 128 >= m)
    return;
  if (threadIdx.x < 32)
    TMEM_ALLOC(&slot, 32);
  __syncthreads();
  if (threadIdx.x < 32)
    TMEM_DEALLOC(slot, 32);
}

// Correct: allocated by warp 2, freed by warp 0 (DeepGEMM, rules A7). The
// allocating warp's own path has no dealloc.
__global__ void freed_by_another_warp(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 2)
    TMEM_ALLOC(&slot, 32);
  __syncthreads();
  if (warp == 0)
    TMEM_DEALLOC(slot, 32);
}

// Correct: the allocating warp leaves early inside its own role; warp 0
// still frees.
__global__ void allocating_warp_leaves_early(float *out, int m) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 2) {
    TMEM_ALLOC(&slot, 32);
    __syncthreads();
    if (m == 0)
      return;
    out[threadIdx.x] = 1.0f;
  } else {
    __syncthreads();
  }
  if (warp == 0)
    TMEM_DEALLOC(slot, 32);
}

// Correct: a device function (not a kernel) returns with the TMEM held.
__device__ uint32_t allocate_for_caller(uint32_t *slot) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
      :: "r"(SMEM_ADDR(slot)));
  return *slot;
}
