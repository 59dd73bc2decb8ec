// Lane-variant operands of warp-collective tcgen05 instructions, compiled
// to lane-operands.ptx by regenerate.sh (test/ptx/lane-operands.test).
#include <cstdint>

__device__ __forceinline__ void alloc128(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 128;" ::"r"((uint32_t)__cvta_generic_to_shared(slot)));
}

__device__ __forceinline__ void dealloc128(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(
      taddr));
}

__device__ __forceinline__ uint32_t ld1(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r)
               : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return r;
}

__device__ __forceinline__ void st1(uint32_t taddr, uint32_t v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(taddr),
               "r"(v));
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// Must fire: the address depends on the lane.
__global__ void lane_addresses(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    alloc128(&slot);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t taddr = slot;
  const uint32_t lane = threadIdx.x % 32;
  uint32_t a = ld1(taddr + (threadIdx.x << 16));
  a += ld1(taddr + lane);
  st1(taddr + threadIdx.x, a);
  out[threadIdx.x] = __uint_as_float(a);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    dealloc128(taddr + lane * 8);
}

// Must stay silent: warp-uniform addresses.
__global__ void warp_addresses(float *out, const uint32_t *addrs) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    alloc128(&slot);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t taddr = slot;
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  uint32_t a = ld1(taddr + ((threadIdx.x / 32) * 32 << 16));
  a += ld1(taddr + ((threadIdx.x & ~31u) << 16));
  a += ld1(taddr + (((threadIdx.x / 128) * 32) << 16));
  a += ld1(taddr + (((warp % 4) * 32) << 16));
  a += ld1(taddr + __shfl_sync(0xffffffffu, lane, 0));
  a += ld1(taddr + addrs[threadIdx.x]);
  st1(taddr + (threadIdx.x - lane), a);
  out[threadIdx.x] = __uint_as_float(a);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    dealloc128(taddr);
}
