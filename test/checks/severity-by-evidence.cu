// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-ld-use-before-wait' %s 2>&1 | FileCheck %s --check-prefix=STRICT --implicit-check-not="every register of the load was read first"
//
// Severity by evidence for a tcgen05.dealloc without tcgen05.wait::ld: a
// register of tcgen05.ld is defined only once its data arrived, so a thread
// that used every register of the load on every path before the free has
// seen the read complete. That is the spec-strict form (a warning of the
// strict tmem-ld-use-before-wait), not a tmem-missing-wait-ld error. It
// stays an error when some lane may free with a register unused, when the
// results are never used, when the use comes after the free, and when the
// register is only copied (the copy is not followed).
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void alloc128(uint32_t *slot) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
      :: "r"(smem_addr(slot)) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}
__device__ __forceinline__ void free128(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
               :: "r"(taddr) : "memory");
}
__device__ __forceinline__ void sync_cta() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void ld_x4(uint32_t taddr, uint32_t (&v)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
               : "r"(taddr));
}
__device__ __forceinline__ uint32_t ld_x1(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr));
  return r;
}

// CuTe's tutorial epilogue: ld -> use every register (a loop) -> barrier ->
// free. Spec-strict: a warning of the strict set only.
__global__ void every_register_used(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc128(&slot);
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t v[4];
  // STRICT: severity-by-evidence.cu:[[@LINE+1]]:3: note: tcgen05.ld writes 'v' here
  ld_x4(tmem + ((warp * 32) << 16), v);
  float s = 0;
  for (int i = 0; i < 4; ++i)
    s += __uint_as_float(v[i]);
  out[threadIdx.x] = s;
  sync_cta();
  // STRICT: severity-by-evidence.cu:[[@LINE+3]]:5: warning: tcgen05.dealloc frees columns of a tcgen05.ld that was never followed by tcgen05.wait::ld; every register of the load was read first, so the read has completed, but PTX orders the release of loaded columns only after tcgen05.wait::ld (rules §5.2) [tmem-ld-use-before-wait]
  // STRICT: severity-by-evidence.cu:[[@LINE-7]]:3: note: the tcgen05.ld is issued here
  if (warp == 0)
    free128(tmem);
}

// Every element by a constant index, in one expression: the same.
__global__ void every_element_by_index(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc128(&slot);
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t v[4];
  ld_x4(tmem + ((warp * 32) << 16), v);
  out[threadIdx.x] = __uint_as_float(v[0]) + __uint_as_float(v[1]) +
                     __uint_as_float(v[2]) + __uint_as_float(v[3]);
  sync_cta();
  // STRICT: severity-by-evidence.cu:[[@LINE+2]]:5: warning: tcgen05.dealloc frees columns of a tcgen05.ld that was never followed by tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
  if (warp == 0)
    free128(tmem);
}

// Only the first of four registers is used: v[1..3] may still be in flight.
__global__ void one_register_of_four(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc128(&slot);
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t v[4];
  ld_x4(tmem + ((warp * 32) << 16), v);
  out[threadIdx.x] = __uint_as_float(v[0]);
  sync_cta();
  // CHECK: severity-by-evidence.cu:[[@LINE+4]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
  // CHECK-NEXT: severity-by-evidence.cu:25:17: note: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32' is issued here, inside 'free128'
  // CHECK-NEXT: severity-by-evidence.cu:[[@LINE-5]]:3: note: the tcgen05.ld is issued here
  if (warp == 0)
    free128(tmem);
}

// Half of the lanes use the registers: the other half free unconsumed.
__global__ void half_the_lanes(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc128(&slot);
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t v[4];
  ld_x4(tmem + ((warp * 32) << 16), v);
  if (threadIdx.x % 32 < 16)
    for (int i = 0; i < 4; ++i)
      out[threadIdx.x * 4 + i] = __uint_as_float(v[i]);
  sync_cta();
  // CHECK: severity-by-evidence.cu:[[@LINE+2]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
  if (warp == 0)
    free128(tmem);
}

// The results are never used.
__global__ void never_used() {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc128(&slot);
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t v[4];
  ld_x4(tmem + ((warp * 32) << 16), v);
  sync_cta();
  // CHECK: severity-by-evidence.cu:[[@LINE+2]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
  if (warp == 0)
    free128(tmem);
}

// Used only after the free.
__global__ void used_after_the_free(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    alloc128(&slot);
    const uint32_t tmem = slot;
    uint32_t v[4];
    ld_x4(tmem, v);
    // CHECK: severity-by-evidence.cu:[[@LINE+1]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
    free128(tmem);
    for (int i = 0; i < 4; ++i)
      out[threadIdx.x * 4 + i] = __uint_as_float(v[i]);
  }
}

// Returned by a helper and copied into a local before the free, used after
// it: a copy is not a use (nothing computed with the register yet).
__global__ void copied_before_the_free(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    alloc128(&slot);
    const uint32_t tmem = slot;
    uint32_t r = ld_x1(tmem);
    uint32_t copy;
    copy = r;
    // CHECK: severity-by-evidence.cu:[[@LINE+1]]:5: error: tcgen05.dealloc frees columns that a tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
    free128(tmem);
    out[threadIdx.x] = __uint_as_float(copy);
  }
}

// With the wait, neither form is reported.
__global__ void waits(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    alloc128(&slot);
  sync_cta();
  const uint32_t tmem = slot;
  uint32_t v[4];
  ld_x4(tmem + ((warp * 32) << 16), v);
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  for (int i = 0; i < 4; ++i)
    out[threadIdx.x * 4 + i] = __uint_as_float(v[i]);
  sync_cta();
  if (warp == 0)
    free128(tmem);
}
