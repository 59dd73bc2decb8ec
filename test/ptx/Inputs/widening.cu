// Loop-carried values that never settle as constants (a hash, a counter
// grown by a multiply) beside TMEM code whose findings need the other
// registers' values (test/ptx/widening.test). Compiled by nvcc with
// regenerate.sh.
#include <cstdint>

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))),
         "r"(ncols) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}

__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(taddr) : "memory");
  return v;
}

__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void ld_x32(uint32_t taddr, uint32_t (&v)[32]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29,"
      " %30, %31}, [%32];"
      : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]),
        "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]), "=r"(v[9]),
        "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]),
        "=r"(v[15]), "=r"(v[16]), "=r"(v[17]), "=r"(v[18]), "=r"(v[19]),
        "=r"(v[20]), "=r"(v[21]), "=r"(v[22]), "=r"(v[23]), "=r"(v[24]),
        "=r"(v[25]), "=r"(v[26]), "=r"(v[27]), "=r"(v[28]), "=r"(v[29]),
        "=r"(v[30]), "=r"(v[31])
      : "r"(taddr) : "memory");
}

// A running sum over four accumulator stages: its value changes every
// fixpoint round (a key one operation longer each time), which used to
// leave every register of the kernel unknown ("did not settle").
template <bool kWaitLast>
__device__ __forceinline__ void stages_then_free(float *out, int n) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 128);
  tmem_sync();
  const uint32_t taddr = slot;
  float sum = 0.f;
  if (threadIdx.x / 32 == 0) {
    for (int k = 0; k < n; ++k) {
      uint32_t v[32];
      ld_x32(taddr + 32 * (k % 4), v);
      wait_ld();
#pragma unroll
      for (int i = 0; i < 32; ++i)
        sum += __uint_as_float(v[i]);
    }
    uint32_t last = tmem_ld(taddr);
    if (kWaitLast)
      wait_ld();
    out[threadIdx.x] = sum + __uint_as_float(last);
    tmem_dealloc(taddr, 128);
  }
}

// Bug: warp 0 frees the columns its last load may still be reading.
__global__ void __launch_bounds__(128) sum_then_free(float *out, int n) {
  stages_then_free<false>(out, n);
}

// Correct: the same with the wait.
__global__ void __launch_bounds__(128) sum_wait_free(float *out, int n) {
  stages_then_free<true>(out, n);
}
