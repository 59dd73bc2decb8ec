// RUN: not %tmemcheck --checks='-*,tmem-shared-access' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-shared-access: TMEM addresses confused with shared-memory addresses
// (rules M3, §10 #26, #27), and the correct uses of the alloc slot that look
// like them. test/ptx/Inputs/regenerate.sh compiles this file to
// shared-access.ptx (test/ptx/shared-access.test); nvcc-validate-
// smem-barrier.test compiles it for sm_100a.

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
  // CHECK: shared-access.cu:[[@LINE+3]]:38: error: 'ld.shared.b32' uses the TMEM address read from 'slot' as a shared-memory address; TMEM is reachable only through tcgen05 instructions (rule M3) [tmem-shared-access]
  // CHECK-NEXT: shared-access.cu:33:17: note: 'ld.shared.b32' is issued here, inside 'lds'
  // CHECK-NEXT: shared-access.cu:[[@LINE-5]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
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
  // CHECK: shared-access.cu:[[@LINE+3]]:19: error: 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes' uses the TMEM address read from 'slot' as a shared-memory address{{.*}}[tmem-shared-access]
  // CHECK-NEXT: shared-access.cu:[[@LINE-4]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
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
  // CHECK: shared-access.cu:[[@LINE+2]]:23: error: '__cvta_shared_to_generic' is given the TMEM address read from 'slot', which is not a shared-memory address (rule M3) [tmem-shared-access]
  // CHECK-NEXT: shared-access.cu:[[@LINE-4]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
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
  // CHECK: shared-access.cu:[[@LINE+2]]:22: error: a pointer made from the TMEM address read from 'slot' is dereferenced; TMEM is not addressable memory, only tcgen05 instructions reach it (rule M3) [tmem-shared-access]
  // CHECK-NEXT: shared-access.cu:[[@LINE-5]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
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
  // CHECK: shared-access.cu:[[@LINE+4]]:38: error: tcgen05.ld's TMEM address operand is the shared-memory address of 'slot', not the TMEM address tcgen05.alloc stored there (rule M3, §10 #27) [tmem-shared-access]
  // CHECK-NEXT: shared-access.cu:{{[0-9]+}}:17: note: 'tcgen05.ld.sync.aligned.32x32b.x1.b32' is issued here, inside 'tmem_ld'
  // CHECK-NEXT: shared-access.cu:[[@LINE+2]]:38: note: read the slot ('slot' in C++, ld.shared.b32 of its address in PTX) and pass that value
  // CHECK-NEXT: shared-access.cu:[[@LINE-6]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
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

// The TMEM address as an mbarrier, and as the B descriptor of an mma.
__global__ void taddr_as_mbarrier_and_descriptor(uint64_t adesc,
                                                 uint32_t idesc) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  if (threadIdx.x == 0) {
    const uint64_t bdesc = taddr;
    // CHECK: shared-access.cu:[[@LINE+2]]:19: error: 'tcgen05.mma.cta_group::1.kind::f16' builds its B matrix descriptor from the TMEM address read from 'slot'; a shared-memory matrix descriptor needs a shared-memory address (rule M3) [tmem-shared-access]
    // CHECK-NEXT: shared-access.cu:[[@LINE-6]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
    asm volatile("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, 1;"
                 ::"r"(taddr), "l"(adesc), "l"(bdesc), "r"(idesc));
    // CHECK: shared-access.cu:[[@LINE+2]]:19: error: 'mbarrier.arrive.shared::cta.b64' uses the TMEM address read from 'slot' as a shared-memory address{{.*}}[tmem-shared-access]
    // CHECK-NEXT: shared-access.cu:[[@LINE-10]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(taddr)
                 : "memory");
  }
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// Correct: the slot and an mbarrier carved from dynamic shared memory
// (DeepGEMM's tmem_ptr_in_smem), the slot read through its pointer, the
// commit's mbarrier and the alloc's [dst] in shared memory, staging in
// shared memory through a pointer cast of the buffer.
__global__ void carved_slot_ok(float *out) {
  extern __shared__ __align__(16) uint8_t smem[];
  uint32_t *slot = reinterpret_cast<uint32_t *>(smem + 1024);
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + 1032);
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(slot);
  tmem_sync();
  const uint32_t taddr = *slot;
  if (threadIdx.x == 0)
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
                 "cluster.b64 [%0];" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(bar))
                 : "memory");
  float v = __uint_as_float(tmem_ld(taddr + ((warp * 32) << 16)));
  reinterpret_cast<float *>(smem)[threadIdx.x] = v;
  tmem_sync();
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[threadIdx.x ^ 1];
  if (warp == 0)
    tmem_dealloc(taddr);
}

