// Inline asm that is not PTX, or tcgen05 text that cannot be decoded
// (cta_group::3, missing operands, an unknown tcgen05 opcode), must not
// crash the tool. Undecodable tcgen05 text is a remark (shown without
// --quiet), not a finding; the kernel that runs it is incomplete, so the
// exit code is 1 (test/cli/verdicts.test); non-PTX text is ignored.
// RUN: %tmemcheck-bin --no-cuda --no-snippets %s > %t.out 2> %t.err; echo "exit=$?" >> %t.out
// RUN: FileCheck %s --implicit-check-not='[tmem-' --implicit-check-not='error:' --implicit-check-not='warning:' < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %tmemcheck %s > %t.quiet 2>&1; echo "exit=$?" >> %t.quiet
// RUN: FileCheck %s --check-prefix=QUIET < %t.quiet
// QUIET-NOT: {{.}}
// QUIET:     {{^}}exit=1
// ERR:       tmemcheck: 1 file(s), 1 kernel(s): 0 error(s), 0 warning(s); 1 kernel(s) incomplete
// ERR:       tmemcheck: exit status 1: 1 kernel(s) could not be analysed in full
// CHECK-DAG: not-ptx.cu:23:17: remark: kernel 'not_ptx' runs tcgen05 inline asm that could not be read (here and in the other statements the remarks name): what it does to TMEM is unknown

#include <cstdint>

__global__ void not_ptx(uint32_t x) {
  // CHECK-NOT: not-ptx.cu:[[@LINE+1]]
  asm volatile("this is not ptx %0" :: "r"(x));
  // CHECK-DAG: not-ptx.cu:[[@LINE+1]]:17: remark: cannot decode 'tcgen05.alloc.cta_group::3.sync.aligned'{{.*}}cta_group::3
  asm volatile("tcgen05.alloc.cta_group::3.sync.aligned [%0], 64;" :: "r"(x));
  // CHECK-DAG: not-ptx.cu:[[@LINE+1]]:17: remark: cannot decode 'tcgen05.alloc'
  asm volatile("tcgen05.alloc;" :: "r"(x));
  // CHECK-DAG: not-ptx.cu:[[@LINE+1]]:17: remark: cannot decode 'tcgen05.bogus.thing'{{.*}}unknown tcgen05 instruction
  asm volatile("tcgen05.bogus.thing %0;" :: "r"(x));
  // CHECK-DAG: not-ptx.cu:[[@LINE+1]]:{{[0-9]+}}: remark: cannot parse inline asm
  asm volatile("tcgen05." :: "r"(x));
  asm volatile("");
  asm volatile("{ .reg .pred p; }");
}
// CHECK: {{^}}exit=1
