// RUN: not %tmemcheck --checks='-*,tmem-alloc-ncols,tmem-leak,tmem-divergent-collective,tmem-single-thread-op-by-warp,tmem-cta-group-mismatch' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// CUTLASS compiles its SM100 wrappers out under Clang (rules §7), so they
// are recognised by name (rules §7.2): here they are only declared, as a
// Clang parse of CUTLASS leaves them without tcgen05 code.

namespace cute::TMEM {
struct Allocator1Sm {
  __device__ void allocate(int num_columns, uint32_t *dst_ptr);
  __device__ void free(uint32_t tmem_ptr, int num_columns);
  __device__ void release_allocation_lock();
};
struct Allocator2Sm {
  __device__ void allocate(int num_columns, uint32_t *dst_ptr);
  __device__ void free(uint32_t tmem_ptr, int num_columns);
  __device__ void release_allocation_lock();
};
} // namespace cute::TMEM
namespace cutlass::arch {
__device__ void umma_arrive(uint64_t const *smem_ptr);
__device__ void umma_arrive_multicast_no_elect(uint64_t const *smem_ptr,
                                               uint16_t cta_mask);
} // namespace cutlass::arch

__global__ void cutlass_style(int num_tiles) {
  __shared__ uint32_t slot;
  __shared__ uint64_t bar;
  cute::TMEM::Allocator1Sm allocator;
  const uint32_t warp_idx = threadIdx.x / 32;
  if (warp_idx == 0) {
    // CHECK: api-models.cu:[[@LINE+5]]:5: error: tcgen05.alloc requests 96 columns;{{.*}}[tmem-alloc-ncols]
    // CHECK-NEXT: fix-it:"{{.*}}api-models.cu":{[[@LINE+4]]:24-[[@LINE+4]]:26}:"128"
    // CHECK-NEXT: api-models.cu:[[@LINE+3]]:5: note: use 128 columns, the next legal size
    // CHECK-NEXT: api-models.cu:[[@LINE+2]]:5: error: TMEM allocated into 'slot' (96 columns) is still allocated when the kernel exits on some path;{{.*}}[tmem-leak]
    // CHECK-NEXT: api-models.cu:[[@LINE+11]]:32: note: the kernel can exit here with the columns allocated
    allocator.allocate(96, &slot);
    allocator.release_allocation_lock();
  }
  __syncthreads();
  // umma_arrive elects a thread itself: not a whole-warp commit.
  if (warp_idx == 1)
    cutlass::arch::umma_arrive(&bar);
  // CHECK: api-models.cu:[[@LINE+2]]:5: error: tcgen05.commit is a single-thread operation, but every thread that reaches it issues one (32 per warp); elect one thread, e.g. with elect.sync [tmem-single-thread-op-by-warp]
  if (warp_idx == 1)
    cutlass::arch::umma_arrive_multicast_no_elect(&bar, 0x3);
  if (blockIdx.x >= num_tiles) return;
  __syncthreads();
  // CHECK: api-models.cu:[[@LINE+3]]:5: error: tcgen05.dealloc frees 96 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: fix-it:"{{.*}}api-models.cu":{[[@LINE+2]]:26-[[@LINE+2]]:28}:"128"
  if (warp_idx == 0)
    allocator.free(slot, 96);
}
