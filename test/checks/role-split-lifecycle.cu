// RUN: not %tmemcheck --checks='-*,tmem-leak,tmem-dealloc-unallocated,tmem-double-dealloc,tmem-use-after-dealloc' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// Warp roles in sibling arms of one dispatch (learn-cuda matmul_v7, CuTe
// DSL FMHA): the MMA warp allocates in its arm, an epilogue warp frees in
// the other. Both arms run in every CTA and the free uses the address the
// alloc stored, so the CTA frees what it allocated (rule A9): no leak, no
// "never allocated". When the arms split on the CTA id, or a runtime flag
// may skip the free, the findings stay.

#include "Inputs/raw-tmem-alloc.cuh"

__device__ __forceinline__ void roles_barrier() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  asm volatile("bar.sync 1, 192;" ::: "memory");
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// Correct: warp 5 allocates, warp 0 of the epilogue frees.
__global__ void __launch_bounds__(192) alloc_in_mma_arm(float *out) {
  __shared__ uint32_t slot;
  const int warp = threadIdx.x / 32;
  if (warp == 5) {
    alloc_cols(&slot, 256);
    roles_barrier();
  } else {
    roles_barrier();
    const uint32_t t = slot;
    out[threadIdx.x] = 1.0f;
    asm volatile("bar.sync 2, 160;" ::: "memory");
    if (warp == 0)
      free_cols(t, 256);
  }
}

// Correct: three roles, the third frees.
__global__ void __launch_bounds__(192) three_roles(float *out) {
  __shared__ uint32_t slot;
  const int warp = threadIdx.x / 32;
  if (warp == 4) {
    alloc_cols(&slot, 128);
    roles_barrier();
  } else if (warp == 5) {
    roles_barrier();
    out[threadIdx.x] = 2.0f;
  } else {
    roles_barrier();
    asm volatile("bar.sync 2, 128;" ::: "memory");
    if (warp == 0)
      free_cols(slot, 128);
  }
}

// Buggy: the arms split on the CTA id, so CTA 0 allocates and never frees
// and the other CTAs free what they never allocated.
__global__ void __launch_bounds__(192) split_on_cta(float *out) {
  __shared__ uint32_t slot;
  const int warp = threadIdx.x / 32;
  if (blockIdx.x == 0) {
    if (warp == 0)
      alloc_cols(&slot, 128);
    __syncthreads();
  } else {
    __syncthreads();
    if (warp == 0)
      free_cols(slot, 128);
  }
}
// CHECK: role-split-lifecycle.cu:[[@LINE-8]]:7: error: TMEM allocated into 'slot' (128 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
// CHECK: role-split-lifecycle.cu:[[@LINE-4]]:7: error: tcgen05.dealloc frees 'slot' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]

// Buggy: the epilogue frees only when a runtime flag is set.
__global__ void __launch_bounds__(192) free_under_flag(float *out, int flag) {
  __shared__ uint32_t slot;
  const int warp = threadIdx.x / 32;
  if (warp == 5) {
    alloc_cols(&slot, 64);
    roles_barrier();
  } else {
    roles_barrier();
    const uint32_t t = slot;
    out[threadIdx.x] = 3.0f;
    if (warp == 0 && flag)
      free_cols(t, 64);
  }
}
// CHECK: role-split-lifecycle.cu:[[@LINE-10]]:5: error: TMEM allocated into 'slot' (64 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]

// Correct: warp 4 allocates, the other roles return early (a producer warp
// that is done), and warp 4 frees at the end. The paths on which the slot
// was never allocated are other warps' paths: they never reach the free.
__global__ void __launch_bounds__(192) same_role_frees_after_early_exits(
    float *out) {
  __shared__ uint32_t slot;
  const int warp = threadIdx.x / 32;
  if (warp == 4)
    alloc_cols(&slot, 128);
  roles_barrier();
  if (warp == 5)
    return;
  out[threadIdx.x] = 4.0f;
  asm volatile("bar.sync 2, 160;" ::: "memory");
  if (warp == 4)
    free_cols(slot, 128);
}

// Buggy: warp 4 allocates only when a runtime flag is set, but always
// frees.
__global__ void __launch_bounds__(192) alloc_under_flag_free_always(
    float *out, int flag) {
  __shared__ uint32_t slot;
  const int warp = threadIdx.x / 32;
  if (warp == 4 && flag)
    alloc_cols(&slot, 128);
  roles_barrier();
  if (warp == 5)
    return;
  out[threadIdx.x] = 5.0f;
  asm volatile("bar.sync 2, 160;" ::: "memory");
  if (warp == 4)
    free_cols(slot, 128);
}
// CHECK: role-split-lifecycle.cu:[[@LINE-2]]:5: error: tcgen05.dealloc frees 'slot' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]
