// CUTLASS's PipelineState (sm90_pipeline.hpp): the circular stage index
// and phase of a pipeline, which the CUTLASS and CuTe stand-ins share.
#pragma once
#include <cstdint>

namespace cutlass {

/// sm90_pipeline.hpp's circular stage index and phase, as CUTLASS writes
/// it: its methods keep index_ in [0, Stages).
template <uint32_t Stages_> struct PipelineState {
  static constexpr uint32_t Stages = Stages_;
  int index_ = 0;
  uint32_t phase_ = 0;
  uint32_t count_ = 0;
  __device__ PipelineState() : index_{}, phase_{}, count_{} {}
  __device__ PipelineState(int index, uint32_t phase, uint32_t count)
      : index_(index), phase_(phase), count_(count) {}
  __device__ int index() const { return index_; }
  __device__ uint32_t phase() const { return phase_; }
  __device__ uint32_t count() const { return count_; }
  __device__ void operator++() {
    if constexpr (Stages > 0) {
      ++index_;
      ++count_;
      if (index_ == Stages) {
        index_ = 0;
        phase_ ^= 1;
      }
    }
  }
  __device__ PipelineState &operator=(PipelineState const &other) {
    index_ = other.index();
    phase_ = other.phase();
    count_ = other.count();
    return *this;
  }
  __device__ PipelineState &advance(uint32_t num_iterations) {
    if constexpr (Stages > 0) {
      if ((num_iterations < Stages) && (index_ + num_iterations) >= Stages)
        phase_ ^= 1;
      index_ = (index_ + num_iterations) % Stages;
      count_ += num_iterations;
    }
    return *this;
  }
};

} // namespace cutlass
