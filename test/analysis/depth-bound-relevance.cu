// RUN: %tmemcheck-bin --no-cuda --no-snippets --max-call-depth=2 %s -- -DKERNEL=quiet_helpers > %t.quiet 2>&1; echo "exit=$?" >> %t.quiet
// RUN: FileCheck %s --check-prefix=QUIET --implicit-check-not=remark: < %t.quiet
// RUN: not %tmemcheck-bin --no-cuda --no-snippets --max-call-depth=2 %s -- -DKERNEL=hidden_dealloc -DHIDE_DEALLOC 2>&1 | FileCheck %s --check-prefix=HIDDEN
//
// The call depth bound hides what is past it, and says so (the kernel is
// incomplete) only when something there could matter: a callee that can
// issue a tcgen05 or synchronisation instruction. CuTe's TMA store and its
// layout algebra are deeper than the bound in every CUTLASS kernel, yet
// issue neither: past the bound they hide nothing. A chain of helpers
// without asm is not followed at all, however deep (the relevance of a
// callee is decided over its whole call tree, not the first dozen calls).

#include <cstdint>

// Twenty levels of arithmetic, as CuTe's layout algebra nests: no asm.
template <int N> __device__ __forceinline__ int fold(int x) {
  return fold<N - 1>(x * 3 + N);
}
template <> __device__ __forceinline__ int fold<0>(int x) { return x; }

// A bulk-async store of shared memory, three calls deep (CuTe's
// SM90_TMA_STORE::copy under copy -> Copy_Atom::call -> copy_unpack).
__device__ __forceinline__ void bulk_commit() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ __forceinline__ void store_unpack() { bulk_commit(); }
__device__ __forceinline__ void store_tile() { store_unpack(); }

__device__ __forceinline__ void free_inner(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
               :: "r"(taddr));
}
__device__ __forceinline__ void free_mid(uint32_t taddr) { free_inner(taddr); }
__device__ __forceinline__ void free_outer(uint32_t taddr) { free_mid(taddr); }

__global__ void KERNEL(int *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 128;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  const uint32_t taddr = slot;
  out[threadIdx.x] = fold<20>(threadIdx.x);
  store_tile();
  __syncthreads();
  if (threadIdx.x / 32 == 0)
#ifdef HIDE_DEALLOC
    free_outer(taddr);
#else
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(taddr));
#endif
}

// QUIET: tmemcheck: 1 file(s), 1 kernel(s): 0 error(s), 0 warning(s)
// QUIET-NEXT: exit=0
// HIDDEN-NOT: [tmem-leak]
// HIDDEN: depth-bound-relevance.cu:33:60: remark: call depth bound of 2 reached in kernel 'hidden_dealloc'; deeper callees were not analysed (raise --max-call-depth)
// HIDDEN-NOT: [tmem-leak]
// HIDDEN: 1 kernel(s) incomplete
