// A stand-in for the shapes of CUTLASS's SM100 kernel plumbing
// (cutlass/arch/barrier.h NamedBarrier, cute/arch/tmem_allocator_sm100.hpp,
// cutlass/arch/barrier.h umma_arrive): the asm is present only when the
// arch macros are defined, as CUTLASS compiles it out otherwise.
#pragma once
#include <cstdint>

#if defined(STUB_ARCH_ENABLED)
#define STUB_ASM(...) asm volatile(__VA_ARGS__)
#else
#define STUB_ASM(...) ((void)0)
#endif

namespace cutlass::arch {

enum class ReservedNamedBarriers {
  EpilogueBarrier = 1,
  TransposeBarrier = 2,
  TransformBarrier = 3,
  StreamkBarrier0 = 4,
  StreamkBarrier1 = 5,
  TmemAllocBarrier = 6,
  Sm120MainloopBarrier = 7,
  FirstUserBarrier = Sm120MainloopBarrier + 1
};

class NamedBarrier {
  uint32_t const num_threads_;
  uint32_t const id_;

public:
  static constexpr uint32_t ReservedNamedBarrierCount =
      static_cast<uint32_t>(ReservedNamedBarriers::FirstUserBarrier);

  __device__ NamedBarrier(uint32_t num_threads,
                          ReservedNamedBarriers reserved_named_barriers)
      : num_threads_(num_threads),
        id_(static_cast<uint32_t>(reserved_named_barriers)) {}
  __device__ NamedBarrier(uint32_t num_threads, uint32_t id = 0)
      : num_threads_(num_threads), id_(id + ReservedNamedBarrierCount) {}

  __device__ void arrive_and_wait() const {
    NamedBarrier::arrive_and_wait_internal(num_threads_, id_);
  }
  __device__ void arrive_and_wait_unaligned() const {
    NamedBarrier::arrive_and_wait_internal_unaligned(num_threads_, id_);
  }
  __device__ void arrive() const {
    NamedBarrier::arrive_internal(num_threads_, id_);
  }
  __device__ void arrive_unaligned() const {
    NamedBarrier::arrive_internal_unaligned(num_threads_, id_);
  }
  __device__ void sync() const { NamedBarrier::arrive_and_wait(); }

  __device__ static void arrive_and_wait(uint32_t num_threads,
                                         uint32_t barrier_id) {
    arrive_and_wait_internal(num_threads,
                             barrier_id + ReservedNamedBarrierCount);
  }
  __device__ static void arrive(uint32_t num_threads, uint32_t barrier_id) {
    arrive_internal(num_threads, barrier_id + ReservedNamedBarrierCount);
  }
  __device__ static void sync(uint32_t num_threads, uint32_t barrier_id) {
    arrive_and_wait_internal(num_threads,
                             barrier_id + ReservedNamedBarrierCount);
  }

private:
  __device__ static void arrive_and_wait_internal(uint32_t num_threads,
                                                  uint32_t barrier_id) {
    STUB_ASM("bar.sync %0, %1;" : : "r"(barrier_id), "r"(num_threads)
             : "memory");
  }
  __device__ static void
  arrive_and_wait_internal_unaligned(uint32_t num_threads,
                                     uint32_t barrier_id) {
    STUB_ASM("barrier.sync %0, %1;" : : "r"(barrier_id), "r"(num_threads)
             : "memory");
  }
  __device__ static void arrive_internal(uint32_t num_threads,
                                         uint32_t barrier_id) {
    STUB_ASM("bar.arrive %0, %1;" : : "r"(barrier_id), "r"(num_threads)
             : "memory");
  }
  __device__ static void arrive_internal_unaligned(uint32_t num_threads,
                                                   uint32_t barrier_id) {
    STUB_ASM("barrier.arrive %0, %1;" : : "r"(barrier_id), "r"(num_threads)
             : "memory");
  }
};

__device__ inline void fence_view_async_tmem_load() {
  STUB_ASM("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__device__ inline void umma_arrive(uint64_t const *smem_ptr) {
  uint32_t bar_intptr =
      static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  if (threadIdx.x % 32 == 0)
    STUB_ASM("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
             "cluster.b64 [%0];" ::"r"(bar_intptr));
}

} // namespace cutlass::arch

namespace cute::TMEM {

class Allocator1Sm {
public:
  static constexpr int ColumnsPerAllocationSlice = 32;
  static constexpr int Sm100TmemCapacityColumns = 512;

  __device__ Allocator1Sm() {}

  __device__ void allocate(int num_columns, uint32_t *dst_ptr) {
    uint32_t dst_intptr =
        static_cast<uint32_t>(__cvta_generic_to_shared(dst_ptr));
    STUB_ASM("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], "
             "%1;" : : "r"(dst_intptr), "r"(num_columns));
  }
  __device__ void free(uint32_t tmem_ptr, int num_columns) {
    STUB_ASM("{\n\t"
             "tcgen05.dealloc.cta_group::1.sync.aligned.b32  %0, %1; \n\t"
             "}" : : "r"(tmem_ptr), "r"(num_columns));
  }
  __device__ void release_allocation_lock() {
    STUB_ASM("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::);
  }
};

class Allocator2Sm {
public:
  static constexpr int ColumnsPerAllocationSlice = 32;
  static constexpr int Sm100TmemCapacityColumns = 512;

  __device__ Allocator2Sm() {}

  __device__ void allocate(int num_columns, uint32_t *dst_ptr) {
    uint32_t dst_intptr =
        static_cast<uint32_t>(__cvta_generic_to_shared(dst_ptr));
    STUB_ASM("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], "
             "%1;" : : "r"(dst_intptr), "r"(num_columns));
  }
  __device__ void free(uint32_t tmem_ptr, int num_columns) {
    STUB_ASM("{\n\t"
             "tcgen05.dealloc.cta_group::2.sync.aligned.b32  %0, %1; \n\t"
             "}" : : "r"(tmem_ptr), "r"(num_columns));
  }
  __device__ void release_allocation_lock() {
    STUB_ASM("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::);
  }
};

} // namespace cute::TMEM
