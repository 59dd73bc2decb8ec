// REQUIRES: cuda
// RUN: not %tmemcheck-cuda --checks='-*,tmem-alloc-ncols' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// The CCCL wrappers pass the count with an "r" constraint: ptxas never sees
// the constant (rules EXP-2). Findings point at the call in user code, with
// a note at the wrapper.
#include <cuda/ptx>

__global__ void cccl_alloc() {
  __shared__ uint32_t slot;
  constexpr uint32_t kCols = 96;
  // CHECK: alloc-ncols-cccl.cu:[[@LINE+4]]:5: error: tcgen05.alloc requests 96 columns; the column count must be a power of two in [32, 512] (rule A1) [tmem-alloc-ncols]
  // CHECK-NEXT: alloc-ncols-cccl.cu:[[@LINE+3]]:5: note: use 128 columns, the next legal size
  // CHECK-NEXT: tcgen05_alloc.h:{{[0-9]+}}:{{[0-9]+}}: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'cuda::ptx::tcgen05_alloc'
  if (threadIdx.x / 32 == 0)
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, kCols);
  __syncthreads();
  if (threadIdx.x / 32 == 0) {
    cuda::ptx::tcgen05_relinquish_alloc_permit(cuda::ptx::cta_group_1);
    // CHECK: alloc-ncols-cccl.cu:[[@LINE+1]]:5: error: tcgen05.dealloc frees 96 columns;{{.*}}[tmem-alloc-ncols]
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, slot, kCols);
  }
}

// Must not be flagged.
__global__ void cccl_legal() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 256u);
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, slot, 256u);
}
