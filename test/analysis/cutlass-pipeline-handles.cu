// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st,tmem-accumulator-read-before-commit' %s -- -I%S/Inputs/cutlass 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// Barrier identity through CUTLASS's pipeline objects (Inputs/cutlass mimics
// cutlass/arch/barrier.h and the SM90/SM100 pipelines): the mbarriers sit in
// a SharedStorage carved out of dynamic shared memory, each pipeline keeps
// pointers to its barrier arrays, one pipeline wraps another, and the stage
// is a run-time index. The epilogue of a warp-specialised GEMM loads the
// accumulator for every subtile and releases the C-load pipeline's stage
// (whose only waiter is the TMA producer, which never touches TMEM) while
// that load is in flight; it waits for its loads only before it hands the
// accumulator back to the MMA warp. Correct, as in CUTLASS's
// sm100_gemm_tma_warpspecialized epilogue. The bug variant hands the
// accumulator back before the wait. The pipelines reach the epilogue by
// value, through a lambda's captures, and the MMA warp through a
// structured binding; the barrier arrays are cute::arrays reached through
// data() and operator[], and the pipelines' constructors delegate.
#include "cutlass_pipeline_stub.h"

constexpr int kAccStages = 2;
constexpr int kCStages = 4;
using AccPipeline = cutlass::PipelineUmmaAsync<kAccStages>;
using CPipeline = cutlass::PipelineAsync<kCStages>;
// The same type as the accumulator pipeline's inner PipelineAsync: its
// barriers are told apart by where they sit in the shared storage.
using OrderPipeline = cutlass::PipelineAsync<kAccStages>;

struct SharedStorage {
  struct Pipelines {
    AccPipeline::SharedStorage accumulator;
    CPipeline::SharedStorage epi_load;
    OrderPipeline::SharedStorage order;
  } pipelines;
  float c_tile[kCStages][128];
  uint32_t tmem_base;
};

__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b,
                                    uint32_t acc) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200490u), "r"(acc)
               : "memory");
}
__device__ __forceinline__ uint32_t ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr) : "memory");
  return r;
}

/// The epilogue, as CUTLASS's collective: the pipelines arrive by value,
/// and the subtile loop is a lambda that captures them by reference.
struct CollectiveEpilogue {
  template <bool kEarlyRelease>
  __device__ void store(CPipeline c_pipeline, AccPipeline acc_pipeline,
                        OrderPipeline order_pipeline, uint32_t tmem, float *out,
                        const float *c_tile, int tiles) {
    const uint32_t warp = threadIdx.x / 32;
    const uint32_t lanes = ((warp % 4) * 32) << 16;
    cutlass::PipelineState<kAccStages> acc_state;
    cutlass::PipelineState<kCStages> c_state;
    cutlass::PipelineState<kAccStages> order_state;
    auto epi_loop = [&](int t) {
      acc_pipeline.consumer_wait(acc_state);
      for (int n = 0; n < 4; ++n) {
        c_pipeline.consumer_wait(c_state);
        uint32_t r = ld(tmem + acc_state.index() * 128 + n * 32 + lanes);
        float cv = c_tile[c_state.index() * 128 + threadIdx.x % 32];
        // Not releases of TMEM: only the C-load warp waits on these.
        c_pipeline.consumer_release(c_state);
        order_pipeline.consumer_wait(order_state);
        order_pipeline.consumer_release(order_state);
        ++order_state;
        ++c_state;
        if (kEarlyRelease && n == 3)
          acc_pipeline.consumer_release(acc_state);
        if (n == 3) {
          cutlass::arch::fence_view_async_tmem_load();
          if (!kEarlyRelease)
            acc_pipeline.consumer_release(acc_state);
        }
        out[(t * 4 + n) * 128 + threadIdx.x % 128] = __uint_as_float(r) + cv;
      }
      ++acc_state;
    };
    for (int t = 0; t < tiles; ++t)
      epi_loop(t);
  }
};

struct Pipelines {
  AccPipeline acc;
  CPipeline c;
};

