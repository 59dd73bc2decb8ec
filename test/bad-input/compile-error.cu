// A translation unit with a compile error: one line on stderr naming the
// file and the first error, no crash, exit 2 (clang's own "N error(s)
// generated" line must not leak through).
// RUN: %tmemcheck %s > %t.out 2> %t.err; echo "exit=$?" >> %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=OUT --implicit-check-not='[tmem-' < %t.out
// ERR-NOT: {{.}}
// ERR:     {{^}}tmemcheck: error: {{.*}}compile-error.cu: {{.*}}compile-error.cu:[[@LINE+5]]:{{[0-9]+}}: expected expression
// ERR-NOT: {{.}}
// OUT:     {{^}}exit=2
#include <cstdint>
__global__ void broken(uint32_t taddr) {
  uint32_t n = ;
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(n));
}
