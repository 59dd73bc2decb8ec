// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st,tmem-single-thread-op-by-warp,tmem-lane-quarter' %s -- -I%S/Inputs/cute 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st,tmem-single-thread-op-by-warp,tmem-lane-quarter' %s -- -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-ld-use-before-wait' %s -- -I%S/Inputs/cute 2>&1 | FileCheck %s --check-prefix=STRICT --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-ld-use-before-wait' %s -- -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=STRICT --implicit-check-not="[tmem-"
// RUN: %tmemcheck-bin --no-cuda --no-snippets --checks='-*,tmem-lane-quarter' %s -- -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=REMARK
// An atom cut by the call depth bound issues nothing in the graph; that is
// the depth remark's to say, not a disagreement of body and name.
// RUN: not %tmemcheck-bin --no-cuda --no-snippets --max-call-depth=2 --checks='-*,tmem-lane-quarter' %s -- -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=DEPTH --implicit-check-not="stands for"
// DEPTH: remark: call depth bound of 2 reached in kernel 'tutorial_epilogue'
//
// CuTe's SM100 atoms (Inputs/cute mimics their shapes), with the asm
// compiled out (the first command: the atoms are recognised by name) and
// visible (the second: the bodies are followed, through the function
// pointer `detail::explode` calls). Both give the same findings.

#include "cute_sm100_stub.h"

using Mma = cute::SM100_MMA_F16BF16_SS<float, float, float, 128, 128>;

// The tutorial epilogue: ld -> use every register -> barrier -> free, no
// wait::ld. Every register was read first, so the read has completed: the
// spec-strict form, a warning of the strict set (tmem-ld-use-before-wait),
// not a tmem-missing-wait-ld error.
__global__ void tutorial_epilogue(uint64_t a, uint64_t b, uint64_t idesc,
                                  float *out) {
  __shared__ uint32_t slot;
  __shared__ uint64_t mbar;
  cute::TMEM::Allocator1Sm alloc;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    alloc.allocate(128, &slot);
    alloc.release_allocation_lock();
  }
  __syncthreads();
  uint32_t tmem = slot;
  if (warp == 0) {
    cute::gemm<Mma>(a, b, tmem, 0, idesc);
    cutlass::arch::umma_arrive(&mbar);
  }
  asm volatile("{\n\t.reg .pred p;\n\t"
               "WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
               "@!p bra WAIT_%=;\n\t}"
               ::"r"((uint32_t)__cvta_generic_to_shared(&mbar)));
  uint32_t regs[8];
  // STRICT: cute-atoms.cu:[[@LINE+4]]:52: warning: 'regs' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
  // STRICT-NEXT: cute-atoms.cu:[[@LINE+1]]:3: note: tcgen05.ld writes 'regs' here
  cute::tmem_load<cute::SM100_TMEM_LOAD_32dp32b8x>(tmem + ((warp * 32) << 16), regs);
  float s = 0;
  for (int i = 0; i < 8; ++i) s += __uint_as_float(regs[i]);
  out[threadIdx.x] = s;
  __syncthreads();
  // STRICT: cute-atoms.cu:[[@LINE+3]]:5: warning: tcgen05.dealloc frees columns of a tcgen05.ld that was never followed by tcgen05.wait::ld; every register of the load was read first, so the read has completed, but PTX orders the release of loaded columns only after tcgen05.wait::ld (rules §5.2) [tmem-ld-use-before-wait]
  // STRICT-NEXT: cute-atoms.cu:[[@LINE-6]]:3: note: the tcgen05.ld is issued here
  if (warp == 0)
    alloc.free(tmem, 128);
}

// Must not be flagged: the same with the wait (CUTLASS's
// fence_view_async_tmem_load) before the barrier.
__global__ void waited_epilogue(float *out) {
  __shared__ uint32_t slot;
  cute::TMEM::Allocator1Sm alloc;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc.allocate(128, &slot);
  __syncthreads();
  uint32_t tmem = slot;
  uint32_t regs[8];
  cute::tmem_load<cute::SM100_TMEM_LOAD_32dp32b8x>(tmem + ((warp * 32) << 16), regs);
  cutlass::arch::fence_view_async_tmem_load();
  out[threadIdx.x] = __uint_as_float(regs[0]);
  __syncthreads();
  if (warp == 0)
    alloc.free(tmem, 128);
}

