// Input of the CLI tests: one alloc whose column count comes from the macro
// COLS (128, legal, unless the compile command defines it).
#include <cstdint>
#ifndef COLS
#define COLS 128
#endif
__global__ void alloc_cols_from_macro() {
  __shared__ uint32_t slot;
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(&slot)), "r"(COLS));
}
