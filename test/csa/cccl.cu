// REQUIRES: csa-plugin, cuda
// RUN: %csa-analyze --cuda-path=%cuda-path -isystem %cuda-path/include/cccl -Xclang -verify %s
//
// CCCL's cuda::ptx wrappers are analysed through their bodies (inline asm
// in a system header, compiled in only for the device side). A bug found
// inside a wrapper is reported at the wrapper's asm; the notes lead
// through the calls in the kernel.

#include <cstdint>
#include <cuda/ptx>

// In the wrapper header (tcgen05_alloc, tcgen05_dealloc):
// expected-warning@cuda/__ptx/instructions/generated/tcgen05_alloc.h:* {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}}
// expected-note@cuda/__ptx/instructions/generated/tcgen05_alloc.h:* {{tcgen05.dealloc of TMEM that was already deallocated on this path (rule A9)}}
// expected-note@cuda/__ptx/instructions/generated/tcgen05_alloc.h:* 2 {{TMEM allocated here}}
// expected-note@cuda/__ptx/instructions/generated/tcgen05_alloc.h:* {{TMEM deallocated here}}
// expected-note@cuda/__ptx/instructions/generated/tcgen05_alloc.h:* 4 {{Taking true branch}}

__global__ void freed_twice(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 128u); // expected-note {{Calling 'tcgen05_alloc<cuda::ptx::dot_cta_group::cta_group_1>'}} expected-note {{Returning from 'tcgen05_alloc<cuda::ptx::dot_cta_group::cta_group_1>'}}
  __syncthreads();
  const uint32_t base = slot;
  if (warp == 0) // expected-note {{'warp' is equal to 0}} expected-note {{Taking true branch}}
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, base, 128u); // expected-note {{Calling 'tcgen05_dealloc<cuda::ptx::dot_cta_group::cta_group_1>'}} expected-note {{Returning from 'tcgen05_dealloc<cuda::ptx::dot_cta_group::cta_group_1>'}}
  if (warp == 0) // expected-note {{'warp' is equal to 0}} expected-note {{Taking true branch}}
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, slot, 128u); // expected-note {{Calling 'tcgen05_dealloc<cuda::ptx::dot_cta_group::cta_group_1>'}}
}

__global__ void early_return(float *out, int m) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) { // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 256u); // expected-note {{Calling 'tcgen05_alloc<cuda::ptx::dot_cta_group::cta_group_1>'}} expected-note {{Returning from 'tcgen05_alloc<cuda::ptx::dot_cta_group::cta_group_1>'}}
    cuda::ptx::tcgen05_relinquish_alloc_permit(cuda::ptx::cta_group_1);
  }
  __syncthreads();
  if (blockIdx.x * 128 >= m) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    return; // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'early_return' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'early_return' returns (rule A9)}}
  __syncthreads();
  if (warp == 0)
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, slot, 256u);
}

// Correct: the usual role pattern through the wrappers.
__global__ void role_pattern(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 64u);
    cuda::ptx::tcgen05_relinquish_alloc_permit(cuda::ptx::cta_group_1);
  }
  __syncthreads();
  if (warp == 0)
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, slot, 64u);
}
