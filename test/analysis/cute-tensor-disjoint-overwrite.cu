// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not="compile error"
// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-missing-wait-st' %s -- -std=c++17 -I%S/Inputs/cute -DSTUB_TCGEN05_ENABLED 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not="compile error"
//
// The correction warpgroup of CUTLASS 77's FMHA
// (sm100_fmha_fwd_mainloop_tma_warpspecialized.hpp:1024-1036) loads the
// row statistics V1 (columns from 128) with no tcgen05.wait::ld, rescales
// the O1 accumulator (columns 384 on: loads and stores through CuTe
// tensors) and then releases V1 to the softmax warpgroup. The O stores
// cannot overwrite V1: the tensors' spans are disjoint, so the load's
// hazard is the release (an error), not a spec-strict overwrite warning at
// the rescale, which used to hide it. A store into the V1 columns
// themselves is still reported.

#include "cute_role_helpers.h"
#include "cute_tensor_stub.h"

using namespace cute;

enum class TmemAllocation : uint32_t { S1 = 128, V1 = 128, O1 = 384 };

using StatLayout = Layout<tuple<C<128>, C<8>>, tuple<C<65536>, C<1>>>;
using OTileLayout = Layout<tuple<C<128>, C<16>>, tuple<C<1>, C<128>>>;

// Warp 0 takes all 512 columns for the block, and gives them back.
__device__ void allocate_all(int warp, uint32_t *tmem_base) {
  TMEM::Allocator1Sm alloc;
  if (warp == 0) {
    alloc.allocate(512, tmem_base);
    alloc.release_allocation_lock();
  }
  __syncthreads();
}
__device__ void free_all(int warp, uint32_t tmem_base) {
  __syncthreads();
  if (warp == 0)
    TMEM::Allocator1Sm().free(tmem_base, 512);
}

// Rescales one 16-column tile of O, as the real correction_rescale does
// through its copy_in/copy_out lambdas.
__device__ void correction_rescale(uint32_t tmem_O) {
  int thread_idx = threadIdx.x % 128;
  UmmaTiledMma<128, 128> mma;
  Tensor tOtO = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
  Tensor tOtO_i = tOtO.compose(OTileLayout{});
  tOtO_i.data() = tOtO_i.data().get() + tmem_O;
  auto tiled_load = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tOtO_i);
  auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tOtO_i);
  Tensor tLoad = tiled_load.get_slice(thread_idx).partition_S(tOtO_i);
  Tensor tStore = tiled_store.get_slice(thread_idx).partition_D(tOtO_i);
  uint32_t regs[8];
  auto copy_in = [&] { copy(tiled_load, tLoad, regs); };
  auto copy_out = [&] {
    uint32_t out[2] = {regs[0] * 2, regs[1] * 2};
    copy(tiled_store, out, tStore);
  };
  copy_in();
  // No tcgen05.wait::ld, as in CUTLASS: PTX 9.4 orders the load before the
  // store of the same warp, 9.1 does not.
  // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+1]]:11: warning: tcgen05.st overwrites columns that an earlier tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders an ld before a later st of the same warp, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
  copy_out();
}

template <bool StoreOverStats>
__global__ void __launch_bounds__(256) correction_like(uint32_t v, int tiles) {
  __shared__ uint32_t tmem_base;
  __shared__ uint64_t s1_c;
  const int warp = threadIdx.x / 32;
  allocate_all(warp, &tmem_base);
  if (warp >= 4) {
    UmmaTiledMma<128, 128> mma;
    Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
    Tensor tStS_v = tStS.compose(StatLayout{});
    tStS_v.data() = tStS_v.data().get() + uint32_t(TmemAllocation::V1);
    auto tiled_loadv = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tStS_v);
    Tensor tV1 = tiled_loadv.get_slice(threadIdx.x % 128).partition_S(tStS_v);
    for (int tile = 0; tile < tiles; ++tile) {
      // Hands the previous tile's statistics back to softmax 1, whose load
      // is still in flight: the first place it must be complete. With the
      // rescale written over the statistics, its stores are still in flight
      // there too (tmem-missing-wait-st).
      // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+3]]:7: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
      // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+4]]:7: note: the tcgen05.ld is issued here
      // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+1]]:7: error: this mbarrier arrive lets other threads read columns that a tcgen05.st of this thread may still be writing; complete the store with tcgen05.wait::st first (rules §5.2) [tmem-missing-wait-st]
      mbar_arrive(&s1_c);
      uint32_t stats[8];
      copy(tiled_loadv, tV1, stats);
      if constexpr (StoreOverStats) {
        // The rescale written over the statistics: nearer than the
        // release, a spec-strict overwrite.
        // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+1]]:9: warning: tcgen05.st overwrites columns that an earlier tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders an ld before a later st of the same warp, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
        correction_rescale(uint32_t(TmemAllocation::V1));
      } else {
        // O1 lies past the statistics: no overwrite of them.
        correction_rescale(uint32_t(TmemAllocation::O1));
      }
    }
    wait_ld();
  } else {
    // Softmax 1 stores its next statistics over V1 once released.
    UmmaTiledMma<128, 128> mma;
    Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
    Tensor tStS_v = tStS.compose(StatLayout{});
    tStS_v.data() = tStS_v.data().get() + uint32_t(TmemAllocation::V1);
    auto tiled_storev = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tStS_v);
    Tensor tV1 = tiled_storev.get_slice(threadIdx.x % 128).partition_D(tStS_v);
    for (int tile = 0; tile < tiles; ++tile) {
      mbar_wait(&s1_c, tile & 1);
      uint32_t p[2] = {v, v};
      copy(tiled_storev, p, tV1);
      wait_st();
    }
  }
  free_all(warp, tmem_base);
}

