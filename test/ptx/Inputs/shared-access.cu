// TMEM addresses confused with shared-memory addresses (rules M3, §10 #26,
// #27), and the correct uses of the alloc slot that look like them.
// Compiled to shared-access.ptx by regenerate.sh; test/checks/shared-access.cu
// analyses the same kernels from source.
#include <cstdint>

__device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 128;" ::"r"((uint32_t)__cvta_generic_to_shared(slot)));
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(
      taddr));
}
__device__ __forceinline__ void tmem_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
}
__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\n\t"
               "tcgen05.wait::ld.sync.aligned;"
               : "=r"(r)
               : "r"(taddr)
               : "memory");
  return r;
}
__device__ __forceinline__ uint32_t lds(uint32_t addr) {
  uint32_t r;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r) : "r"(addr));
  return r;
}

// The TMEM address read back from the slot is loaded as shared memory.
__global__ void ld_shared_of_taddr(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(lds(taddr + 4));
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// The TMEM address as the destination of a TMA / bulk copy.
__global__ void bulk_copy_into_taddr(const float *src) {
  __shared__ uint32_t slot;
  __shared__ uint64_t bar;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
                 "bytes [%0], [%1], 256, [%2];" ::"r"(taddr),
                 "l"(src), "r"((uint32_t)__cvta_generic_to_shared(&bar))
                 : "memory");
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// The TMEM address made a generic pointer and dereferenced.
__global__ void taddr_as_pointer(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  float *p = (float *)__cvta_shared_to_generic(taddr);
  out[threadIdx.x] = p[threadIdx.x];
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// The TMEM address converted to a pointer directly.
__global__ void taddr_cast_to_pointer(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  const float *q = reinterpret_cast<const float *>(uintptr_t(taddr));
  out[threadIdx.x] = q[threadIdx.x % 32];
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// The slot's shared-memory address where tcgen05 wants the TMEM address.
__global__ void slot_address_as_taddr(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t wrong = (uint32_t)__cvta_generic_to_shared(&slot);
  out[threadIdx.x] = __uint_as_float(tmem_ld(wrong + ((warp * 32) << 16)));
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(slot);
}

// Correct: the slot read with ld.shared (DeepGEMM, FlashKDA, Mirage), the
// value used by tcgen05 only; the alloc's [dst] and an mbarrier in shared
// memory next to it.
__global__ void slot_read_with_ld_shared(float *out) {
  __shared__ uint32_t slot;
  __shared__ uint64_t bar;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = lds((uint32_t)__cvta_generic_to_shared(&slot));
  out[threadIdx.x] = __uint_as_float(tmem_ld(taddr + ((warp * 32) << 16)));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&bar))
                 : "memory");
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}
