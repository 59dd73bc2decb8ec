// RUN: %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty --implicit-check-not="[tmem-"
// RUN: %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTORE_S0 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED -DSTORE_S0 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: %tmemcheck-bin --no-cuda --dump-events --checks='-*,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=EVENTS
//
// One softmax body for two warpgroups, each with its own pipeline object
// picked by a conditional (CUTLASS 77 FMHA's kernel passes `is_softmax_0 ?
// pipeline_s0_corr : pipeline_s1_corr` to the softmax, whose pipelines
// reach their barriers through the pointers their constructors keep): the
// barrier the body waits on is its own object's in each thread, not an
// unknown barrier (which counts as a wait on every barrier of the kernel).
// A third warpgroup stores into softmax 1's S columns and signals softmax
// 0's pipeline before its tcgen05.wait::st: softmax 0 touches S0 only, so
// nothing pending is handed over. Stored into S0 (STORE_S0), the same
// signal hands softmax 0 columns that may still be written.
//
// CLEAN-NOT: error
// EVENTS-LABEL: kernel chosen_pipeline
// EVENTS: mbarrier.try_wait.parity.shared::cta.b64 ? &full_barrier_[0] (one of 2 arrays by thread)

#include "cute_role_helpers.h"
#include "cute_tensor_stub.h"

using namespace cute;

enum class TmemAllocation : uint32_t { S0 = 0, S1 = 128, O0 = 256 };

enum class WarpRole { Softmax0, Softmax1, Correction };
__device__ constexpr WarpRole warp_idx_to_role(int warp_idx) {
  return warp_idx < 4 ? WarpRole::Softmax0
         : warp_idx < 8 ? WarpRole::Softmax1
                        : WarpRole::Correction;
}

/// A one-stage producer/consumer pipeline (sm90_pipeline.hpp PipelineAsync):
/// the constructor keeps pointers to its barriers.
struct Pipeline {
  struct SharedStorage {
    uint64_t full_barrier_[1];
    uint64_t empty_barrier_[1];
  };
  __device__ explicit Pipeline(SharedStorage &storage)
      : full_barrier_ptr_(&storage.full_barrier_[0]),
        empty_barrier_ptr_(&storage.empty_barrier_[0]) {}
  __device__ void producer_commit(PipelineState<1> state) {
    mbar_arrive(&full_barrier_ptr_[state.index()]);
  }
  __device__ void consumer_wait(PipelineState<1> state) {
    mbar_wait(&full_barrier_ptr_[state.index()], state.phase());
  }
  __device__ void consumer_release(PipelineState<1> state) {
    mbar_arrive(&empty_barrier_ptr_[state.index()]);
  }

private:
  uint64_t *full_barrier_ptr_;
  uint64_t *empty_barrier_ptr_;
};

struct SharedStorage {
  Pipeline::SharedStorage s0_corr;
  Pipeline::SharedStorage s1_corr;
  uint32_t tmem_base;
};

// One softmax body for both warpgroups: the S columns are the stage's.
__device__ void softmax(int stage, Pipeline &pipeline, int k_tiles) {
  int thread_idx = threadIdx.x % 128;
  UmmaTiledMma<128, 128> mma;
  Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
  tStS.data() = uint32_t(stage == 0 ? TmemAllocation::S0 : TmemAllocation::S1);
  auto tiled_load = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tStS);
  Tensor tLoad = tiled_load.get_slice(thread_idx).partition_S(tStS);
  PipelineState<1> state(0, 0, 0);
  for (int k = 0; k < k_tiles; ++k) {
    pipeline.consumer_wait(state);
    uint32_t s[8];
    copy(tiled_load, tLoad, s);
    wait_ld();
    pipeline.consumer_release(state);
    ++state;
  }
}

// The third warpgroup writes statistics for one softmax warpgroup.
__device__ void correction(Pipeline &pipeline_s0, int k_tiles) {
  int thread_idx = threadIdx.x % 128;
  UmmaTiledMma<128, 128> mma;
  Tensor tCtS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
#ifdef STORE_S0
  tCtS.data() = uint32_t(TmemAllocation::S0);
#else
  tCtS.data() = uint32_t(TmemAllocation::S1);
#endif
  auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tCtS);
  Tensor tStore = tiled_store.get_slice(thread_idx).partition_D(tCtS);
  PipelineState<1> state(0, 0, 0);
  for (int k = 0; k < k_tiles; ++k) {
    uint32_t v[2] = {1u, 2u};
    copy(tiled_store, v, tStore);
    // CHECK: cute-tensor-chosen-pipeline.cu:[[@LINE+3]]:5: error: this mbarrier arrive lets other threads read columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
    // CHECK: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'Pipeline::producer_commit'
    // CHECK: cute-tensor-chosen-pipeline.cu:[[@LINE-3]]:5: note: the tcgen05.st is issued here
    pipeline_s0.producer_commit(state);
    wait_st();
    ++state;
  }
}

__global__ void __launch_bounds__(384) chosen_pipeline(int k_tiles) {
  extern __shared__ char smem[];
  SharedStorage &storage = *reinterpret_cast<SharedStorage *>(smem);
  TMEM::Allocator1Sm alloc;
  int warp = canonical_warp_idx_sync();
  WarpRole role = warp_idx_to_role(warp);
  if (warp == 0) {
    alloc.allocate(512, &storage.tmem_base);
    alloc.release_allocation_lock();
  }
  __syncthreads();
  Pipeline pipeline_s0_corr(storage.s0_corr);
  Pipeline pipeline_s1_corr(storage.s1_corr);
  bool is_softmax_0 = role == WarpRole::Softmax0;
  if (role == WarpRole::Softmax0 || role == WarpRole::Softmax1)
    softmax(is_softmax_0 ? 0 : 1,
            is_softmax_0 ? pipeline_s0_corr : pipeline_s1_corr, k_tiles);
  else
    correction(pipeline_s0_corr, k_tiles);
  __syncthreads();
  if (warp == 0)
    alloc.free(storage.tmem_base, 512);
}
