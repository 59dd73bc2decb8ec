// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck-bin --no-cuda --dump-events --checks='-*,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --check-prefix=EVENTS
//
// CuTe kernels name no TMEM address: they move a fragment made at address
// 0 (`tOtO.data() = tOtO.data().get() + O0`), partition it by thread, slice
// it by run-time coordinates, and the atom reads raw_pointer_cast(src.data()).
// Inputs/cute/cute_tensor_stub.h mimics those shapes. A slice holds
// elements of its tensor, so its columns lie in the tensor's span: the
// correction warpgroup's O columns (256 on) and the softmax warpgroup's S
// columns (below 128) are told apart, and a release of pending O stores to
// a warpgroup that touches only S is no hazard (the shape of CUTLASS 77
// FMHA's sm100_fmha_fwd_mainloop_tma_warpspecialized.hpp:1036, with one
// softmax body per stage; the real kernel picks the stage at run time).
//
// EVENTS-LABEL: kernel fmha_like<cute::C<0>>
// EVENTS: tcgen05.st.sync.aligned.32x32b.x2.b32 tmem(tmem_base+l?,c[0..127]<128)
// EVENTS: tcgen05.ld.sync.aligned.32x32b.x8.b32 ?{8} tmem(tmem_base+l?,c[256..431]<432)
// EVENTS: tcgen05.st.sync.aligned.32x32b.x2.b32 tmem(tmem_base+l?,c[256..431]<432)
// EVENTS-LABEL: kernel fmha_like<cute::C<1>>
// EVENTS: tcgen05.st.sync.aligned.32x32b.x2.b32 tmem(tmem_base+l?,c[256..383]<384)

#include "cute_role_helpers.h"
#include "cute_tensor_stub.h"

using namespace cute;

enum class TmemAllocation : uint32_t { S0 = 0, S1 = 128, O0 = 256, O1 = 384 };

using AccLayout = Layout<tuple<C<128>, C<16>>, tuple<C<1>, C<128>>>;

// The correction warpgroup rescales O0 in slices of 16 columns.
__device__ void correction_rescale(uint32_t tmem_O) {
  int thread_idx = threadIdx.x % 128;
  UmmaTiledMma<128, 128> mma;
  Tensor tOtO = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
  Tensor tOtO_i = tOtO.compose(AccLayout{});
  tOtO_i.data() = tOtO_i.data().get() + tmem_O;
  auto tiled_load = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tOtO_i);
  auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tOtO_i);
  auto thr_load = tiled_load.get_slice(thread_idx);
  auto thr_store = tiled_store.get_slice(thread_idx);
  Tensor tLoad = thr_load.partition_S(tOtO_i);
  Tensor tStore = thr_store.partition_D(tOtO_i);
  for (int i = 0; i < 4; ++i) {
    Tensor tLoad_i = tLoad;
    tLoad_i.data() = tLoad_i.data().get() + uint32_t(i * 16);
    uint32_t regs[8];
    copy(tiled_load, tLoad_i, regs);
    cutlass::arch::fence_view_async_tmem_load();
    uint32_t out[2] = {regs[0] * 2, regs[1] * 2};
    Tensor tStore_i = tStore;
    tStore_i.data() = tStore_i.data().get() + uint32_t(i * 16);
    copy(tiled_store, out, tStore_i);
  }
}

// One softmax body per stage, as CUTLASS's FMHA writes it: the stage is a
// cute::C<v> parameter, so `stage == _0{}` is decided by its type.
template <class Stage>
__device__ void softmax_store(Stage stage, uint32_t v) {
  int thread_idx = threadIdx.x % 128;
  UmmaTiledMma<128, 128> mma;
  Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
  tStS.data() = uint32_t(stage == _0{} ? TmemAllocation::S0 : TmemAllocation::O0);
  auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tStS);
  Tensor tS = tiled_store.get_slice(thread_idx).partition_D(tStS);
  uint32_t p[2] = {v, v};
  copy(tiled_store, p, tS);
  wait_st();
}

template <class Waiter>
__global__ void __launch_bounds__(256) fmha_like(uint32_t v) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t s_c;
  TMEM::Allocator1Sm alloc;
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    alloc.allocate(512, &tmem_base);
    alloc.release_allocation_lock();
  }
  __syncthreads();
  if (warp >= 4) {
    correction_rescale(uint32_t(TmemAllocation::O0));
    // Only the instantiation whose waiters store into O0 is a hazard.
    // CHECK: cute-tmem-tensors.cu:[[@LINE+3]]:5: error: this mbarrier arrive lets other threads read columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
    // CHECK: note: 'mbarrier.arrive.shared::cta.b64' is issued here, inside 'mbar_arrive'
    // CHECK: cute-tmem-tensors.cu:[[@LINE-4]]:5: note: the tcgen05.st is issued here
    mbar_arrive(&s_c);
    wait_st();
  } else {
    mbar_wait(&s_c, 0);
    softmax_store(Waiter{}, v);
  }
  __syncthreads();
  if (warp == 0)
    alloc.free(tmem_base, 512);
}

// Must not be flagged: the softmax warpgroup stores into S0 only.
template __global__ void fmha_like<_0>(uint32_t);
// Must be flagged: the waiters store into the O0 columns still being written.
template __global__ void fmha_like<_1>(uint32_t);
