// RUN: %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty --implicit-check-not="[tmem-"
// RUN: %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DS1_COLUMN=64 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED -DS1_COLUMN=64 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: %tmemcheck-bin --no-cuda --dump-events --checks='-*,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=EVENTS
//
// One copy of the softmax code serves two warpgroups (CUTLASS 77 FMHA's
// sm100_fmha_fwd_mainloop_tma_warpspecialized.hpp): the role picks the
// stage at run time, and with it the S columns (`tStS.data() = stage == 0 ?
// S0 : S1`) and the ordering barrier each warpgroup waits on and signals
// (an OrderedSequenceBarrier: group g waits on barrier g and arrives on
// barrier g + 1). Softmax 0 signals softmax 1 right after storing P, before
// its tcgen05.wait::st; softmax 1 then touches only its own S1 columns, so
// nothing pending is handed over. The tensor's columns are known thread by
// thread, and so is the barrier element: the stores of the arriving threads
// are compared with the accesses of the threads that wait on that element.
// The warps past `__launch_bounds__(256)` (whose role would be Empty, with
// group 0 but stage 1) never run and do not count. When S1 is laid over S0
// (S1_COLUMN=64), softmax 1 reads columns softmax 0 may still be writing.
//
// CLEAN-NOT: error
// EVENTS-LABEL: kernel fmha_softmax_order
// EVENTS: mbarrier.try_wait.parity.shared::cta.b64 ? &barrier_[0][]+{0,8}
// EVENTS: tcgen05.st.sync.aligned.32x32b.x2.b32 tmem(tmem_base+l?,c[0..255]<256)
// EVENTS: mbarrier.arrive.shared::cta.b64 ? &barrier_[0][]+{0,8}

#include "cute_role_helpers.h"
#include "cute_tensor_stub.h"

using namespace cute;

#ifndef S1_COLUMN
#define S1_COLUMN 128
#endif
enum class TmemAllocation : uint32_t { S0 = 0, S1 = S1_COLUMN, O0 = 256 };

// CUTLASS's OrderedSequenceBarrier<1, 2>: group g waits on its own barrier and
// signals the next group's, the element `stage * 2 + g`. With one stage
// the index stays 0.
template <int Depth, int Length> struct OrderedSequenceBarrier {
  struct SharedStorage {
    uint64_t barrier_[Depth][Length];
  };
  struct Params {
    uint32_t group_id;
    uint32_t group_size;
  };
  __device__ OrderedSequenceBarrier(SharedStorage &storage, Params const &params)
      : params_(params), barrier_ptr_(&storage.barrier_[0][0]),
        stage_({0, params.group_id == 0, 0}) {
    // As CUTLASS: one thread initialises every barrier, by loop indices.
    if (threadIdx.x == 0)
      for (int d = 0; d < Depth; ++d)
        for (int l = 0; l < Length; ++l)
          mbar_init(&barrier_ptr_[d * Length + l], params.group_size);
  }
  __device__ void wait() {
    mbar_wait(&get_barrier_for_current_stage(params_.group_id), stage_.phase());
  }
  __device__ void arrive() {
    int signalling_id = (params_.group_id + 1) % Length;
    mbar_arrive(&get_barrier_for_current_stage(signalling_id));
    ++stage_;
  }

private:
  __device__ uint64_t &get_barrier_for_current_stage(int group_id) {
    return barrier_ptr_[stage_.index() * Length + group_id];
  }
  Params params_;
  uint64_t *barrier_ptr_;
  PipelineState<Depth> stage_;
};
using OrderBarrier = OrderedSequenceBarrier<1, 2>;

enum class WarpRole { Softmax0, Softmax1, Empty };
__device__ constexpr WarpRole warp_idx_to_role(int warp_idx) {
  return warp_idx < 4 ? WarpRole::Softmax0
         : warp_idx < 8 ? WarpRole::Softmax1
                        : WarpRole::Empty;
}

// One softmax body for both warpgroups: the S columns are the stage's.
__device__ void softmax(int stage, OrderBarrier &order, int k_tiles) {
  int thread_idx = threadIdx.x % 128;
  UmmaTiledMma<128, 128> mma;
  Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
  tStS.data() = uint32_t(stage == 0 ? TmemAllocation::S0 : TmemAllocation::S1);
  auto tiled_load = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tStS);
  auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tStS);
  Tensor tLoad = tiled_load.get_slice(thread_idx).partition_S(tStS);
  Tensor tStore = tiled_store.get_slice(thread_idx).partition_D(tStS);
  for (int k = 0; k < k_tiles; ++k) {
    order.wait();
    uint32_t s[8];
    copy(tiled_load, tLoad, s);
    wait_ld();
    uint32_t p[2] = {s[0] * 3, s[1] * 3};
    copy(tiled_store, p, tStore);
    // CHECK: cute-tensor-runtime-stage.cu:[[@LINE+3]]:5: error: this mbarrier arrive lets other threads read columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
    // CHECK: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'OrderedSequenceBarrier<1, 2>::arrive'
    // CHECK: cute-tensor-runtime-stage.cu:[[@LINE-3]]:5: note: the tcgen05.st is issued here
    order.arrive();
    wait_st();
  }
}

__global__ void __launch_bounds__(256) fmha_softmax_order(int k_tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ OrderBarrier::SharedStorage order_s01;
  TMEM::Allocator1Sm alloc;
  int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  WarpRole role = warp_idx_to_role(warp);
  if (warp == 0) {
    alloc.allocate(512, &tmem_base);
    alloc.release_allocation_lock();
  }
  __syncthreads();
  OrderBarrier::Params params_order_s01;
  params_order_s01.group_id = role == WarpRole::Softmax1 ? 1 : 0;
  params_order_s01.group_size = 128;
  OrderBarrier order_s(order_s01, params_order_s01);
  bool is_softmax_0 = role == WarpRole::Softmax0;
  softmax(is_softmax_0 ? 0 : 1, order_s, k_tiles);
  __syncthreads();
  if (warp == 0)
    alloc.free(tmem_base, 512);
}
