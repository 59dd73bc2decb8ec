// RUN: not %tmemcheck --checks='-*,tmem-ld-use-before-wait' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// Loads into struct members of an array (`regs[i].x`) and reads of them.

struct V { uint32_t x, y; };
__global__ void k(uint32_t t, float *out) {
  V regs[2];
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];" : "=r"(regs[0].x), "=r"(regs[1].x) : "r"(t));
  // CHECK: ld-use-before-wait-members.cu:[[@LINE+3]]:38: warning: 'regs' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
  // CHECK-NEXT: fix-it:"{{.*}}ld-use-before-wait-members.cu":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"  asm volatile(\"tcgen05.wait::ld.sync.aligned;\" ::: \"memory\");\n"
  // CHECK-NEXT: ld-use-before-wait-members.cu:[[@LINE-3]]:17: note: tcgen05.ld writes 'regs' here
  out[threadIdx.x] = __uint_as_float(regs[0].x);
  asm volatile("tcgen05.wait::ld.sync.aligned;");
}
