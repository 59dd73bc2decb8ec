// More than 20 compile errors in device helpers that nvcc accepts and Clang
// rejects (a bare `%` register name in asm with operands) must not stop the
// parse: the kernel after them is still analysed and its leak reported
// (exit 2 all the same: the file did not compile).
// RUN: %tmemcheck --checks=-*,tmem-leak %s > %t.out 2> %t.err; echo "exit=$?" >> %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// ERR: {{^}}tmemcheck: error: {{.*}}many-errors.cu: 24 compile error(s), results may be incomplete
// OUT: many-errors.cu:[[# @LINE + 32]]:{{[0-9]+}}: error: {{.*}}[tmem-leak]
// OUT: {{^}}exit=2
#include <cstdint>

__device__ uint32_t read1() { uint32_t v; asm volatile("mov.u32 %0, %clusterid.x;" : "=r"(v)); return v; }
__device__ uint32_t read2() { uint32_t v; asm volatile("mov.u32 %0, %clusterid.y;" : "=r"(v)); return v; }
__device__ uint32_t read3() { uint32_t v; asm volatile("mov.u32 %0, %clusterid.z;" : "=r"(v)); return v; }
__device__ uint32_t read4() { uint32_t v; asm volatile("mov.u32 %0, %cluster_ctaid.x;" : "=r"(v)); return v; }
__device__ uint32_t read5() { uint32_t v; asm volatile("mov.u32 %0, %cluster_ctaid.y;" : "=r"(v)); return v; }
__device__ uint32_t read6() { uint32_t v; asm volatile("mov.u32 %0, %cluster_ctaid.z;" : "=r"(v)); return v; }
__device__ uint32_t read7() { uint32_t v; asm volatile("mov.u32 %0, %cluster_nctaid.x;" : "=r"(v)); return v; }
__device__ uint32_t read8() { uint32_t v; asm volatile("mov.u32 %0, %cluster_nctaid.y;" : "=r"(v)); return v; }
__device__ uint32_t read9() { uint32_t v; asm volatile("mov.u32 %0, %cluster_nctaid.z;" : "=r"(v)); return v; }
__device__ uint32_t read10() { uint32_t v; asm volatile("mov.u32 %0, %nclusterid.x;" : "=r"(v)); return v; }
__device__ uint32_t read11() { uint32_t v; asm volatile("mov.u32 %0, %nclusterid.y;" : "=r"(v)); return v; }
__device__ uint32_t read12() { uint32_t v; asm volatile("mov.u32 %0, %nclusterid.z;" : "=r"(v)); return v; }
__device__ uint32_t read13() { uint32_t v; asm volatile("mov.u32 %0, %ctaid.x;" : "=r"(v)); return v; }
__device__ uint32_t read14() { uint32_t v; asm volatile("mov.u32 %0, %ctaid.y;" : "=r"(v)); return v; }
__device__ uint32_t read15() { uint32_t v; asm volatile("mov.u32 %0, %ctaid.z;" : "=r"(v)); return v; }
__device__ uint32_t read16() { uint32_t v; asm volatile("mov.u32 %0, %nctaid.x;" : "=r"(v)); return v; }
__device__ uint32_t read17() { uint32_t v; asm volatile("mov.u32 %0, %nctaid.y;" : "=r"(v)); return v; }
__device__ uint32_t read18() { uint32_t v; asm volatile("mov.u32 %0, %nctaid.z;" : "=r"(v)); return v; }
__device__ uint32_t read19() { uint32_t v; asm volatile("mov.u32 %0, %tid.x;" : "=r"(v)); return v; }
__device__ uint32_t read20() { uint32_t v; asm volatile("mov.u32 %0, %tid.y;" : "=r"(v)); return v; }
__device__ uint32_t read21() { uint32_t v; asm volatile("mov.u32 %0, %tid.z;" : "=r"(v)); return v; }
__device__ uint32_t read22() { uint32_t v; asm volatile("mov.u32 %0, %ntid.x;" : "=r"(v)); return v; }
__device__ uint32_t read23() { uint32_t v; asm volatile("mov.u32 %0, %ntid.y;" : "=r"(v)); return v; }
__device__ uint32_t read24() { uint32_t v; asm volatile("mov.u32 %0, %ntid.z;" : "=r"(v)); return v; }

__global__ void leaks_after_errors(uint32_t *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
  __syncthreads();
  out[threadIdx.x] = slot;
}
