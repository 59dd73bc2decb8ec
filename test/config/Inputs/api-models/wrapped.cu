// A project whose tcgen05 wrappers live in another translation unit (a -rdc
// build, or a library): tmemcheck sees only their declarations. The
// .tmemcheck.yaml next to this file models them by the PTX they emit.

namespace proj {
__device__ void alloc_cols(uint32_t *slot, uint32_t ncols);
__device__ void free_cols(uint32_t taddr, uint32_t ncols);
__device__ void relinquish();
__device__ void load2(uint32_t &r0, uint32_t &r1, uint32_t taddr);
__device__ void wait_ld();
__device__ void log_progress(int step);
__device__ void commit_to(uint64_t *bar);

/// A CTA barrier object whose member function is modelled.
struct CtaBarrier {
  __device__ void sync_all();
};

/// A pipeline class template: `Pipe<Stages>::wait` is modelled once for
/// every Stages.
template <int Stages> struct Pipe {
  __device__ void wait(uint64_t *bar, uint32_t phase);
};
} // namespace proj

__global__ void clean_with_models(float *out) {
  __shared__ uint32_t slot;
  proj::CtaBarrier barrier;
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0) {
    proj::alloc_cols(&slot, 128);
    proj::relinquish();
  }
  barrier.sync_all();
  const uint32_t base = slot;
  proj::log_progress(1);
  uint32_t a, b;
  proj::load2(a, b, base + ((warp * 32) << 16));
  proj::wait_ld();
  out[threadIdx.x] = __uint_as_float(a) + __uint_as_float(b);
  barrier.sync_all();
  if (warp == 0)
    proj::free_cols(base, 128);
}

__global__ void ncols_not_power_of_two() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    proj::alloc_cols(&slot, 96);
    proj::relinquish();
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    proj::free_cols(slot, 96);
}

__global__ void leak_through_wrapper() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    proj::alloc_cols(&slot, 64);
    proj::relinquish();
  }
  __syncthreads();
}

__global__ void free_before_wait(float *out) {
  __shared__ uint32_t slot;
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0) {
    proj::alloc_cols(&slot, 32);
    proj::relinquish();
  }
  __syncthreads();
  const uint32_t base = slot;
  if (warp == 0) {
    uint32_t a, b;
    proj::load2(a, b, base);
    proj::free_cols(base, 32);
    proj::wait_ld();
    out[threadIdx.x] = __uint_as_float(a + b);
  }
}

template <int Stages>
__global__ void mma_pipeline(uint64_t a_desc, uint64_t b_desc, uint32_t idesc) {
  __shared__ uint32_t slot;
  __shared__ uint64_t done;
  proj::Pipe<Stages> pipe;
  const unsigned warp = threadIdx.x / 32;
  if (warp == 0) {
    proj::alloc_cols(&slot, 128);
    proj::relinquish();
  }
  __syncthreads();
  const uint32_t base = slot;
  if (warp == 0) {
    // commit_to elects one lane itself (ElectsInside in the config): the
    // whole warp calls it.
    proj::commit_to(&done);
    pipe.wait(&done, 0);
  }
  __syncthreads();
  if (warp == 0)
    proj::free_cols(base, 128);
}

template __global__ void mma_pipeline<2>(uint64_t, uint64_t, uint32_t);
