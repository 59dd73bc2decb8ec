// REQUIRES: cuda
// RUN: not %tmemcheck-cuda --checks='-*,tmem-divergent-collective' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// cuda::ptx's special-register readers are inline asm: the lane id and
// threadIdx.x they return are modelled by name.
#include <cuda/ptx>

__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return r;
}

__global__ void cccl_lane(float *out) {
  __shared__ uint32_t slot;
  const uint32_t taddr = slot;
  // CHECK: divergent-collective-operands-cccl.cu:[[@LINE+1]]:16: error: tcgen05.ld's TMEM address differs between the lanes of a warp{{.*}} [tmem-divergent-collective]
  uint32_t a = tmem_ld(taddr + (cuda::ptx::get_sreg_laneid() << 16));
  // CHECK: divergent-collective-operands-cccl.cu:[[@LINE+1]]:8: error: tcgen05.ld's TMEM address differs between the lanes of a warp{{.*}} [tmem-divergent-collective]
  a += tmem_ld(taddr + cuda::ptx::get_sreg_tid_x());
  // The warp's quarter: silent.
  a += tmem_ld(taddr + (((cuda::ptx::get_sreg_tid_x() / 32) % 4 * 32) << 16));
  out[threadIdx.x] = __uint_as_float(a);
}
