// Loads whose registers nvcc reads one instruction per register, in loops
// it unrolls: tmem-ld-use-before-wait reports once per load and read
// position, as on the CUDA side. Compiled to unrolled-reads.ptx by
// regenerate.sh; see ../unrolled-reads.test.
#include <cstdint>

__device__ __forceinline__ void ld_x32(uint32_t taddr, uint32_t (&v)[32]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
      " %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29,"
      " %30, %31}, [%32];"
      : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]),
        "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]), "=r"(v[9]),
        "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]),
        "=r"(v[15]), "=r"(v[16]), "=r"(v[17]), "=r"(v[18]), "=r"(v[19]),
        "=r"(v[20]), "=r"(v[21]), "=r"(v[22]), "=r"(v[23]), "=r"(v[24]),
        "=r"(v[25]), "=r"(v[26]), "=r"(v[27]), "=r"(v[28]), "=r"(v[29]),
        "=r"(v[30]), "=r"(v[31])
      : "r"(taddr) : "memory");
}
__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

// 32 registers summed before the wait: one finding, not 32.
__global__ void sum_before_wait(uint32_t taddr, float *out) {
  uint32_t v[32];
  ld_x32(taddr, v);
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < 32; ++i)
    sum += __uint_as_float(v[i]);
  wait_ld();
  out[threadIdx.x] = sum;
}

// A loop nvcc unrolls four times: four copies of the load, each read on
// the next iteration before any wait. One finding.
__global__ void unrolled_loop_wait_after(uint32_t taddr, float *out, int n) {
  uint32_t v = 0;
  float acc = 0;
#pragma unroll 4
  for (int i = 0; i < n; ++i) {
    acc += __uint_as_float(v);
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(taddr + i));
  }
  wait_ld();
  out[0] = acc + __uint_as_float(v);
}

// The same reads after the wait: nothing to report.
__global__ void sum_after_wait(uint32_t taddr, float *out, int n) {
  float sum = 0.f;
  for (int k = 0; k < n; ++k) {
    uint32_t v[32];
    ld_x32(taddr + 32 * (k % 4), v);
    wait_ld();
#pragma unroll
    for (int i = 0; i < 32; ++i)
      sum += __uint_as_float(v[i]);
  }
  out[threadIdx.x] = sum;
}
