// clean_alloc_ld_dealloc.cu - the minimal correct TMEM lifecycle (raw inline PTX).
//
// Shows: warp 0 allocates 128 TMEM columns and writes the base address into a
// shared-memory slot; tcgen05.fence::before_thread_sync / __syncthreads /
// tcgen05.fence::after_thread_sync publish that address to the CTA; each of the
// four warps reads 8 columns of its own 32-lane quarter with
// tcgen05.ld.sync.aligned.32x32b.x8 (lane offset (warp_idx % 4) * 32 << 16),
// waits with tcgen05.wait::ld, stores the values to global memory; after a
// second fenced barrier warp 0 relinquishes the allocation permit and frees the
// same 128 columns.
//
// Expected findings: none. (The columns are never written, so the loaded values
// are whatever TMEM held; the point is the lifecycle, not the data.)
//
// Launch: 128 threads (one warpgroup) per CTA.

#include <cstdint>

namespace {

constexpr uint32_t kNumCols = 128;

__device__ __forceinline__ void tmemAlloc(uint32_t *slot, uint32_t ncols) {
  uint32_t smem_addr = static_cast<uint32_t>(__cvta_generic_to_shared(slot));
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
               :: "r"(smem_addr), "r"(ncols)
               : "memory");
}

__device__ __forceinline__ void tmemRelinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::
                   : "memory");
}

__device__ __forceinline__ void tmemDealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols)
               : "memory");
}

__device__ __forceinline__ void fenceBeforeThreadSync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void fenceAfterThreadSync() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

} // namespace

__global__ void __launch_bounds__(128)
clean_alloc_ld_dealloc(float *__restrict__ out) {
  __shared__ uint32_t tmem_slot;

  const uint32_t warp_idx = threadIdx.x / 32; // warp-uniform
  const uint32_t lane_idx = threadIdx.x % 32;

  // 1. One whole, converged warp allocates.
  if (warp_idx == 0)
    tmemAlloc(&tmem_slot, kNumCols);

  // 2. Publish the address: the store made by tcgen05.alloc is weak.
  fenceBeforeThreadSync();
  __syncthreads();
  fenceAfterThreadSync();
  const uint32_t taddr = tmem_slot;

  // 3. Each warp reads its own lane quarter (rule M6): lanes 32*q .. 32*q+31.
  const uint32_t quarter = warp_idx % 4;
  const uint32_t warp_taddr = taddr + ((quarter * 32) << 16);
  uint32_t r[8];
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]),
                 "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(warp_taddr)
               : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");

  // 4. Only now are the registers consumed.
  float *row = out + (blockIdx.x * 128 + quarter * 32 + lane_idx) * 8;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    row[i] = __uint_as_float(r[i]);

  // 5. Every warp's loads are complete (wait::ld) and ordered before the
  //    barrier; the allocating warp then gives the columns back.
  fenceBeforeThreadSync();
  __syncthreads();
  fenceAfterThreadSync();
  if (warp_idx == 0) {
    tmemRelinquish();
    tmemDealloc(taddr, kNumCols);
  }
}
