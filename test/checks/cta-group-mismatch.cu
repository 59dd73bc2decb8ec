// RUN: not %tmemcheck --checks='-*,tmem-cta-group-mismatch' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-cta-group-mismatch: one cta_group per kernel, callees included
// (rule A12). ptxas rejects this too, but only at the end of a build.

__device__ __forceinline__ void alloc2(uint32_t slot) {
  asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 "
               "[%0], 128;" :: "r"(slot));
}

__device__ __forceinline__ void commit1(uint32_t bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];" :: "r"(bar));
}

__global__ void mixed_in_callees(uint32_t slot, uint32_t bar) {
  if (threadIdx.x / 32 == 0)
    alloc2(slot);
  __syncthreads();
  // CHECK: cta-group-mismatch.cu:[[@LINE+3]]:5: error: kernel 'mixed_in_callees' mixes cta_group::1 and cta_group::2; every tcgen05 instruction of a kernel must use the same cta_group (rule A12) [tmem-cta-group-mismatch]
  // CHECK-NEXT: cta-group-mismatch.cu:12:17: note: 'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64' is issued here, inside 'commit1'
  // CHECK-NEXT: cta-group-mismatch.cu:18:5: note: cta_group::2 first used here
    commit1(bar);
}

__global__ void mixed_inline(uint32_t taddr, uint64_t desc) {
  asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;"
               :: "r"(taddr), "l"(desc));
  // CHECK: cta-group-mismatch.cu:[[@LINE+1]]:17: error: kernel 'mixed_inline' mixes cta_group::1 and cta_group::2;{{.*}}[tmem-cta-group-mismatch]
  asm volatile("tcgen05.shift.cta_group::2.down [%0];" :: "r"(taddr));
  // Only the first conflicting instruction is reported.
  asm volatile("tcgen05.shift.cta_group::2.down [%0];" :: "r"(taddr));
}

// Must not be flagged: one cta_group throughout, instructions without a
// cta_group (ld, wait, fence) mixed with ::2 ones, and two kernels that each
// use a different cta_group.
__global__ void pair_kernel(uint32_t slot, uint32_t taddr) {
  if (threadIdx.x / 32 == 0)
    alloc2(slot);
  uint32_t r0;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r0) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;");
  asm volatile("tcgen05.fence::before_thread_sync;");
  asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, 128;"
               :: "r"(taddr));
}

__global__ void single_kernel(uint32_t bar) { commit1(bar); }
