// RUN: not %tmemcheck --checks='-*,tmem-divergent-collective' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-divergent-collective, operands: a warp-collective (.sync.aligned)
// tcgen05 instruction must get the same operands in every lane of the warp
// (rules §2 "taddr: T (same in all lanes)", A1, §10 #16). Only operands that
// provably differ between lanes are reported: a function of the lane that is
// not constant in a warp, plus a warp-uniform base.

__device__ __forceinline__ void tmem_alloc(uint32_t slot_addr, uint32_t cols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], %1;" :: "r"(slot_addr), "r"(cols));
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;"
               :: "r"(taddr));
}

__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return r;
}

__device__ __forceinline__ void tmem_st(uint32_t taddr, uint32_t v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};"
               :: "r"(taddr), "r"(v));
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

__device__ uint32_t opaque_offset(uint32_t x);

__device__ __forceinline__ uint32_t lane_id() { return threadIdx.x & 31; }

__device__ __forceinline__ void setup(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(slot), 128);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void teardown(uint32_t taddr) {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr);
}

__global__ void lane_variant_reads(float *out) {
  __shared__ uint32_t slot;
  setup(&slot);
  const uint32_t taddr = slot;
  const uint32_t lane = threadIdx.x % 32;
  // CHECK: divergent-collective-operands.cu:[[@LINE+2]]:16: error: tcgen05.ld's TMEM address differs between the lanes of a warp (it depends on threadIdx.x); every lane of the warp must pass the same TMEM address (rules §2, §10 #16) [tmem-divergent-collective]
  // CHECK: note: each lane already reaches its own TMEM lane (32x32b: lane i of the warp reads lane base + i); select the warp's quarter with a warp-uniform offset such as ((warp_idx % 4) * 32) << 16
  uint32_t a = tmem_ld(taddr + (threadIdx.x << 16));
  // CHECK: divergent-collective-operands.cu:[[@LINE+1]]:8: error: tcgen05.ld's TMEM address differs between the lanes of a warp{{.*}} [tmem-divergent-collective]
  a += tmem_ld(taddr + lane);
  // CHECK: divergent-collective-operands.cu:[[@LINE+1]]:8: error: tcgen05.ld's TMEM address differs between the lanes of a warp{{.*}} [tmem-divergent-collective]
  a += tmem_ld(taddr | (lane_id() << 16));
  // CHECK: divergent-collective-operands.cu:[[@LINE+1]]:3: error: tcgen05.st's TMEM address differs between the lanes of a warp{{.*}} [tmem-divergent-collective]
  tmem_st(taddr + threadIdx.x, a);
  out[threadIdx.x] = __uint_as_float(a);
  teardown(taddr);
}

__global__ void lane_variant_alloc() {
  __shared__ uint32_t slot;
  // CHECK: divergent-collective-operands.cu:[[@LINE+2]]:5: error: tcgen05.alloc's column count differs between the lanes of a warp (it depends on threadIdx.x); every lane of the warp must pass the same column count (rules §2, A1, §10 #16) [tmem-divergent-collective]
  if (threadIdx.x / 32 == 0)
    tmem_alloc((uint32_t)__cvta_generic_to_shared(&slot),
               32 * (threadIdx.x % 2 + 1));
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t taddr = slot;
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  // CHECK: divergent-collective-operands.cu:[[@LINE+2]]:5: error: tcgen05.dealloc's TMEM address differs between the lanes of a warp{{.*}} [tmem-divergent-collective]
  if (threadIdx.x / 32 == 0)
    tmem_dealloc(taddr + (threadIdx.x % 32) * 8);
}

// Warp-uniform operands, and values the analysis cannot see through: silent.
__global__ void uniform_operands(float *out, uint32_t param_addr,
                                 const uint32_t *addrs) {
  __shared__ uint32_t slot;
  setup(&slot);
  const uint32_t taddr = slot;
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  uint32_t a = tmem_ld(taddr + ((threadIdx.x / 32) * 32 << 16));
  a += tmem_ld(taddr + ((threadIdx.x & ~31u) << 16));
  a += tmem_ld(taddr + (((threadIdx.x / 128) * 32) << 16));
  a += tmem_ld(taddr + (((warp % 4) * 32) << 16));
  a += tmem_ld(taddr + __shfl_sync(0xffffffffu, lane, 0));
  a += tmem_ld(taddr + addrs[threadIdx.x]);
  a += tmem_ld(addrs[lane]);
  a += tmem_ld(param_addr);
  a += tmem_ld(param_addr + ((warp & 3) << 21));
  a += tmem_ld(taddr + opaque_offset(threadIdx.x));
  a += tmem_ld(taddr + ((threadIdx.x >> 5) << 21));
  a += tmem_ld(taddr + (uint16_t)(threadIdx.x << 16));
  a += tmem_ld(taddr + (lane / 32) * 4);
  tmem_st(taddr + (threadIdx.x - lane), a);
  out[threadIdx.x] = __uint_as_float(a);
  teardown(taddr);
}