template __global__ void correction_like<false>(uint32_t, int);
template __global__ void correction_like<true>(uint32_t, int);

// A helper of the kernel's own that returns the statistics tensor, moved
// onto V1 inside it: its columns are not those of a fresh fragment at 0,
// so its span does not rule the overwrite out.
__device__ auto stats_view() {
  UmmaTiledMma<128, 128> mma;
  Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
  Tensor tStS_v = tStS.compose(StatLayout{});
  tStS_v.data() = tStS_v.data().get() + uint32_t(TmemAllocation::V1);
  return tStS_v;
}

__global__ void __launch_bounds__(256) helper_view(uint32_t v) {
  __shared__ uint32_t tmem_base;
  const int warp = threadIdx.x / 32;
  allocate_all(warp, &tmem_base);
  if (warp >= 4) {
    UmmaTiledMma<128, 128> mma;
    Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
    Tensor tStS_v = tStS.compose(StatLayout{});
    tStS_v.data() = tStS_v.data().get() + uint32_t(TmemAllocation::V1);
    auto tiled_loadv = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tStS_v);
    Tensor tV1 = tiled_loadv.get_slice(threadIdx.x % 128).partition_S(tStS_v);
    uint32_t stats[8];
    copy(tiled_loadv, tV1, stats);
    Tensor tOver = stats_view();
    auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tOver);
    Tensor tS = tiled_store.get_slice(threadIdx.x % 128).partition_D(tOver);
    uint32_t p[2] = {stats[0] + v, stats[1]};
    // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+1]]:5: warning: tcgen05.st overwrites columns that an earlier tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders an ld before a later st of the same warp, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
    copy(tiled_store, p, tS);
    wait_ld();
    wait_st();
  }
  free_all(warp, tmem_base);
}

// The same with the fragment passed in: a helper of the kernel's own may
// move the tensor it is given past that tensor's span, so its result is
// not bounded by it.
template <class T> __device__ auto at_v1(T tStS) {
  Tensor tStS_v = tStS.compose(StatLayout{});
  tStS_v.data() = tStS_v.data().get() + uint32_t(TmemAllocation::V1);
  return tStS_v;
}

__global__ void __launch_bounds__(256) helper_moves_fragment(uint32_t v) {
  __shared__ uint32_t tmem_base;
  const int warp = threadIdx.x / 32;
  allocate_all(warp, &tmem_base);
  if (warp >= 4) {
    UmmaTiledMma<128, 128> mma;
    Tensor tStS = partition_fragment_C(mma, tuple<C<128>, C<128>>{});
    Tensor tStS_v = tStS.compose(StatLayout{});
    tStS_v.data() = tStS_v.data().get() + uint32_t(TmemAllocation::V1);
    auto tiled_loadv = make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tStS_v);
    Tensor tV1 = tiled_loadv.get_slice(threadIdx.x % 128).partition_S(tStS_v);
    uint32_t stats[8];
    copy(tiled_loadv, tV1, stats);
    Tensor tOver = at_v1(partition_fragment_C(mma, tuple<C<128>, C<128>>{}));
    auto tiled_store = make_tmem_copy(SM100_TMEM_STORE_32dp32b2x{}, tOver);
    Tensor tS = tiled_store.get_slice(threadIdx.x % 128).partition_D(tOver);
    uint32_t p[2] = {stats[0] + v, stats[1]};
    // CHECK: cute-tensor-disjoint-overwrite.cu:[[@LINE+1]]:5: warning: tcgen05.st overwrites columns that an earlier tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders an ld before a later st of the same warp, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
    copy(tiled_store, p, tS);
    wait_ld();
    wait_st();
  }
  free_all(warp, tmem_base);
}