// The address of the slot's array, moved by a column offset, as the TMEM
// address (learn-cuda's `__shared__ int tmem_addr[1]`).
__global__ void slot_array_address_as_taddr(float *out, int n) {
  __shared__ uint32_t slots[1];
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(slots);
  tmem_sync();
  const uint32_t taddr = slots[0];
  // CHECK: shared-access.cu:[[@LINE+5]]:7: error: tcgen05.ld's TMEM address operand is the shared-memory address of 'slots[0]', not the TMEM address tcgen05.alloc stored there (rule M3, §10 #27) [tmem-shared-access]
  // CHECK-NEXT: shared-access.cu:{{[0-9]+}}:17: note: 'tcgen05.ld.sync.aligned.32x32b.x1.b32' is issued here, inside 'tmem_ld'
  // CHECK-NEXT: shared-access.cu:[[@LINE+3]]:7: note: read the slot ('slots[0]' in C++, ld.shared.b32 of its address in PTX) and pass that value
  // CHECK-NEXT: shared-access.cu:[[@LINE-6]]:5: note: tcgen05.alloc writes the TMEM address into 'slots[0]' here
  out[threadIdx.x] = __uint_as_float(
      tmem_ld((uint32_t)__cvta_generic_to_shared(slots) + 8 * n));
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// ---- Shared-memory matrix descriptors built by arithmetic ----------------

// The start-address field of a K-major SW128 descriptor: address bits 17..4
// in bits 13..0, LBO 16 B, SBO 1024 B, version 1, swizzle mode 2 (128 B).
__device__ __forceinline__ uint64_t make_smem_desc(uint32_t smem_addr) {
  return uint64_t((smem_addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) |
         (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 46) |
         (uint64_t(2) << 61);
}
__device__ __forceinline__ void mma_ss(uint32_t d_tmem, uint64_t adesc,
                                       uint64_t bdesc, uint32_t idesc) {
  asm volatile("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, 1;"
               ::"r"(d_tmem), "l"(adesc), "l"(bdesc), "r"(idesc));
}

// The TMEM address masked and shifted into the start-address field by
// hand, then given to the mma as its A descriptor.
__global__ void taddr_masked_into_descriptor(uint64_t bdesc, uint32_t idesc) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  if (threadIdx.x == 0) {
    const uint64_t adesc =
        uint64_t((taddr & 0x3FFFF) >> 4) | (uint64_t(1) << 46);
    // CHECK: shared-access.cu:[[@LINE+3]]:5: error: 'tcgen05.mma.cta_group::1.kind::f16' builds its A matrix descriptor from the TMEM address read from 'slot'; a shared-memory matrix descriptor needs a shared-memory address (rule M3) [tmem-shared-access]
    // CHECK-NEXT: shared-access.cu:{{[0-9]+}}:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_ss'
    // CHECK-NEXT: shared-access.cu:[[@LINE-8]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
    mma_ss(taddr, adesc, bdesc, idesc);
  }
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// The TMEM address given to a descriptor builder: reported at the call,
// and again where the descriptor reaches the mma.
__global__ void taddr_to_descriptor_builder(uint64_t adesc, uint32_t idesc) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  if (threadIdx.x == 0) {
    // CHECK: shared-access.cu:[[@LINE+2]]:28: error: 'make_smem_desc' builds its shared-memory matrix descriptor from the TMEM address read from 'slot'; a shared-memory matrix descriptor needs a shared-memory address (rule M3) [tmem-shared-access]
    // CHECK-NEXT: shared-access.cu:[[@LINE-5]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
    const uint64_t bdesc = make_smem_desc(taddr + 64);
    // CHECK: shared-access.cu:[[@LINE+3]]:5: error: 'tcgen05.mma.cta_group::1.kind::f16' builds its B matrix descriptor from the TMEM address read from 'slot'; a shared-memory matrix descriptor needs a shared-memory address (rule M3) [tmem-shared-access]
    // CHECK-NEXT: shared-access.cu:{{[0-9]+}}:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_ss'
    // CHECK-NEXT: shared-access.cu:[[@LINE-9]]:5: note: tcgen05.alloc writes the TMEM address into 'slot' here
    mma_ss(taddr, adesc, bdesc, idesc);
  }
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}

// Correct (DeepGEMM, CUTLASS): the descriptors encode shared-memory tiles
// (`__cvta_generic_to_shared(smem_ptr)`), the D operand is the TMEM
// address, and the TMEM address's own fields are taken apart (`taddr >>
// 16` is its lane) for other uses.
__global__ void descriptors_from_smem_ok(float *out, uint32_t idesc) {
  __shared__ uint32_t slot;
  __shared__ alignas(1024) uint8_t tile_a[128 * 128], tile_b[128 * 128];
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  tmem_sync();
  const uint32_t taddr = slot;
  if (threadIdx.x == 0) {
    const uint64_t adesc =
        make_smem_desc((uint32_t)__cvta_generic_to_shared(tile_a));
    const uint32_t b_addr = (uint32_t)__cvta_generic_to_shared(tile_b);
    const uint64_t bdesc =
        uint64_t((b_addr & 0x3FFFF) >> 4) | (uint64_t(1) << 46);
    mma_ss(taddr, adesc, bdesc, idesc);
  }
  out[threadIdx.x] = float((taddr >> 16) + (taddr & 0xFFFF));
  tmem_sync();
  if (warp == 0)
    tmem_dealloc(taddr);
}
