// RUN: not %tmemcheck --checks='-*,tmem-cta-group-mismatch,tmem-leak,tmem-alloc-ncols,tmem-alloc-after-relinquish,tmem-double-dealloc' %s -- -I%S/Inputs/cutlass 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-cta-group-mismatch,tmem-leak,tmem-alloc-ncols,tmem-alloc-after-relinquish,tmem-double-dealloc' %s -- -I%S/Inputs/cutlass -DSTUB_ARCH_ENABLED 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// cute::TMEM::Allocator1Sm / Allocator2Sm (Inputs/cutlass mimics
// cute/arch/tmem_allocator_sm100.hpp): allocate, free and
// release_allocation_lock are modelled by name with their cta_group, the
// same with the asm compiled out (first RUN) and in (second), directly,
// through a helper, and through CUTLASS's `conditional_t` allocator alias.
#include "cutlass_sm100_stub.h"

#include <type_traits>

// A 2-SM kernel: alloc, relinquish and free all cta_group::2. Silent.
__global__ void two_sm_consistent() {
  __shared__ uint32_t slot;
  cute::TMEM::Allocator2Sm alloc;
  if (threadIdx.x / 32 == 0) {
    alloc.allocate(cute::TMEM::Allocator2Sm::Sm100TmemCapacityColumns, &slot);
    alloc.release_allocation_lock();
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    alloc.free(slot, cute::TMEM::Allocator2Sm::Sm100TmemCapacityColumns);
}

// The 2-SM allocator with a 1-SM commit (umma_arrive is cta_group::1).
__global__ void two_sm_with_one_sm_commit(uint64_t *bar) {
  __shared__ uint32_t slot;
  cute::TMEM::Allocator2Sm alloc;
  if (threadIdx.x / 32 == 0) {
    // CHECK: cutlass-allocators.cu:[[@LINE+4]]:5: error: kernel 'two_sm_with_one_sm_commit' mixes cta_group::1 and cta_group::2; every tcgen05 instruction of a kernel must use the same cta_group (rule A12) [tmem-cta-group-mismatch]
    // CHECK-NEXT: cutlass-allocators.cu:[[@LINE+1]]:5: note: cta_group::2 first used here
    alloc.allocate(256, &slot);
    alloc.release_allocation_lock();
    cutlass::arch::umma_arrive(bar);
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    alloc.free(slot, 256);
}

// CUTLASS picks the allocator by the MMA's CTA count; the helper frees
// through a reference: the region is freed (no leak). Allocating again
// after the relinquish is an error (and that second region leaks).
template <int Ctas>
using TmemAllocator = std::conditional_t<Ctas == 1, cute::TMEM::Allocator1Sm,
                                         cute::TMEM::Allocator2Sm>;

template <class Alloc> __device__ void teardown(Alloc &a, uint32_t base) {
  a.free(base, Alloc::Sm100TmemCapacityColumns);
}

__global__ void alias_and_helper() {
  __shared__ uint32_t slot;
  TmemAllocator<1> alloc{};
  if (threadIdx.x / 32 == 1) {
    // CHECK: cutlass-allocators.cu:[[@LINE+2]]:5: error: TMEM allocated into 'slot' is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
    // CHECK-NEXT: cutlass-allocators.cu:{{[0-9]+}}:1: note: the kernel can exit here with the columns allocated
    alloc.allocate(TmemAllocator<1>::Sm100TmemCapacityColumns, &slot);
    alloc.release_allocation_lock();
  }
  __syncthreads();
  if (threadIdx.x / 32 == 1) {
    teardown(alloc, slot);
    // CHECK: cutlass-allocators.cu:[[@LINE+2]]:5: error: tcgen05.alloc after tcgen05.relinquish_alloc_permit: the CTA has given up its right to allocate (rule A8) [tmem-alloc-after-relinquish]
    // CHECK-NEXT: cutlass-allocators.cu:[[@LINE-6]]:5: note: the permit is relinquished here
    alloc.allocate(32, &slot);
  }
}
