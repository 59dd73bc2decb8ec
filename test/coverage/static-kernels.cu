// REQUIRES: cuda
// RUN: %tmemcheck-bin --cuda-path=%cuda-path --no-snippets --coverage-check %s 2>&1 | FileCheck %s --implicit-check-not="not compared" --implicit-check-not="did not analyse"
//
// CUTLASS declares its kernels `__global__ static` (CUTLASS_GLOBAL), and a
// file that instantiates several of them is the rule. Clang mangles such a
// kernel with internal linkage (`_Z1kILi32EEvi` becomes `_ZL1kILi32EEvi`);
// nvcc's PTX entry is named without it. The coverage check pairs them by
// the demangled name, so each instantiation is compared with its own PTX
// (it used to find no PTX kernel for either: "not compared", exit 0).
#include <cstdint>

template <int N> __global__ static void cols(int) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], %1;" ::"r"((uint32_t)__cvta_generic_to_shared(&slot)),
                 "n"(N));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  __syncthreads();
  if (threadIdx.x < 32)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(
                     slot),
                 "n"(N));
}
void launch() {
  cols<32><<<1, 128>>>(0);
  cols<64><<<1, 128>>>(0);
}

// CHECK: static-kernels.cu:12:41: remark: coverage check: 3 of 3 tcgen05 source lines of nvcc's PTX recognised (100%): alloc 1/1, dealloc 1/1, relinquish_alloc_permit 1/1
// CHECK: static-kernels.cu:12:41: remark: coverage check: 3 of 3 tcgen05 source lines of nvcc's PTX recognised (100%): alloc 1/1, dealloc 1/1, relinquish_alloc_permit 1/1
// CHECK: tmemcheck: 1 file(s), 2 kernel(s): 0 error(s), 0 warning(s)
