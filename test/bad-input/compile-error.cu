// A translation unit with a compile error: the compiler's error as a
// `file:line:col: error:` line on stderr, then one line naming the file and
// the count, no crash, exit 2 (clang's own "N error(s) generated" line must
// not leak through).
// RUN: %tmemcheck %s > %t.out 2> %t.err; echo "exit=$?" >> %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=OUT --implicit-check-not='[tmem-' < %t.out
// ERR-NOT: {{.}}
// ERR:     {{^}}{{.*}}compile-error.cu:[[@LINE+6]]:{{[0-9]+}}: error: expected expression
// ERR-NEXT: {{^}}tmemcheck: error: {{.*}}compile-error.cu: 1 compile error(s), results may be incomplete
// ERR-NOT: {{.}}
// OUT:     {{^}}exit=2
#include <cstdint>
__global__ void broken(uint32_t taddr) {
  uint32_t n = ;
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(n));
}
