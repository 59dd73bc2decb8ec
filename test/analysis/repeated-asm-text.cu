// RUN: %tmemcheck-bin --no-cuda --no-snippets --checks='-*,tmem-missing-wait-ld,tmem-ld-use-before-wait' %s > %t.out 2>&1; echo "exit=$?" >> %t.out
// RUN: FileCheck %s --implicit-check-not='[tmem-' --implicit-check-not='remark: cannot' --implicit-check-not="'groups<1>'" < %t.out
//
// An asm text is parsed and decoded once, whatever the number of
// statements that spell it (a kernel's own asm repeats from kernel to
// kernel, a template's from instance to instance): each statement still
// gets its own positions, its own remarks and its own operands, and an
// immediate operand that differs is a different text.

#include <cstdint>

__global__ void __launch_bounds__(128) first(uint32_t *out, uint32_t taddr) {
  uint32_t r0, r1;
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+3]]:17: remark: kernel 'first' runs tcgen05 inline asm that could not be read
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+2]]:17: remark: cannot decode 'tcgen05.alloc.cta_group::3.sync.aligned': {{.*}} invalid '.cta_group::3'
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+1]]:17: remark: cannot decode 'tcgen05.alloc.cta_group::3.sync.aligned': {{.*}} missing '.b32'
  asm volatile("tcgen05.alloc.cta_group::3.sync.aligned [%0], 64;" :: "r"(taddr));
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
               : "=r"(r0), "=r"(r1) : "r"(taddr));
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+1]]:12: warning: 'r0' is read before tcgen05.wait::ld{{.*}} [tmem-ld-use-before-wait]
  out[0] = r0;
}

__global__ void __launch_bounds__(128) second(uint32_t *out, uint32_t taddr) {
  uint32_t a, b;
      // CHECK-DAG: repeated-asm-text.cu:[[@LINE+3]]:21: remark: kernel 'second' runs tcgen05 inline asm that could not be read
      // CHECK-DAG: repeated-asm-text.cu:[[@LINE+2]]:21: remark: cannot decode 'tcgen05.alloc.cta_group::3.sync.aligned': {{.*}} invalid '.cta_group::3'
      // CHECK-DAG: repeated-asm-text.cu:[[@LINE+1]]:21: remark: cannot decode 'tcgen05.alloc.cta_group::3.sync.aligned': {{.*}} missing '.b32'
      asm volatile("tcgen05.alloc.cta_group::3.sync.aligned [%0], 64;" :: "r"(taddr));
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
                   : "=r"(a), "=r"(b) : "r"(taddr));
  // The same text, its registers bound to this statement's operands.
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+1]]:12: warning: 'b' is read before tcgen05.wait::ld{{.*}} [tmem-ld-use-before-wait]
  out[1] = b;
}

template <int CtaGroup> __global__ void __launch_bounds__(128) groups(uint32_t slot) {
  // Decoded for groups<1>; groups<3> gets the remark.
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+2]]:17: remark: kernel 'groups<3>' runs tcgen05 inline asm that could not be read
  // CHECK-DAG: repeated-asm-text.cu:[[@LINE+1]]:17: remark: cannot decode 'tcgen05.alloc.cta_group::3.sync.aligned.shared::cta.b32': {{.*}} invalid '.cta_group::3'
  asm volatile("tcgen05.alloc.cta_group::%1.sync.aligned.shared::cta.b32 [%0], 32;"
               :: "r"(slot), "n"(CtaGroup));
}
template __global__ void groups<1>(uint32_t);
template __global__ void groups<3>(uint32_t);
// CHECK: {{^}}exit=1
