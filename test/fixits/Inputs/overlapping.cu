// Input of the overlap test: two fix-its insert different lines at one
// offset (the relinquish after the last alloc, the wait::ld before the
// dealloc on the next line). Their order would matter, so --fix applies
// none of this file's fix-its (lanes 16-31 never read v: not spec-strict).
#include <cstdint>

__global__ void second_alloc_then_free(float *out) {
  __shared__ uint32_t slot_a, slot_b;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot_a)))
        : "memory");
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t a = slot_a;
    uint32_t v;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(a));
    if (threadIdx.x % 32 < 16) out[threadIdx.x] = __uint_as_float(v);
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot_b)))
        : "memory");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(a) : "memory");
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const uint32_t b = slot_b;
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;"
                 :: "r"(b) : "memory");
  }
}
