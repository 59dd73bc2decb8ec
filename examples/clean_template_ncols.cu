// clean_template_ncols.cu - allocation size from a template parameter, CCCL wrappers.
//
// Shows: the column count is the template parameter kCols of a kernel template
// that is explicitly instantiated with 256. A static_assert documents rule A1
// (power of two in [32, 512]); the analyzer must also see the value through the
// instantiation because cuda::ptx::tcgen05_alloc passes it in a register, which
// ptxas never range-checks (EXP-2). Everything goes through the CCCL
// cuda::ptx wrappers: alloc, fences, tcgen05_ld_32x32b, tcgen05_wait_ld,
// relinquish and dealloc. Registers returned by each ld are consumed only after
// tcgen05_wait_ld, so even the strict check tmem-ld-use-before-wait is quiet.
//
// Expected findings: none.
//
// Launch: 128 threads (one warpgroup) per CTA; out holds 128 floats per CTA.

#include <cuda/ptx>

#include <cstdint>

namespace ptx = cuda::ptx;

template <uint32_t kCols>
__global__ void __launch_bounds__(128) row_sums(float *__restrict__ out) {
  static_assert(kCols >= 32 && kCols <= 512 && (kCols & (kCols - 1)) == 0,
                "TMEM allocations are a power of two in [32, 512] columns");
  constexpr uint32_t kChunk = 16; // columns per tcgen05.ld (32x32b.x16)

  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;

  if (warp_idx == 0)
    ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_slot, kCols);

  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  const uint32_t taddr = tmem_slot;
  const uint32_t warp_taddr = taddr + (((warp_idx % 4) * 32) << 16);

  float sum = 0.f;
  for (uint32_t col = 0; col < kCols; col += kChunk) {
    uint32_t r[kChunk];
    ptx::tcgen05_ld_32x32b(r, warp_taddr + col);
    ptx::tcgen05_wait_ld(); // registers are read only after this point
#pragma unroll
    for (uint32_t i = 0; i < kChunk; ++i)
      sum += __uint_as_float(r[i]);
  }
  out[blockIdx.x * 128 + threadIdx.x] = sum;

  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  if (warp_idx == 0) {
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    ptx::tcgen05_dealloc(ptx::cta_group_1, taddr, kCols);
  }
}

// Explicit instantiation: 2 x 128 columns' worth of accumulator.
template __global__ void row_sums<256>(float *__restrict__ out);
