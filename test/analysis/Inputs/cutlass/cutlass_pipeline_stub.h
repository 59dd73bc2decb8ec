// A stand-in for the shapes of CUTLASS's SM100 pipelines
// (cutlass/arch/barrier.h ClusterBarrier, cutlass/pipeline/sm90_pipeline.hpp
// PipelineAsync, sm100_pipeline.hpp PipelineUmmaAsync): the mbarriers live in
// a SharedStorage struct carved out of dynamic shared memory, each pipeline
// object keeps pointers to its full and empty barrier arrays (set in its
// constructor, one pipeline wrapping another as a member), and the stage is
// a run-time index held in a PipelineState. The asm is CUTLASS's.
#pragma once
#include <cstdint>

namespace cute {
__device__ inline uint32_t cast_smem_ptr_to_uint(void const *const ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}
} // namespace cute

namespace cutlass::arch {

struct ClusterBarrier {
  using ValueType = uint64_t;

protected:
  ValueType barrier_;

public:
  __device__ void init(uint32_t arrive_count) const {
    ClusterBarrier::init(&this->barrier_, arrive_count);
  }
  __device__ void wait(uint32_t phase) const {
    ClusterBarrier::wait(&this->barrier_, phase);
  }
  __device__ void arrive(uint32_t cta_id, uint32_t pred = true) const {
    ClusterBarrier::arrive(&this->barrier_, cta_id, pred);
  }
  __device__ void arrive() const { ClusterBarrier::arrive(&this->barrier_); }

  __device__ static void init(ValueType const *smem_ptr,
                              uint32_t arrive_count) {
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("{\n\t"
                 "mbarrier.init.shared::cta.b64 [%1], %0; \n"
                 "}"
                 :
                 : "r"(arrive_count), "r"(smem_addr)
                 : "memory");
  }
  __device__ static void wait(ValueType const *smem_ptr, uint32_t phase) {
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    uint32_t ticks = 0x989680;
    asm volatile("{\n\t"
                 ".reg .pred       P1; \n\t"
                 "LAB_WAIT: \n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2; "
                 "\n\t"
                 "@P1 bra DONE; \n\t"
                 "bra     LAB_WAIT; \n\t"
                 "DONE: \n\t"
                 "}"
                 :
                 : "r"(smem_addr), "r"(phase), "r"(ticks)
                 : "memory");
  }
  __device__ static void arrive(ValueType const *smem_ptr, uint32_t cta_id,
                                uint32_t pred) {
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    if (pred) {
      asm volatile("{\n\t"
                   ".reg .b32 remAddr32;\n\t"
                   "mapa.shared::cluster.u32  remAddr32, %0, %1;\n\t"
                   "mbarrier.arrive.shared::cluster.b64  _, [remAddr32];\n\t"
                   "}"
                   :
                   : "r"(smem_addr), "r"(cta_id)
                   : "memory");
    }
  }
  __device__ static void arrive(ValueType const *smem_ptr) {
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("{\n\t"
                 "mbarrier.arrive.shared::cta.b64 _, [%0];\n\t"
                 "}"
                 :
                 : "r"(smem_addr)
                 : "memory");
  }
};

__device__ inline void fence_view_async_tmem_load() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__device__ inline void umma_arrive(uint64_t const *smem_ptr) {
  uint32_t bar_intptr = cute::cast_smem_ptr_to_uint(smem_ptr);
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(bar_intptr));
}

} // namespace cutlass::arch

namespace cute {
/// cute::array: the storage is a member array, reached through data() and
/// operator[].
template <class T, int N> struct array {
  T __elems_[N];
  __device__ T *data() { return __elems_; }
  __device__ T &operator[](int i) { return __elems_[i]; }
};
} // namespace cute

#include "cutlass_pipeline_state.h"

