// Input of baseline.test: three tmem-alloc-ncols findings in two kernels.
// The alloc statement spans two lines; the two deallocs of 'twice' are
// identical statements, told apart by the occurrence index of their
// fingerprints.
#include <cstdint>

__device__ uint32_t slot_address(uint32_t *slot) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(slot));
}

__global__ void once() {
  __shared__ uint32_t slot;
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
               :: "r"(slot_address(&slot)), "r"(96));
}

__global__ void twice(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(taddr), "r"(48));
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(taddr), "r"(48));
}
