// RUN: not %tmemcheck-bin --no-cuda --no-snippets --checks='-*,tmem-leak,tmem-missing-wait-ld,tmem-dealloc-race' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not="remark:"
// RUN: rm -rf %t.dir && mkdir -p %t.dir/off %t.dir/listed
// RUN: cp %s %t.dir/off/task.cu && cp %s %t.dir/listed/task.cu && cp -r %S/Inputs %t.dir/off/ && cp -r %S/Inputs %t.dir/listed/
// RUN: printf 'Roots:\n  DeviceFunctions: false\n' > %t.dir/off/.tmemcheck.yaml
// RUN: %tmemcheck-bin --no-cuda --no-snippets --checks='-*,tmem-leak,tmem-missing-wait-ld,tmem-dealloc-race' %t.dir/off/task.cu 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not="[tmem-" --implicit-check-not="remark:"
// RUN: printf 'Roots:\n  DeviceFunctions: false\n  Functions: [mpk::leaky_task]\n' > %t.dir/listed/.tmemcheck.yaml
// RUN: not %tmemcheck-bin --no-cuda --no-snippets --checks='-*,tmem-leak,tmem-missing-wait-ld,tmem-dealloc-race' %t.dir/listed/task.cu 2>&1 | FileCheck %s --check-prefix=LISTED --implicit-check-not="[tmem-" --implicit-check-not="remark:"
//
// __device__ entry points (Roots): megakernel tasks are __device__ functions
// that a scheduler kernel in another translation unit calls. A file of tasks
// has no __global__ function; the tasks that use TMEM and that nothing in
// the file calls are analysed as kernels, assuming the whole CTA enters them,
// and a remark says so. Wrappers of one instruction and functions the file
// calls are not entry points. `Roots: DeviceFunctions: false` turns it off;
// `Roots: Functions` names entry points explicitly.
//
// OFF: tmemcheck: 1 file(s), 0 kernel(s)

#include "Inputs/mpk_tmem.h"

namespace mpk {

// A correct task (Mirage's shape: alloc in warp 1, free in warp 0 after a
// barrier, no relinquish: the megakernel keeps the permit): silent.
// CHECK-DAG: device-task.cu:[[#@LINE+1]]:17: remark: 'mpk::linear_task' is a __device__ function that uses TMEM and that nothing in this translation unit calls: analysed as an entry point, assuming that every thread of the CTA enters it with the same arguments (Roots in .tmemcheck.yaml)
__device__ void linear_task(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 1)
    tmem_alloc(&slot, 128);
  __syncthreads();
  const uint32_t taddr = slot;
  if (warp < 4) {
    uint32_t r = tmem_ld(taddr + ((warp * 32) << 16));
    tmem_wait_ld();
    out[threadIdx.x] = __uint_as_float(r);
  }
  __syncthreads();
  if (warp == 0)
    tmem_free(taddr, 128);
}

// A task that leaks its columns on the early-exit path: flagged, as in a
// kernel.
// CHECK-DAG: device-task.cu:[[#@LINE+1]]:17: remark: 'mpk::leaky_task' is a __device__ function that uses TMEM and that nothing in this translation unit calls: analysed as an entry point
__device__ void leaky_task(float *out, int n) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    // CHECK-DAG: device-task.cu:[[#@LINE+1]]:5: error: TMEM allocated into 'slot' (64 columns) is still allocated when the kernel exits on some path; {{.*}}[tmem-leak]
    tmem_alloc(&slot, 64);
  __syncthreads();
  if (n == 0)
    return;
  const uint32_t taddr = slot;
  uint32_t r = tmem_ld(taddr);
  tmem_wait_ld();
  out[threadIdx.x] = __uint_as_float(r);
  __syncthreads();
  if (warp == 0)
    tmem_free(taddr, 64);
}

// A helper that a task calls is not an entry point of its own, though it
// uses TMEM through two statements.
__device__ void epilogue(uint32_t taddr, float *out) {
  uint32_t r = tmem_ld(taddr);
  tmem_wait_ld();
  out[threadIdx.x] = __uint_as_float(r);
}
// CHECK-DAG: device-task.cu:[[#@LINE+1]]:17: remark: 'mpk::calling_task' is a __device__ function that uses TMEM and that nothing in this translation unit calls: analysed as an entry point
__device__ void calling_task(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 32);
  __syncthreads();
  epilogue(slot, out);
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    tmem_free(slot, 32);
}

// A wrapper of one instruction that nothing calls is not an entry point.
__device__ void unused_wrapper(uint32_t taddr) { tmem_free(taddr, 32); }

// A function without TMEM is not one either.
__device__ float no_tmem(float x) { return x * 2; }

} // namespace mpk

// LISTED: task.cu:51:5: error: TMEM allocated into 'slot' (64 columns) is still allocated when the kernel exits on some path; {{.*}}[tmem-leak]
// LISTED: task.cu:46:17: remark: 'mpk::leaky_task' is a __device__ function listed in Roots: Functions: analysed as an entry point
// LISTED: tmemcheck: 1 file(s), 1 kernel(s)
// CHECK: tmemcheck: 1 file(s), 3 kernel(s)
