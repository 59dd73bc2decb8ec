// Raw-asm TMEM allocation helpers in the learn-cuda / DeepGEMM style, shared
// by the lifecycle tests: the warp allocates ncols columns into a shared
// slot and relinquishes its permit, or frees ncols columns at taddr.
#ifndef TEST_CHECKS_INPUTS_RAW_TMEM_ALLOC_CUH
#define TEST_CHECKS_INPUTS_RAW_TMEM_ALLOC_CUH

#include <cstdint>

__device__ __forceinline__ void alloc_cols(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
          static_cast<uint32_t>(__cvta_generic_to_shared(slot))),
      "r"(ncols)
      : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::
                   : "memory");
}

__device__ __forceinline__ void free_cols(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(
                   taddr),
               "r"(ncols)
               : "memory");
}

#endif
