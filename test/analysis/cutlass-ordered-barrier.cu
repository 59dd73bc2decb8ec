// RUN: %tmemcheck-bin --no-cuda --dump-events %s -- -I%S/Inputs/cutlass 2>&1 | FileCheck %s
//
// CUTLASS's OrderedSequenceBarrier (sm90_pipeline.hpp) reaches its barrier
// through a helper that returns a reference,
// `get_barrier_for_current_stage(id) { return barrier_ptr_[stage * 2 +
// id]; }`: the wait and the arrive name the barrier array the constructor's
// pointer points into, not an unknown barrier (which would count as a wait
// on every barrier of the kernel, CUTLASS 77 FMHA's softmax `order_s`).
// With one stage, PipelineState's methods keep its index at 0 (`++index_;
// if (index_ == Stages) index_ = 0;`), and the group id comes from the
// Params the kernel filled in (`p.group_id = warp >= 4 ? 1 : 0`), so each
// thread names its own element: byte 0 for warps 0-3, byte 8 for 4-7.
#include "cutlass_pipeline_stub.h"

struct SharedStorage {
  cutlass::OrderedSequenceBarrier<1, 2>::SharedStorage order_s01;
};

// CHECK-LABEL: kernel softmax_order
__global__ void __launch_bounds__(256) softmax_order(float *out) {
  extern __shared__ char smem[];
  SharedStorage &storage = *reinterpret_cast<SharedStorage *>(smem);
  const int warp = threadIdx.x / 32;
  cutlass::OrderedSequenceBarrier<1, 2>::Params p;
  p.group_id = warp >= 4 ? 1 : 0;
  p.group_size = 128;
  cutlass::OrderedSequenceBarrier<1, 2> order_s(storage.order_s01, p);
  // CHECK: mbarrier.try_wait.parity.shared::cta.b64 ? &barrier_[0][]+{0,8} ?
  order_s.wait();
  // CHECK: mbarrier.arrive.shared::cta.b64 ? &barrier_[0][]+{0,8}
  order_s.arrive();
}

// Two stages: the index is 0 or 1, so the element is not known.
struct SharedStorage2 {
  cutlass::OrderedSequenceBarrier<2, 2>::SharedStorage order_s01;
};
// CHECK-LABEL: kernel two_stage_order
__global__ void __launch_bounds__(256) two_stage_order(float *out) {
  extern __shared__ char smem[];
  SharedStorage2 &storage = *reinterpret_cast<SharedStorage2 *>(smem);
  const int warp = threadIdx.x / 32;
  cutlass::OrderedSequenceBarrier<2, 2>::Params p;
  p.group_id = warp >= 4 ? 1 : 0;
  p.group_size = 128;
  cutlass::OrderedSequenceBarrier<2, 2> order_s(storage.order_s01, p);
  // CHECK: mbarrier.try_wait.parity.shared::cta.b64 ? &barrier_[0][]+? ?
  order_s.wait();
  // CHECK: mbarrier.arrive.shared::cta.b64 ? &barrier_[0][]+?
  order_s.arrive();
}

// A group id set under a branch may be the uninitialised one: not known.
// CHECK-LABEL: kernel branch_set_group
__global__ void __launch_bounds__(256) branch_set_group(float *out) {
  extern __shared__ char smem[];
  SharedStorage &storage = *reinterpret_cast<SharedStorage *>(smem);
  const int warp = threadIdx.x / 32;
  cutlass::OrderedSequenceBarrier<1, 2>::Params p;
  if (warp >= 4)
    p.group_id = 1;
  p.group_size = 128;
  cutlass::OrderedSequenceBarrier<1, 2> order_s(storage.order_s01, p);
  // CHECK: mbarrier.try_wait.parity.shared::cta.b64 ? &barrier_[0][]+? ?
  order_s.wait();
  // CHECK: mbarrier.arrive.shared::cta.b64 ? &barrier_[0][]+?
  order_s.arrive();
}
