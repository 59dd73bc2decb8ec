// buggy_ld_use_before_wait.cu - tcgen05.ld results consumed before tcgen05.wait::ld.
//
// The loaded registers r0..r3 are multiplied and stored to global memory right
// after the tcgen05.ld, and tcgen05.wait::ld only comes later, just before the
// barrier that precedes the dealloc.
//
// This is LEGAL PTX: a true register dependency on an ld destination is honoured
// without wait::ld (P91 §9.7.16.6.4.5; ptxas makes the consumer wait on the LDTM
// scoreboard, EXP-7a), and CUTLASS epilogues rely on it. It is a house-style
// problem only: the columns stay "in flight" for this thread until the wait, and
// code written this way tends to grow a release or overwrite of those columns
// before the wait (a real bug, tmem-missing-wait-ld). The wait that *is*
// required - before the columns are released to warp 0 for the dealloc - is
// present, so no default-on check fires.
//
// Expected finding, only with the strict check enabled
// (--checks='tmem-*,tmem-ld-use-before-wait'):
//   tmem-ld-use-before-wait (warning) on the first read of r0, the line
//   `out[base + 0] = __uint_as_float(r0) * 2.f;`, with a note at the tcgen05.ld.
//   r1..r3 are read before the wait as well and are reported the same way.
//
// Launch: 128 threads per CTA.

#include <cstdint>

__global__ void __launch_bounds__(128) scale_early(float *__restrict__ out) {
  __shared__ uint32_t tmem_slot;
  const uint32_t warp_idx = threadIdx.x / 32;

  if (warp_idx == 0) {
    const uint32_t slot =
        static_cast<uint32_t>(__cvta_generic_to_shared(&tmem_slot));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(slot), "r"(32u)
                 : "memory");
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t taddr = tmem_slot;

  uint32_t r0, r1, r2, r3;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(taddr + (((warp_idx % 4) * 32) << 16))
               : "memory");

  // Strict finding: the loaded registers are read before tcgen05.wait::ld.
  const uint32_t base = (blockIdx.x * 128 + threadIdx.x) * 4;
  out[base + 0] = __uint_as_float(r0) * 2.f;
  out[base + 1] = __uint_as_float(r1) * 2.f;
  out[base + 2] = __uint_as_float(r2) * 2.f;
  out[base + 3] = __uint_as_float(r3) * 2.f;

  // Required: complete the loads before the columns are handed back.
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp_idx == 0) {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
                 ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "r"(32u)
                 : "memory");
  }
}
