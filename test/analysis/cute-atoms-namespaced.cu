// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// CUTLASS 4 declares CuTe's TMEM atoms in cute::SM100::TMEM::{LOAD, STORE}
// and brings them into cute with using-declarations (DeepGEMM's epilogue
// calls `cute::SM100_TMEM_LOAD_32dp32b8x::copy`, whose qualified name is
// `cute::SM100::TMEM::LOAD::SM100_TMEM_LOAD_32dp32b8x::copy`). With the asm
// compiled out, as CUTLASS does without its arch macros, the atoms are
// recognised by name in that spelling too.
#include <cstdint>

namespace cute {
namespace SM100::TMEM::LOAD {
struct SM100_TMEM_LOAD_32dp32b4x {
  __device__ static void copy(uint32_t const &src_addr, uint32_t &dst0,
                              uint32_t &dst1, uint32_t &dst2, uint32_t &dst3) {
    // compiled out: CUTE_INVALID_CONTROL_PATH
  }
};
} // namespace SM100::TMEM::LOAD
namespace SM100::TMEM::STORE {
struct SM100_TMEM_STORE_32dp32b1x {
  __device__ static void copy(uint32_t const &src0, uint32_t const &dst_addr) {}
};
} // namespace SM100::TMEM::STORE
using SM100::TMEM::LOAD::SM100_TMEM_LOAD_32dp32b4x;
using SM100::TMEM::STORE::SM100_TMEM_STORE_32dp32b1x;
} // namespace cute

__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

// The epilogue overwrites the columns it loads before waiting for the ld.
__global__ void store_over_pending_load(float *out, uint32_t tmem) {
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t taddr = tmem + ((warp % 4) * 32 << 16);
  uint32_t v[4];
  // CHECK: cute-atoms-namespaced.cu:[[@LINE+4]]:3: warning: tcgen05.st overwrites columns that an earlier tcgen05.ld of this thread may still be reading;{{.*}}[tmem-missing-wait-ld]
  // CHECK-NEXT: fix-it:"{{.*}}":{[[@LINE+3]]:1-[[@LINE+3]]:1}:"  wait_ld();\n"
  // CHECK-NEXT: cute-atoms-namespaced.cu:[[@LINE+1]]:3: note: the tcgen05.ld is issued here
  cute::SM100_TMEM_LOAD_32dp32b4x::copy(taddr, v[0], v[1], v[2], v[3]);
  cute::SM100_TMEM_STORE_32dp32b1x::copy(v[0], taddr);
  out[threadIdx.x] = __uint_as_float(v[1]);
}

// With the wait between them: silent.
__global__ void store_after_wait(float *out, uint32_t tmem) {
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t taddr = tmem + ((warp % 4) * 32 << 16);
  uint32_t v[4];
  cute::SM100_TMEM_LOAD_32dp32b4x::copy(taddr, v[0], v[1], v[2], v[3]);
  wait_ld();
  cute::SM100_TMEM_STORE_32dp32b1x::copy(v[0], taddr);
  out[threadIdx.x] = __uint_as_float(v[1]);
}
