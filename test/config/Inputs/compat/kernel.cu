// Code that only exists under the project's build settings: a macro its
// build defines and nvcc's arch-specific macro (rules §7).
#include "project_tmem.h"

#ifdef PROJECT_USE_TMEM
__global__ void behind_project_macro() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    project_alloc(&slot, 96);
}
#endif

// The kernel exists in every compilation pass; its body only where nvcc
// compiles for an arch-specific target.
__global__ void behind_arch_specific_macro() {
#if defined(__CUDA_ARCH_SPECIFIC__)
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    project_alloc(&slot, 48);
#endif
}
