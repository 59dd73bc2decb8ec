// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
//
// The two ways to run the plugin that docs/csa-checker.md gives, spelled
// out in full. `clang --analyze` on a CUDA file analyses the host
// compilation (even with --cuda-device-only); raw-asm device functions are
// in it, and the default checkers (core, deadcode, unix, ...) run too:
// RUN: %csa-clang --analyze -x cuda --cuda-device-only --cuda-gpu-arch=sm_100a -nocudainc -nocudalib -Wno-unknown-cuda-version -include %t.h -Xclang -load -Xclang %csa-plugin -Xclang -analyzer-checker=tmem.TmemLifecycle -Xclang -analyzer-output=text -Xclang -verify -o /dev/null %s
// The device compilation (what library code guarded by __CUDA_ARCH__, such
// as CCCL's wrappers, needs):
// RUN: %csa-clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_100a -nocudainc -nocudalib -Wno-unknown-cuda-version -include %t.h -fsyntax-only -Xclang -analyze -Xclang -load -Xclang %csa-plugin -Xclang -analyzer-checker=tmem.TmemLifecycle -Xclang -analyzer-output=text -Xclang -verify %s
//
// Registration: the checker is listed with its summary; the modelling
// checker it depends on is a developer (hidden) checker.
// RUN: %csa-clang -cc1 -load %csa-plugin -analyzer-checker-help | FileCheck %s --check-prefix=HELP
// RUN: %csa-clang -cc1 -load %csa-plugin -analyzer-checker-help-developer | FileCheck %s --check-prefix=DEV
// HELP: tmem.TmemLifecycle Path-sensitive lifecycle of tcgen05 Tensor Memory allocations: double dealloc, use after dealloc, leak at kernel exit, alloc after relinquish
// HELP-NOT: tmem.CudaDeviceModeling
// DEV: tmem.CudaDeviceModeling Models CUDA special registers

__global__ void early_return(float *out, int m) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    asm volatile( // expected-note {{TMEM allocated here}}
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
  __syncthreads();
  if (blockIdx.x * 128 >= m) // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    return; // expected-warning {{TMEM allocated into 'slot' is not deallocated before kernel 'early_return' returns (rule A9)}} expected-note {{TMEM allocated into 'slot' is not deallocated before kernel 'early_return' returns (rule A9)}}
  out[blockIdx.x * 128 + threadIdx.x] = 1.0f;
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
                 :: "r"(slot));
}
