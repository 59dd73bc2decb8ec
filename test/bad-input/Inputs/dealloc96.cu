// Input of the bad-input tests: one illegal dealloc (96 columns) at 6:4.
#include <cstdint>

__global__ void dealloc_96(uint32_t taddr) {
  asm volatile(
  "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 96;" :: "r"(taddr));
}
