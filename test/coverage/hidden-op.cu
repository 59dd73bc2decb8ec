// REQUIRES: cuda
// RUN: not %tmemcheck-bin --cuda-path=%cuda-path --no-snippets --coverage-check %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/k.cu && printf 'CoverageCheck: true\n' > %t.dir/.tmemcheck.yaml
// RUN: not %tmemcheck-bin --cuda-path=%cuda-path --no-snippets %t.dir/k.cu 2>&1 | FileCheck %s --check-prefix=CFG
// RUN: %tmemcheck-bin --cuda-path=%cuda-path --no-snippets %s 2>&1 | FileCheck %s --check-prefix=OFF
//
// --coverage-check compiles the file with nvcc -ptx as well and compares the
// tcgen05 operations of each kernel, by kind, with what the C++ front end
// recognised. An operation only nvcc compiles (behind __NVCC__, which Clang
// does not define; the same happens with wrappers the front end cannot
// follow or decode) makes the kernel incomplete, naming the kind.
#include <cstdint>

__device__ __forceinline__ void alloc_cols(uint32_t *slot) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;" ::"r"(
          static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
__device__ __forceinline__ void free_cols(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" ::"r"(
      taddr));
}
__device__ __forceinline__ void notify(uint64_t *bar) {
#if defined(__NVCC__)
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(bar))));
#endif
}

// Everything visible: the counts agree.
// CHECK-DAG: hidden-op.cu:[[#@LINE+1]]:17: remark: coverage check: 3 of 3 tcgen05 source lines of nvcc's PTX recognised (100%): alloc 1/1, dealloc 1/1, relinquish_alloc_permit 1/1
__global__ void visible() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    alloc_cols(&slot);
  __syncthreads();
  uint32_t taddr = slot;
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    free_cols(taddr);
}

// The commit is compiled by nvcc only: incomplete, commit named.
// CHECK-DAG: hidden-op.cu:[[#@LINE+2]]:17: remark: coverage check: 3 of 4 tcgen05 source lines of nvcc's PTX recognised (75%): alloc 1/1, dealloc 1/1, relinquish_alloc_permit 1/1, commit 0/1
// CHECK-DAG: hidden-op.cu:[[#@LINE+1]]:17: remark: nvcc's PTX of 'hidden' has tcgen05 operations that the C++ front end did not recognise: commit (1 in the PTX, 0 recognised)
__global__ void hidden(uint64_t *bars) {
  __shared__ uint32_t slot;
  __shared__ uint64_t bar;
  if (threadIdx.x / 32 == 0)
    alloc_cols(&slot);
  __syncthreads();
  uint32_t taddr = slot;
  if (threadIdx.x == 0)
    notify(&bar);
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    free_cols(taddr);
}

// CFG: remark: nvcc's PTX of 'hidden' has tcgen05 operations that the C++ front end did not recognise: commit
// OFF-NOT: coverage check
