// Stand-in for a library written for nvcc (CUTLASS's arch headers): its
// TMEM code is compiled only when nvcc's version macros say CUDA 12 or
// later, its math uses the sm_100 packed-float functions of nvcc's
// pre-included crt/sm_100_rt.h, and it casts a shared-memory pointer to a
// 32-bit integer (CUTLASS's low-latency GQA does: nvcc accepts it, Clang
// only with -fms-extensions). Its sub-byte stores read memory with nvcc's
// built-in __nv_atomic_load_n from CUDA 13 on (CUTLASS's
// subbyte_reference.h), which nvcc's front end provides and Clang does not.
#pragma once
#include <stdint.h>

#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ >= 12)
#define LIB_TMEM_ENABLED 1
#endif

struct LibState {
  uint32_t cols;
  uint32_t stage_addr;
};

__device__ __forceinline__ uint32_t lib_stage_addr(void *smem) {
  return (uint32_t)smem;
}

__device__ __forceinline__ void lib_alloc(uint32_t *slot, uint32_t ncols) {
#if defined(LIB_TMEM_ENABLED)
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
          static_cast<uint32_t>(__cvta_generic_to_shared(slot))),
      "r"(ncols));
#endif
}

__device__ __forceinline__ float2 lib_scale(float2 a, float2 s) {
  return __fmul2_rn(a, s);
}

__device__ __forceinline__ void lib_store_nibble(uint8_t *ptr, uint8_t v) {
#if (__CUDACC_VER_MAJOR__ > 12)
  uint32_t *word = reinterpret_cast<uint32_t *>(ptr);
  uint32_t original = __nv_atomic_load_n(word, __NV_ATOMIC_RELAXED);
  while (!__nv_atomic_compare_exchange_n(word, &original,
                                         (original & ~0xFu) | v, false,
                                         __NV_ATOMIC_RELAXED,
                                         __NV_ATOMIC_RELAXED))
    ;
  __nv_atomic_fetch_add(word, 0u, __NV_ATOMIC_RELAXED,
                        __NV_THREAD_SCOPE_BLOCK);
#endif
}
