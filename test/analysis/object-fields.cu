// RUN: %tmemcheck --dump-events --checks='-*,tmem-out-of-bounds' %s 2>&1 | FileCheck %s
//
// Fields of objects the kernel builds: a value its constructor or a plain
// assignment in a method sets is followed (an RAII holder's slot pointer);
// a field the class's methods increment (CUTLASS's PipelineState::index_,
// `++index_` in operator++) has no one value, so a TMEM column computed
// from it is not the constructor's 0.
#include <cstdint>

struct Stage {
  int index_ = 0;
  __device__ int index() const { return index_; }
  __device__ void operator++() {
    if (++index_ == 2)
      index_ = 0;
  }
};

struct SlotHolder {
  uint32_t *slot_ = nullptr;
  __device__ void allocate(uint32_t *s) {
    slot_ = s;
    if (threadIdx.x / 32 == 0)
      asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                   "[%0], 256;" :: "r"(static_cast<uint32_t>(
                       __cvta_generic_to_shared(s))));
  }
  __device__ uint32_t base() const { return *slot_; }
};

__device__ __forceinline__ uint32_t ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr) : "memory");
  return r;
}

__global__ void __launch_bounds__(128) kernel(float *out, int tiles) {
  __shared__ uint32_t tmem_slot;
  SlotHolder holder;
  holder.allocate(&tmem_slot);
  __syncthreads();
  Stage stage;
  for (int t = 0; t < tiles; ++t) {
    // The slot through the holder's pointer, the column unknown.
    // CHECK: tcgen05.ld.sync.aligned.32x32b.x1.b32 ?{1} tmem(tmem_slot+l?,c?)
    uint32_t r = ld(holder.base() + stage.index() * 128);
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    out[t * 128 + threadIdx.x] = __uint_as_float(r);
    ++stage;
  }
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 256;"
                 :: "r"(tmem_slot));
}
