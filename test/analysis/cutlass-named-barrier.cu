// RUN: not %tmemcheck --checks='-*,tmem-missing-fence,tmem-dealloc-race,tmem-addr-publish-race' %s -- -I%S/Inputs/cutlass 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-fence,tmem-dealloc-race,tmem-addr-publish-race' %s -- -I%S/Inputs/cutlass -DSTUB_ARCH_ENABLED 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: %tmemcheck-bin --no-cuda --dump-events --checks='-*,tmem-leak' %s -- -I%S/Inputs/cutlass 2>&1 | FileCheck %s --check-prefix=EVENTS
// RUN: %tmemcheck-bin --no-cuda --dump-events --checks='-*,tmem-leak' %s -- -I%S/Inputs/cutlass -DSTUB_ARCH_ENABLED 2>&1 | FileCheck %s --check-prefix=EVENTS
//
// CUTLASS's NamedBarrier (Inputs/cutlass mimics cutlass/arch/barrier.h):
// its id and thread count are fields set by the constructor, and its asm is
// compiled out without CUDA_BARRIER_ENABLED. The calls are modelled by
// name, with the operands of the object's construction, so both forms give
// the same barriers: a reserved id as is, a user id offset by the 8
// reserved ones, the static forms with their arguments.
#include "cutlass_sm100_stub.h"

struct SharedStorage {
  uint32_t tmem_base_ptr;
  uint64_t acc_full;
};

// The SM100 GEMM kernels' TMEM allocation sequence: the MMA warp
// allocates, arrives on tmem_allocation_result_barrier and frees after the
// epilogue's last arrive; the epilogue waits on it before reading the slot.
// EVENTS-LABEL: kernel cutlass_roles:
// EVENTS-DAG: 45:5 bar.sync =6 =160
// EVENTS-DAG: 55:5 bar.arrive =6 =160
// EVENTS-DAG: 37:5 bar.arrive =6 =160
// EVENTS-DAG: 41:5 bar.sync =6 =160
__global__ void cutlass_roles(float *out) {
  __shared__ SharedStorage shared_storage;
  const int warp_idx = threadIdx.x / 32;
  cute::TMEM::Allocator1Sm tmem_allocator{};
  cutlass::arch::NamedBarrier tmem_allocation_result_barrier(
      32 + 128, cutlass::arch::ReservedNamedBarriers::TmemAllocBarrier);
  if (warp_idx == 0) {
    tmem_allocator.allocate(cute::TMEM::Allocator1Sm::Sm100TmemCapacityColumns,
                            &shared_storage.tmem_base_ptr);
    __syncwarp();
    tmem_allocation_result_barrier.arrive();
    uint32_t tmem_base_ptr = shared_storage.tmem_base_ptr;
    tmem_allocator.release_allocation_lock();
    cutlass::arch::umma_arrive(&shared_storage.acc_full);
    tmem_allocation_result_barrier.arrive_and_wait();
    tmem_allocator.free(tmem_base_ptr,
                        cute::TMEM::Allocator1Sm::Sm100TmemCapacityColumns);
  } else if (warp_idx >= 4) {
    tmem_allocation_result_barrier.arrive_and_wait();
    uint32_t tmem_base_ptr = shared_storage.tmem_base_ptr;
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    uint32_t r;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(r)
                 : "r"(tmem_base_ptr + (((warp_idx % 4) * 32) << 16)));
    cutlass::arch::fence_view_async_tmem_load();
    out[threadIdx.x] = __uint_as_float(r);
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    tmem_allocation_result_barrier.arrive();
  }
}

