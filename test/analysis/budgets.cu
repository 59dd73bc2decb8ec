// RUN: not %tmemcheck-bin --no-cuda --no-snippets --max-call-depth=1 %s 2>&1 | FileCheck %s --check-prefix=DEPTH
// RUN: not %tmemcheck-bin --no-cuda --no-snippets --max-events=3 %s 2>&1 | FileCheck %s --check-prefix=EVENTS
//
// Budgets end the analysis of a kernel with a remark naming the kernel and
// the budget, never silently; what could not be seen is not reported on
// (the dealloc behind the depth bound does not turn into a false leak).

__device__ __forceinline__ void dealloc_inner(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
               :: "r"(taddr));
}
__device__ __forceinline__ void dealloc_outer(uint32_t taddr) {
  dealloc_inner(taddr);
}

__global__ void deep(uint32_t *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  uint32_t taddr = slot;
  out[threadIdx.x] = taddr;
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    dealloc_outer(taddr);
}

// DEPTH-NOT: [tmem-leak]
// DEPTH: budgets.cu:13:3: remark: call depth bound of 1 reached in kernel 'deep'; deeper callees were not analysed (raise --max-call-depth)
// DEPTH-NOT: [tmem-leak]
// EVENTS-NOT: [tmem-leak]
// EVENTS: budgets.cu:16:17: remark: analysis budget reached in kernel 'deep' {{.*}}; the rest of the kernel was not analysed (raise --max-events)
// EVENTS-NOT: [tmem-leak]