namespace cutlass {

/// A producer/consumer pipeline over shared-memory stages
/// (sm90_pipeline.hpp PipelineAsync): the barriers are reached through the
/// pointers the constructor keeps.
template <int Stages> class PipelineAsync {
public:
  using FullBarrier = arch::ClusterBarrier;
  using EmptyBarrier = arch::ClusterBarrier;
  struct SharedStorage {
    cute::array<FullBarrier, Stages> full_barrier_;
    cute::array<EmptyBarrier, Stages> empty_barrier_;
  };
  struct Params {
    uint32_t dst_blockid = 0;
    uint32_t producer_arv_count = 1;
    uint32_t consumer_arv_count = 1;
  };

  __device__ PipelineAsync(SharedStorage &storage, Params params, bool)
      : params_(params), full_barrier_ptr_(storage.full_barrier_.data()),
        empty_barrier_ptr_(storage.empty_barrier_.data()) {}
  /// CUTLASS's pipelines delegate to the constructor that initialises.
  __device__ PipelineAsync(SharedStorage &storage, Params params)
      : PipelineAsync(storage, params, true) {}

  __device__ void producer_acquire(PipelineState<Stages> state) {
    empty_barrier_ptr_[state.index()].wait(state.phase() ^ 1);
  }
  __device__ void producer_commit(PipelineState<Stages> state) {
    full_barrier_ptr_[state.index()].arrive();
  }
  __device__ void consumer_wait(PipelineState<Stages> state) {
    full_barrier_ptr_[state.index()].wait(state.phase());
  }
  __device__ void consumer_release(PipelineState<Stages> state) {
    empty_barrier_ptr_[state.index()].arrive(params_.dst_blockid, 1u);
  }

private:
  Params params_;
  FullBarrier *full_barrier_ptr_;
  EmptyBarrier *empty_barrier_ptr_;
};

/// An UMMA-producer pipeline (sm100_pipeline.hpp PipelineUmmaAsync): the
/// consumer side is a PipelineAsync member, the producer commits its mmas
/// to the full barrier with umma_arrive.
template <int Stages> class PipelineUmmaAsync {
public:
  using Impl = PipelineAsync<Stages>;
  using SharedStorage = typename Impl::SharedStorage;
  using Params = typename Impl::Params;

  __device__ PipelineUmmaAsync(SharedStorage &storage, Params params)
      : impl_(storage, params), full_barrier_ptr_(&storage.full_barrier_[0]) {}

  __device__ void producer_acquire(PipelineState<Stages> state) {
    impl_.producer_acquire(state);
  }
  __device__ void producer_commit(PipelineState<Stages> state) {
    arch::umma_arrive(
        reinterpret_cast<uint64_t const *>(&full_barrier_ptr_[state.index()]));
  }
  __device__ void consumer_wait(PipelineState<Stages> state) {
    impl_.consumer_wait(state);
  }
  __device__ void consumer_release(PipelineState<Stages> state) {
    impl_.consumer_release(state);
  }

private:
  Impl impl_;
  arch::ClusterBarrier *full_barrier_ptr_;
};

/// Two groups taking turns (sm90_pipeline.hpp OrderedSequenceBarrier):
/// one 2-D array of barriers, reached through a pointer to its first
/// element; each group waits on its own column and arrives on the next
/// group's.
template <int Depth, int Length> class OrderedSequenceBarrier {
public:
  using Barrier = arch::ClusterBarrier;
  struct SharedStorage {
    Barrier barrier_[Depth][Length];
  };
  struct Params {
    uint32_t group_id;
    uint32_t group_size;
  };

  __device__ OrderedSequenceBarrier(SharedStorage &storage, Params const &params)
      : params_(params), barrier_ptr_(&storage.barrier_[0][0]),
        stage_({0, params.group_id == 0, 0}) {}

  __device__ void wait() {
    get_barrier_for_current_stage(params_.group_id).wait(stage_.phase());
  }
  __device__ void arrive() {
    int signalling_id = (params_.group_id + 1) % Length;
    get_barrier_for_current_stage(signalling_id).arrive();
    ++stage_;
  }

private:
  __device__ Barrier &get_barrier_for_current_stage(int group_id) {
    return barrier_ptr_[stage_.index() * Length + group_id];
  }
  Params params_;
  Barrier *barrier_ptr_;
  PipelineState<Depth> stage_;
};

} // namespace cutlass