// The registers are never read: nothing says the load has completed when
// the columns are freed. An error.
__global__ void results_never_read() {
  __shared__ uint32_t slot;
  cute::TMEM::Allocator1Sm alloc;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc.allocate(128, &slot);
  __syncthreads();
  uint32_t tmem = slot;
  uint32_t regs[8];
  cute::tmem_load<cute::SM100_TMEM_LOAD_32dp32b8x>(tmem + ((warp * 32) << 16), regs);
  __syncthreads();
  // CHECK: cute-atoms.cu:[[@LINE+4]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
  // CHECK-NEXT: cute-atoms.cu:[[@LINE-3]]:3: note: the tcgen05.ld is issued here
  // STRICT: cute-atoms.cu:[[@LINE+2]]:5: error: tcgen05.dealloc frees{{.*}}[tmem-missing-wait-ld]
  if (warp == 0)
    alloc.free(tmem, 128);
}

// Only some lanes read the registers before the release: those that do
// not may free columns still being read. An error.
__global__ void some_lanes_read(float *out) {
  __shared__ uint32_t slot;
  cute::TMEM::Allocator1Sm alloc;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc.allocate(128, &slot);
  __syncthreads();
  uint32_t tmem = slot;
  uint32_t regs[8];
  cute::tmem_load<cute::SM100_TMEM_LOAD_32dp32b8x>(tmem + ((warp * 32) << 16), regs);
  if (threadIdx.x % 32 < 16)
    out[threadIdx.x] = __uint_as_float(regs[0]);
  // STRICT: cute-atoms.cu:[[@LINE-1]]:40: warning: 'regs' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
  // STRICT-NEXT: cute-atoms.cu:[[@LINE-4]]:3: note: tcgen05.ld writes 'regs' here
  // STRICT: cute-atoms.cu:[[@LINE+4]]:5: error: tcgen05.dealloc frees{{.*}}[tmem-missing-wait-ld]
  // CHECK: cute-atoms.cu:[[@LINE+3]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
  // CHECK-NEXT: cute-atoms.cu:[[@LINE-7]]:3: note: the tcgen05.ld is issued here
  if (warp == 0)
    alloc.free(tmem, 128);
}

// A store through explode (registers first, the address last) and a
// 16x32bx2 load, then free without wait::st: an error in both forms.
__global__ void store_then_free() {
  __shared__ uint32_t slot;
  cute::TMEM::Allocator1Sm alloc;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc.allocate(128, &slot);
  __syncthreads();
  uint32_t tmem = slot;
  uint32_t regs[2] = {1, 2};
  cute::tmem_store2<cute::SM100_TMEM_STORE_32dp32b2x>(tmem + ((warp * 32) << 16), regs);
  __syncthreads();
  // CHECK: cute-atoms.cu:[[@LINE+3]]:5: error: tcgen05.dealloc frees columns that a tcgen05.st of this thread may still be writing;{{.*}}[tmem-missing-wait-st]
  // CHECK-NEXT: cute-atoms.cu:[[@LINE-3]]:3: note: the tcgen05.st is issued here
  if (warp == 0)
    alloc.free(tmem, 128);
}

// The body issues an x1 load where the name says x2: the body is analysed
// and the disagreement is a remark.
// REMARK: cute_sm100_stub.h:[[#]]:{{[0-9]+}}: remark: the body of 'cute::SM100_TMEM_LOAD_32dp32b2x::copy' issues 'ld g0 shape0 x1', which is not what its name stands for ('ld g0 shape0 x2'); the body was analysed
__global__ void mismatched_atom(float *out) {
  uint32_t regs[2];
  cute::tmem_load2<cute::SM100_TMEM_LOAD_32dp32b2x>(((threadIdx.x / 32 * 32) << 16), regs);
  cutlass::arch::fence_view_async_tmem_load();
  out[threadIdx.x] = __uint_as_float(regs[0] + regs[1]);
}
