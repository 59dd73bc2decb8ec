// RUN: not %tmemcheck --checks='-*,tmem-leak,tmem-dealloc-unallocated,tmem-double-dealloc' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// One value tested twice: `if (use_tmem) alloc…; …; if (use_tmem) free…`.
// No thread takes the first test one way and the second the other, so the
// kernel frees exactly what it allocated (rule A9). The value may be a
// kernel parameter, a local set once from one, or a helper's parameter
// bound to one. Tests of different values or of opposite conditions are
// still reported.

#include "Inputs/raw-tmem-alloc.cuh"

// Correct: a kernel parameter.
__global__ void same_parameter(float *out, int use_tmem) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32 && use_tmem)
    alloc_cols(&slot, 128);
  __syncthreads();
  out[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x < 32 && use_tmem)
    free_cols(slot, 128);
}

// Correct: through a local set once.
__global__ void through_local(float *out, int use_tmem) {
  __shared__ uint32_t slot;
  const bool on = use_tmem != 0;
  if (on) {
    if (threadIdx.x < 32)
      alloc_cols(&slot, 256);
  }
  __syncthreads();
  out[threadIdx.x] = 2.0f;
  __syncthreads();
  if (use_tmem != 0 && threadIdx.x < 32)
    free_cols(slot, 256);
}

// Correct: helpers that take the flag as a parameter, and two values.
__device__ void maybe_alloc(uint32_t *slot, bool on, bool wide) {
  if (on && threadIdx.x < 32)
    alloc_cols(slot, wide ? 512 : 128);
}
__device__ void maybe_free(uint32_t *slot, bool on, bool wide) {
  if (on && threadIdx.x < 32)
    free_cols(*slot, wide ? 512 : 128);
}
__global__ void through_helpers(float *out, int use_tmem, int wide) {
  __shared__ uint32_t slot;
  maybe_alloc(&slot, use_tmem, wide);
  __syncthreads();
  out[threadIdx.x] = 3.0f;
  __syncthreads();
  maybe_free(&slot, use_tmem, wide);
}

// Buggy: the free is under the opposite condition.
__global__ void opposite_conditions(float *out, int use_tmem) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32 && use_tmem)
    alloc_cols(&slot, 128);
  __syncthreads();
  out[threadIdx.x] = 4.0f;
  __syncthreads();
  if (threadIdx.x < 32 && !use_tmem)
    free_cols(slot, 128);
}
// CHECK: correlated-conditions.cu:[[@LINE-7]]:5: error: TMEM allocated into 'slot' (128 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
// CHECK: correlated-conditions.cu:[[@LINE-3]]:5: error: tcgen05.dealloc frees 'slot' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]

// Buggy: two different parameters.
__global__ void different_parameters(float *out, int alloc_it, int free_it) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32 && alloc_it)
    alloc_cols(&slot, 128);
  __syncthreads();
  out[threadIdx.x] = 5.0f;
  __syncthreads();
  if (threadIdx.x < 32 && free_it)
    free_cols(slot, 128);
}
// CHECK: correlated-conditions.cu:[[@LINE-7]]:5: error: TMEM allocated into 'slot' (128 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
// CHECK: correlated-conditions.cu:[[@LINE-3]]:5: error: tcgen05.dealloc frees 'slot' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]

// Buggy: freed twice when the flag is set.
__global__ void freed_twice(float *out, int use_tmem) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32)
    alloc_cols(&slot, 128);
  __syncthreads();
  out[threadIdx.x] = 6.0f;
  __syncthreads();
  if (threadIdx.x < 32 && use_tmem)
    free_cols(slot, 128);
  if (threadIdx.x < 32)
    free_cols(slot, 128);
}
// CHECK: correlated-conditions.cu:[[@LINE-2]]:5: error: 'slot' is freed twice: this tcgen05.dealloc runs after the region was already freed on some path (rule A9) [tmem-double-dealloc]
