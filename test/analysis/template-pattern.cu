// RUN: not %tmemcheck --checks='-*,tmem-leak,tmem-dealloc-unallocated,tmem-alloc-ncols' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// Kernel templates that are never instantiated in the TU (DeepGEMM and
// TileLang instantiate them at run time) are analysed as patterns: values
// that depend on template parameters are unknown, calls that depend on them
// are opaque, and the lifecycle checks still run on what is visible.

template <typename Policy>
__device__ __forceinline__ void policy_free(uint32_t taddr);

template <uint32_t kCols, typename Policy>
__global__ void pattern_leaks(int num_tiles) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    // CHECK: template-pattern.cu:[[@LINE+1]]:19: error: TMEM allocated into 'slot' is still allocated when the kernel exits on some path;{{.*}}[tmem-leak]
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], %1;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))),
                    "r"(kCols));
  __syncthreads();
  // CHECK: template-pattern.cu:[[@LINE+1]]:32: note: the kernel can exit here with the columns allocated
  if (blockIdx.x >= num_tiles) return;
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(slot), "r"(kCols));
}

// Must not be flagged: the free goes through a call that depends on the
// template parameter, so it cannot be seen; the column count is unknown.
template <uint32_t kCols, typename Policy>
__global__ void pattern_frees_through_policy() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], %1;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))),
                    "r"(kCols));
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    Policy::free(slot, kCols);
}