template <bool kEarlyRelease>
__device__ __forceinline__ void gemm(float *out, const float *c, uint64_t da,
                                     uint64_t db, int tiles) {
  extern __shared__ char smem[];
  SharedStorage &ss = *reinterpret_cast<SharedStorage *>(smem);
  const uint32_t warp = threadIdx.x / 32;
  AccPipeline acc_pipeline(ss.pipelines.accumulator, AccPipeline::Params{});
  CPipeline c_pipeline(ss.pipelines.epi_load, CPipeline::Params{});
  OrderPipeline order_pipeline(ss.pipelines.order, OrderPipeline::Params{});
  // A scheduler pipeline the MMA warp waits on every tile, built by a
  // lambda called on the spot, as CUTLASS's grouped GEMM builds its CLC
  // pipeline (sm100_gemm_array_tma_warpspecialized.hpp): its barriers are
  // the ones the constructor in the taken `if constexpr` arm keeps, not an
  // unknown barrier (a wait on which would let in every release).
  using SchedPipeline = cutlass::PipelineAsync<3>;
  __shared__ SchedPipeline::SharedStorage sched_storage;
  SchedPipeline sched_pipeline = [&]() {
    if constexpr (kAccStages == 2)
      return SchedPipeline(sched_storage, SchedPipeline::Params{});
    else
      return SchedPipeline(sched_storage, SchedPipeline::Params{}, true);
  }();
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 256;" :: "r"(cute::cast_smem_ptr_to_uint(&ss.tmem_base)));
    asm volatile(
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t tmem = ss.tmem_base;
  if (warp == 0) {
    // MMA: one accumulator stage per tile, reused once the epilogue hands
    // it back. The pipeline comes out of a structured binding, as in
    // CUTLASS's collective mma (`auto [mainloop_pipeline, ...] = pipelines`).
    auto [acc, unused] = Pipelines{acc_pipeline, c_pipeline};
    cutlass::PipelineState<kAccStages> acc_state;
    cutlass::PipelineState<3> sched_state;
    for (int t = 0; t < tiles; ++t) {
      sched_pipeline.consumer_wait(sched_state);
      sched_pipeline.consumer_release(sched_state);
      ++sched_state;
      acc.producer_acquire(acc_state);
      if (threadIdx.x % 32 == 0) {
        mma(tmem + acc_state.index() * 128, da, db, 0);
        acc.producer_commit(acc_state);
      }
      ++acc_state;
    }
  } else if (warp == 1) {
    // Epilogue load: fills the C stages with plain stores (TMA in CUTLASS).
    cutlass::PipelineState<kCStages> c_state;
    cutlass::PipelineState<kAccStages> order_state;
    for (int i = 0; i < tiles * 4; ++i) {
      c_pipeline.producer_acquire(c_state);
      ss.c_tile[c_state.index()][threadIdx.x % 32] = c[i];
      c_pipeline.producer_commit(c_state);
      ++c_state;
      order_pipeline.producer_acquire(order_state);
      order_pipeline.producer_commit(order_state);
      ++order_state;
    }
  } else if (warp == 2) {
    // The scheduler: one work tile per trip.
    cutlass::PipelineState<3> sched_state;
    for (int t = 0; t < tiles; ++t) {
      sched_pipeline.producer_acquire(sched_state);
      sched_pipeline.producer_commit(sched_state);
      ++sched_state;
    }
  } else if (warp >= 4) {
    CollectiveEpilogue epilogue;
    epilogue.store<kEarlyRelease>(c_pipeline, acc_pipeline, order_pipeline,
                                  tmem, out, &ss.c_tile[0][0], tiles);
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(tmem));
}

// Correct: the C stage's release with the load in flight is fine.
__global__ void __launch_bounds__(256)
    epilogue_ok(float *out, const float *c, uint64_t da, uint64_t db,
                int tiles) {
  gemm<false>(out, c, da, db, tiles);
}

// Bug: the accumulator stage is handed back before its loads completed.
__global__ void __launch_bounds__(256)
    accumulator_released_early(float *out, const float *c, uint64_t da,
                               uint64_t db, int tiles) {
  // Reported at the collective's consumer_release (line 76), where the
  // release's call chain and the load's part.
  // CHECK: cutlass-pipeline-handles.cu:76:11: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
  // CHECK-NEXT: cutlass_pipeline_stub.h:70:21: note: 'mbarrier.arrive.shared::cluster.b64' is issued here, inside 'cutlass::PipelineUmmaAsync<2>::consumer_release'
  // CHECK-NEXT: cutlass-pipeline-handles.cu:67:22: note: the tcgen05.ld is issued here
  gemm<true>(out, c, da, db, tiles);
}
