// buggy_alloc_ncols.cu - illegal TMEM column counts that the toolchain accepts.
//
// Rule A1: a (non-exclusive) tcgen05.alloc / tcgen05.dealloc column count must
// be a power of two in [32, 512]. ptxas range-checks the count only when it is
// an immediate in the PTX (EXP-1, EXP-3), so both bugs below build cleanly with
// nvcc and would only show up at run time (UB; a trap only under
// -Xptxas -g-tmem-access-check).
//
// Bug 1 (tmem-alloc-ncols, error): the ptx::tcgen05_alloc call in the kernel
//   requests kAccCols = 96 columns (someone sized the accumulator for N = 96).
//   The constexpr reaches the asm through the wrapper's "r" constraint, i.e. as
//   `mov.b32 %r, 96` + register operand, which ptxas never checks (EXP-2).
//   The fix is to round up to 128.
//
// Bug 2 (tmem-alloc-ncols, error): the raw-asm tcgen05.dealloc at the end uses
//   an "n" immediate of 1024. ptxas only demands a multiple of 32 for the
//   dealloc count, so 1024 is accepted too (EXP-3).
//
// Because 1024 also differs from the allocated 96, tmem-dealloc-mismatch
// describes the same dealloc from another angle.
//
// Launch: 128 threads per CTA.

#include <cuda/ptx>

#include <cstdint>

namespace ptx = cuda::ptx;

constexpr uint32_t kTileN = 96;

__global__ void __launch_bounds__(128) bad_ncols(float *__restrict__ out) {
  // A local constexpr: the wrapper takes nCols by const reference, and nvcc
  // rejects odr-using a namespace-scope (host) constexpr in device code.
  constexpr uint32_t kAccCols = kTileN; // BUG: not a power of two

  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;

  if (warp_idx == 0)
    ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_slot, kAccCols); // bug 1

  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  const uint32_t taddr = tmem_slot;

  uint32_t r[4];
  ptx::tcgen05_ld_32x32b(r, taddr + (((warp_idx % 4) * 32) << 16));
  ptx::tcgen05_wait_ld();
  out[blockIdx.x * 128 + threadIdx.x] =
      __uint_as_float(r[0]) + __uint_as_float(r[1]) +
      __uint_as_float(r[2]) + __uint_as_float(r[3]);

  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (warp_idx == 0) {
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    // bug 2: "free everything" with a count larger than TMEM itself.
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "n"(1024)
                 : "memory");
  }
}
