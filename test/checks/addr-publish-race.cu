// RUN: not %tmemcheck --checks='-*,tmem-addr-publish-race' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-addr-publish-race: tcgen05.alloc writes the TMEM base address into
// shared memory with a weak store (rule A3). Threads of other warps must not
// read the slot before a barrier (bar.sync, named barrier, mbarrier) orders
// the read after the alloc.

__device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 128;"
               :: "r"((uint32_t)__cvta_generic_to_shared(slot)));
}

__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\n\t"
               "tcgen05.wait::ld.sync.aligned;"
               : "=r"(r) : "r"(taddr) : "memory");
  return r;
}

__global__ void read_without_barrier(float *out) {
  __shared__ uint32_t slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  // CHECK: addr-publish-race.cu:[[@LINE+2]]:16: error: 'slot' is read by threads outside the allocating warp before a barrier publishes the address tcgen05.alloc stored there (rule A3) [tmem-addr-publish-race]
  // CHECK-NEXT: addr-publish-race.cu:[[@LINE-2]]:5: note: allocated here; put __syncthreads() (between tcgen05.fence::before_thread_sync and after_thread_sync) before the read
  uint32_t t = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld(t + ((warp * 32) << 16)));
}

// __syncwarp orders the lanes of one warp only.
__global__ void syncwarp_is_not_enough(float *out) {
  __shared__ uint32_t slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 2) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 64;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&slot)));
  }
  __syncwarp();
  // CHECK: addr-publish-race.cu:[[@LINE+2]]:38: error: 'slot' is read by threads outside the allocating warp{{.*}}[tmem-addr-publish-race]
  // CHECK-NEXT: addr-publish-race.cu:[[@LINE-6]]:19: note: allocated here; put __syncthreads() (between tcgen05.fence::before_thread_sync and after_thread_sync) before the read
  out[threadIdx.x] = __uint_as_float(slot);
}

// Must not be flagged: a CTA barrier, a named barrier in asm, or the
// allocating warp reading its own store.
__global__ void published_by_syncthreads(float *out) {
  __shared__ uint32_t slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  uint32_t t = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld(t + ((warp * 32) << 16)));
}

__global__ void published_by_named_barrier(float *out) {
  __shared__ uint32_t slot;
  uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  asm volatile("bar.sync 1, 128;" ::: "memory");
  uint32_t t = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld(t + ((warp * 32) << 16)));
}

__global__ void allocating_warp_reads_its_own_store(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    tmem_alloc(&slot);
    uint32_t t = slot;
    out[threadIdx.x] = __uint_as_float(tmem_ld(t));
  }
}