// The epilogue loads right after the barrier, without
// tcgen05.fence::after_thread_sync, and arrives without before_thread_sync.
__global__ void epilogue_without_fences(float *out) {
  __shared__ SharedStorage shared_storage;
  const int warp_idx = threadIdx.x / 32;
  cute::TMEM::Allocator1Sm tmem_allocator{};
  cutlass::arch::NamedBarrier tmem_allocation_result_barrier(
      32 + 128, cutlass::arch::ReservedNamedBarriers::TmemAllocBarrier);
  if (warp_idx == 0) {
    tmem_allocator.allocate(512, &shared_storage.tmem_base_ptr);
    __syncwarp();
    tmem_allocation_result_barrier.arrive();
    uint32_t tmem_base_ptr = shared_storage.tmem_base_ptr;
    tmem_allocator.release_allocation_lock();
    tmem_allocation_result_barrier.arrive_and_wait();
    tmem_allocator.free(tmem_base_ptr, 512);
  } else if (warp_idx >= 4) {
    tmem_allocation_result_barrier.arrive_and_wait();
    uint32_t tmem_base_ptr = shared_storage.tmem_base_ptr;
    uint32_t r;
    // CHECK: cutlass-named-barrier.cu:[[@LINE+2]]:19: warning: tcgen05.ld follows thread synchronisation without tcgen05.fence::after_thread_sync, so it is not ordered after the other threads' tcgen05 work (rules §5.3) [tmem-missing-fence]
    // CHECK-NEXT: cutlass-named-barrier.cu:[[@LINE-4]]:5: note: the synchronisation is here; put tcgen05.fence::after_thread_sync after it
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(r)
                 : "r"(tmem_base_ptr + (((warp_idx % 4) * 32) << 16)));
    cutlass::arch::fence_view_async_tmem_load();
    out[threadIdx.x] = __uint_as_float(r);
    // CHECK: cutlass-named-barrier.cu:[[@LINE+2]]:5: warning: this synchronisation hands tcgen05 work to other threads without tcgen05.fence::before_thread_sync after the tcgen05.ld (rules §5.3) [tmem-missing-fence]
    // CHECK-NEXT: cutlass-named-barrier.cu:[[@LINE-6]]:19: note: the tcgen05.ld is issued here
    tmem_allocation_result_barrier.arrive();
  }
}

// Every warp reads its quarter; the four warps meet at a user barrier (id 1:
// hardware barrier 9) before warp 0 frees: ordered, silent.
// EVENTS-LABEL: kernel quarters_then_free:
// EVENTS: bar.sync =9 =128
__global__ void quarters_then_free(float *out) {
  __shared__ uint32_t slot;
  const int warp_idx = threadIdx.x / 32;
  cute::TMEM::Allocator1Sm allocator;
  cutlass::arch::NamedBarrier epilogue_barrier(128, 1);
  if (warp_idx == 0) {
    allocator.allocate(128, &slot);
    allocator.release_allocation_lock();
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t tmem = slot;
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r)
               : "r"(tmem + ((warp_idx * 32) << 16)));
  cutlass::arch::fence_view_async_tmem_load();
  out[threadIdx.x] = __uint_as_float(r);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  epilogue_barrier.arrive_and_wait();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp_idx == 0)
    allocator.free(tmem, 128);
}

// The static form (user id 2: barrier 10) by all four warps: ordered, silent.
// Without the model, the compiled-out form would have no barrier here and
// the free would race with the other warps' loads.
// EVENTS-LABEL: kernel static_barrier_then_free:
// EVENTS: bar.sync =10 =128
__global__ void static_barrier_then_free(float *out) {
  __shared__ uint32_t slot;
  const int warp_idx = threadIdx.x / 32;
  cute::TMEM::Allocator1Sm allocator;
  if (warp_idx == 0) {
    allocator.allocate(128, &slot);
    allocator.release_allocation_lock();
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t tmem = slot;
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r)
               : "r"(tmem + ((warp_idx * 32) << 16)));
  cutlass::arch::fence_view_async_tmem_load();
  out[threadIdx.x] = __uint_as_float(r);
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  cutlass::arch::NamedBarrier::sync(128, 2);
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp_idx == 0)
    allocator.free(tmem, 128);
}

// The barrier object comes from the caller: its id and count are unknown,
// but it is still a barrier, also inside a helper whose only content is
// the (compiled-out) call: the arrive hands the load's columns on without
// tcgen05.fence::before_thread_sync.
// EVENTS-LABEL: kernel barrier_from_caller:
// EVENTS: bar.arrive ? ?
__device__ void arrive_on(cutlass::arch::NamedBarrier const &b) { b.arrive(); }
__global__ void barrier_from_caller() {
  cutlass::arch::NamedBarrier b(64, 3);
  uint32_t r;
  // CHECK: cutlass-named-barrier.cu:[[@LINE+6]]:3: warning: this synchronisation hands tcgen05 work to other threads without tcgen05.fence::before_thread_sync after the tcgen05.ld (rules §5.3) [tmem-missing-fence]
  // CHECK-NEXT: cutlass-named-barrier.cu:[[@LINE-5]]:67: note: 'bar.arrive' is issued here, inside 'arrive_on'
  // CHECK-NEXT: cutlass-named-barrier.cu:[[@LINE+1]]:17: note: the tcgen05.ld is issued here
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(0u));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  arrive_on(b);
}
