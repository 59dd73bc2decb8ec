// Seeded TMEM bugs, one per kernel; compiled to lifecycle-bugs.ptx by
// regenerate.sh (the .ptx is committed: the tests run without CUDA).
#include <cstdint>

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(slot)), "r"(ncols));
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols));
}
__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
}
__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
}

__global__ void leak(int n) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 64);
    tmem_relinquish();
  }
  tmem_sync();
  if (blockIdx.x >= n)
    return;
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(slot, 64);
}

__global__ void double_dealloc() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 32);
    tmem_relinquish();
  }
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc(slot, 32);
    tmem_dealloc(slot, 32);
  }
}

__global__ void ncols_not_power_of_two() {
  __shared__ uint32_t slot;
  uint32_t cols = 96;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, cols);
    tmem_relinquish();
  }
  tmem_sync();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(slot, cols);
}

__global__ void alloc_after_relinquish() {
  __shared__ uint32_t slot[2];
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot[0], 32);
    tmem_relinquish();
    tmem_alloc(&slot[1], 32);
  }
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_dealloc(slot[0], 32);
    tmem_dealloc(slot[1], 32);
  }
}

__global__ void missing_wait_before_dealloc(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot, 32);
    tmem_relinquish();
  }
  tmem_sync();
  const uint32_t t = slot;
  if (threadIdx.x / 32 == 0) {
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(t));
    tmem_dealloc(t, 32);
    out[threadIdx.x] = __uint_as_float(v);
  }
}

__global__ void divergent_alloc() {
  __shared__ uint32_t slot;
  if (threadIdx.x == 0)
    tmem_alloc(&slot, 32);
  tmem_sync();
  if (threadIdx.x / 32 == 0) {
    tmem_relinquish();
    tmem_dealloc(slot, 32);
  }
}

__global__ void commit_by_whole_warp() {
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x / 32 == 1)
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&bar)));
}
