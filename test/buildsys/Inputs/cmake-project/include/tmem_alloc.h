// Reached only through the target's include directory (a response file
// under the Makefiles generator): if it is lost, the files do not compile.
#pragma once
#include <cstdint>
template <uint32_t Cols> __device__ void tmem_alloc(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(slot)), "n"(Cols));
}
template <uint32_t Cols> __device__ void tmem_free(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "n"(Cols));
}
__device__ inline void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
