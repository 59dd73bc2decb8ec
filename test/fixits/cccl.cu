// REQUIRES: cuda
// RUN: not %tmemcheck-cuda --checks='-*,tmem-alloc-ncols,tmem-missing-wait-ld,tmem-missing-relinquish' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// Fix-its in a file that uses CCCL's cuda::ptx wrappers: the column count
// passed to cuda::ptx::tcgen05_alloc is rewritten at the call, the inserted
// relinquish and wait::ld go through cuda::ptx as the file does. (Half the
// lanes never read the loaded register: the free is an error, not the
// spec-strict form.)
#include <cuda/ptx>

__global__ void cccl_kernel(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: cccl.cu:[[@LINE+6]]:5: error: tcgen05.alloc requests 96 columns;{{.*}}[tmem-alloc-ncols]
    // CHECK-NEXT: fix-it:"{{.*}}cccl.cu":{[[@LINE+5]]:61-[[@LINE+5]]:63}:"128"
    // CHECK: cccl.cu:[[@LINE+4]]:5: warning: kernel 'cccl_kernel' allocates TMEM but never executes tcgen05.relinquish_alloc_permit;{{.*}}[tmem-missing-relinquish]
    // CHECK-NEXT: fix-it:"{{.*}}cccl.cu":{[[@LINE+4]]:1-[[@LINE+4]]:1}:"    cuda::ptx::tcgen05_relinquish_alloc_permit(cuda::ptx::cta_group_1);\n"
    // CHECK-NEXT: tcgen05_alloc.h:{{[0-9]+}}:{{[0-9]+}}: note: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' is issued here, inside 'cuda::ptx::tcgen05_alloc'
    // CHECK-NEXT: cccl.cu:[[@LINE+1]]:5: note: relinquish the permit after the last alloc, in the allocating warp
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 96);
    cuda::ptx::tcgen05_fence_before_thread_sync();
    __syncwarp();
    cuda::ptx::tcgen05_fence_after_thread_sync();
    const uint32_t t = slot;
    uint32_t v[1];
    cuda::ptx::tcgen05_ld_32x32b(v, t);
    if (threadIdx.x % 32 < 16) out[threadIdx.x] = __uint_as_float(v[0]);
    // CHECK: cccl.cu:[[@LINE+2]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
    // CHECK-NEXT: fix-it:"{{.*}}cccl.cu":{[[@LINE+1]]:1-[[@LINE+1]]:1}:"    cuda::ptx::tcgen05_wait_ld();\n"
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, t, 128);
  }
}

// A correct kernel of the same file: its wait spells the fix-its above.
__global__ void cccl_waits(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    cuda::ptx::tcgen05_alloc(cuda::ptx::cta_group_1, &slot, 32);
    cuda::ptx::tcgen05_relinquish_alloc_permit(cuda::ptx::cta_group_1);
    cuda::ptx::tcgen05_fence_before_thread_sync();
    __syncwarp();
    cuda::ptx::tcgen05_fence_after_thread_sync();
    const uint32_t t = slot;
    uint32_t v[1];
    cuda::ptx::tcgen05_ld_32x32b(v, t);
    cuda::ptx::tcgen05_wait_ld();
    out[threadIdx.x] = __uint_as_float(v[0]);
    cuda::ptx::tcgen05_dealloc(cuda::ptx::cta_group_1, t, 32);
  }
}
