// RUN: not %tmemcheck --checks='-*,tmem-leak,tmem-dealloc-unallocated' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// Warp roles named by a helper that decides by early returns (CUTLASS's FMHA
// `warp_idx_to_WarpRole(canonical_warp_idx_sync())`: `int wg = warp / 4;
// if (wg == 0) return Softmax0; ... return Empty;`), in the persistent shape
// of sm100_fmha_fwd_kernel_tma_warpspecialized.hpp: the MMA warp allocates
// once, at its first valid tile (`if (!allocated)`), the epilogue warp
// frees `if (has_valid)` after walking the same tiles. The role is a value
// per warp, so the two arms are other warps of the same CTA (rule A9): no
// leak, no "never allocated". When the helper decides by the CTA, or the
// alloc is unconditional and the free is not, the findings stay.

#include "Inputs/raw-tmem-alloc.cuh"

__device__ __forceinline__ int canonical_warp_idx_sync() {
  return __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
}

enum class WarpRole { Softmax0, Softmax1, Correction, Mma, Load, Epilogue };

struct Schedule {
  __host__ __device__ static constexpr WarpRole warpRole(int warp_idx) {
    int wg_idx = warp_idx / 4;
    if (wg_idx == 0)
      return WarpRole::Softmax0;
    if (wg_idx == 1)
      return WarpRole::Softmax1;
    if (wg_idx == 2)
      return WarpRole::Correction;
    if (warp_idx == 12)
      return WarpRole::Mma;
    if (warp_idx == 13)
      return WarpRole::Load;
    return WarpRole::Epilogue;
  }
};

struct TileScheduler {
  int Idx, End;
  __device__ bool isValid() const { return Idx < End; }
  __device__ TileScheduler &operator++() {
    Idx += gridDim.x;
    return *this;
  }
};

struct Params {
  int Tiles, Rows, Cols;
};

__device__ __forceinline__ void roles_barrier() {
  asm volatile("bar.sync 1, 512;" ::: "memory");
}

// Correct: the FMHA's persistent roles.
struct PersistentFmha {
  __host__ __device__ static constexpr WarpRole warpRole(int warp_idx) {
    return Schedule::warpRole(warp_idx);
  }
  __device__ void operator()(const Params &P, float *Out) {
    __shared__ uint32_t tmem_base;
    const WarpRole Role = warpRole(canonical_warp_idx_sync());
    TileScheduler Tiles{int(blockIdx.x), P.Tiles};
    if (Role == WarpRole::Softmax0 || Role == WarpRole::Softmax1) {
      for (; Tiles.isValid(); ++Tiles)
        Out[Tiles.Idx] = 0.0f;
    } else if (Role == WarpRole::Mma) {
      bool allocated = false;
      for (; Tiles.isValid(); ++Tiles) {
        if (Tiles.Idx * 128 >= P.Rows)
          continue;
        if (!allocated) {
          alloc_cols(&tmem_base, 512);
          __syncwarp();
          allocated = true;
        }
        if (P.Cols == 0)
          continue;
        Out[Tiles.Idx] = 1.0f;
      }
    } else if (Role == WarpRole::Epilogue) {
      bool has_valid = false;
      for (; Tiles.isValid(); ++Tiles) {
        if (Tiles.Idx * 128 >= P.Rows)
          continue;
        has_valid = true;
        Out[Tiles.Idx] = 2.0f;
      }
      if (has_valid) {
        uint32_t Base = tmem_base;
        free_cols(Base, 512);
      }
    }
  }
};

__global__ void __launch_bounds__(512) persistent_fmha(Params P, float *Out) {
  PersistentFmha Kernel;
  Kernel(P, Out);
}

// Correct: the roles of the first kernel in a plain dispatch, a barrier
// between the alloc and the free.
__global__ void __launch_bounds__(512) helper_roles(float *Out) {
  __shared__ uint32_t tmem_base;
  const WarpRole Role = Schedule::warpRole(canonical_warp_idx_sync());
  if (Role == WarpRole::Mma)
    alloc_cols(&tmem_base, 256);
  roles_barrier();
  Out[threadIdx.x] = 1.0f;
  roles_barrier();
  if (Role == WarpRole::Load)
    free_cols(tmem_base, 256);
}

// Buggy: the helper decides by the CTA, so "Mma" and "Load" are different
// CTAs; each CTA allocates or frees, never both.
__device__ WarpRole ctaRole() {
  if (blockIdx.x % 2 == 0)
    return WarpRole::Mma;
  return WarpRole::Load;
}

__global__ void __launch_bounds__(512) roles_by_cta(float *Out) {
  __shared__ uint32_t tmem_base;
  const WarpRole Role = ctaRole();
  if (Role == WarpRole::Mma)
    alloc_cols(&tmem_base, 128);
  roles_barrier();
  Out[threadIdx.x] = 2.0f;
  roles_barrier();
  if (Role == WarpRole::Load)
    free_cols(tmem_base, 128);
}
// CHECK: role-helper-lifecycle.cu:[[@LINE-7]]:5: error: TMEM allocated into 'tmem_base' (128 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
// CHECK: role-helper-lifecycle.cu:[[@LINE-3]]:5: error: tcgen05.dealloc frees 'tmem_base' on a path where it was never allocated (rule A9) [tmem-dealloc-unallocated]

// Buggy: the MMA warp allocates in every CTA, the epilogue warp frees only
// when a runtime parameter says so: the other CTAs leak. (The same with
// `if (has_valid)`, a flag the epilogue sets in its own tile loop, is not
// reported yet: such a flag's value is unknown, and an unknown condition is
// never taken to skip the free; docs/checks/tmem-leak.md.)
__global__ void __launch_bounds__(512) free_only_when_asked(Params P,
                                                            float *Out,
                                                            int Flag) {
  __shared__ uint32_t tmem_base;
  const WarpRole Role = Schedule::warpRole(canonical_warp_idx_sync());
  TileScheduler Tiles{int(blockIdx.x), P.Tiles};
  if (Role == WarpRole::Mma) {
    alloc_cols(&tmem_base, 512);
    for (; Tiles.isValid(); ++Tiles)
      Out[Tiles.Idx] = 1.0f;
  } else if (Role == WarpRole::Epilogue) {
    for (; Tiles.isValid(); ++Tiles)
      Out[Tiles.Idx] = 2.0f;
    if (Flag != 0)
      free_cols(tmem_base, 512);
  }
}
// CHECK: role-helper-lifecycle.cu:[[@LINE-10]]:5: error: TMEM allocated into 'tmem_base' (512 columns) is still allocated when the kernel exits on some path; free it with tcgen05.dealloc before every exit (rule A9) [tmem-leak]
