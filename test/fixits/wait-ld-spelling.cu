// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// The tcgen05.wait::ld that tmem-missing-wait-ld's fix-it inserts is
// spelled the way the file already does: through a function that does
// nothing but the wait, if the file calls one that is declared before the
// kernel; otherwise as raw inline asm.
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void alloc_32(uint32_t *slot) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
      :: "r"(smem_addr(slot)) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncwarp();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ __forceinline__ uint32_t ld_1(uint32_t taddr) {
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(taddr));
  return v;
}

__device__ __forceinline__ void free_32(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
               :: "r"(taddr) : "memory");
}

// Not a spelling of the wait: it does more than wait.
__device__ __forceinline__ void wait_ld_and_fence() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

__global__ void before_the_helper(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    alloc_32(&slot);
    const uint32_t t = slot;
    out[threadIdx.x] = __uint_as_float(ld_1(t));
    wait_ld_and_fence();
    out[threadIdx.x] += __uint_as_float(ld_1(t));
    // CHECK: wait-ld-spelling.cu:[[@LINE+2]]:5: error: tcgen05.dealloc frees columns{{.*}}[tmem-missing-wait-ld]
    // CHECK-NEXT: fix-it:"{{.*}}wait-ld-spelling.cu":{[[@LINE+1]]:1-[[@LINE+1]]:1}:"    asm volatile(\"tcgen05.wait::ld.sync.aligned;\" ::: \"memory\");\n"
    free_32(t);
  }
}

namespace detail {
__device__ __forceinline__ void wait_loads() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}
} // namespace detail

// detail::wait_loads is declared after the kernel above: unusable there.
// The helper is declared before this kernel and the file calls it (below):
// it spells the inserted wait, qualified as declared.
__global__ void after_the_helper(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    alloc_32(&slot);
    const uint32_t t = slot;
    out[threadIdx.x] = __uint_as_float(ld_1(t));
    // CHECK: wait-ld-spelling.cu:[[@LINE+2]]:5: error: tcgen05.dealloc frees columns{{.*}}[tmem-missing-wait-ld]
    // CHECK-NEXT: fix-it:"{{.*}}wait-ld-spelling.cu":{[[@LINE+1]]:1-[[@LINE+1]]:1}:"    detail::wait_loads();\n"
    free_32(t);
  }
}

__global__ void uses_the_helper(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    alloc_32(&slot);
    const uint32_t t = slot;
    out[threadIdx.x] = __uint_as_float(ld_1(t));
    detail::wait_loads();
    free_32(t);
  }
}
