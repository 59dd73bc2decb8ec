// RUN: %tmemcheck %s 2>&1 | FileCheck %s --check-prefix=DEFAULT --allow-empty
// RUN: not %tmemcheck --checks=tmem-ld-use-before-wait %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// tmem-ld-use-before-wait (strict, off by default): a register written by
// tcgen05.ld is read before tcgen05.wait::ld. Legal PTX (register
// dependency, rules §5.2), so the default run stays silent. The fix-it puts
// a wait::ld before the statement that reads the register.
// DEFAULT-NOT: tmem-ld-use-before-wait

__device__ __forceinline__ void ld2(uint32_t taddr, uint32_t (&r)[2]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];"
               : "=r"(r[0]), "=r"(r[1]) : "r"(taddr));
}

__device__ __forceinline__ void wait_ld() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__global__ void straight_line(uint32_t taddr, float *out) {
  uint32_t a;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(a) : "r"(taddr));
  // CHECK: ld-use-before-wait.cu:[[@LINE+3]]:28: warning: 'a' is read before tcgen05.wait::ld; the value is defined by the register dependency, but the columns stay in flight [tmem-ld-use-before-wait]
  // CHECK-NEXT: fix-it:"{{.*}}ld-use-before-wait.cu":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"  wait_ld();\n"
  // CHECK-NEXT: ld-use-before-wait.cu:[[@LINE-4]]:17: note: tcgen05.ld writes 'a' here
  out[0] = __uint_as_float(a);
  wait_ld();
  out[1] = __uint_as_float(a); // after the wait: fine
}

__global__ void through_reference_param(uint32_t taddr, float *out) {
  uint32_t regs[2];
  ld2(taddr, regs);
  // CHECK: ld-use-before-wait.cu:[[@LINE+3]]:28: warning: 'regs' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
  // CHECK-NEXT: fix-it:"{{.*}}ld-use-before-wait.cu":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"  wait_ld();\n"
  // CHECK-NEXT: ld-use-before-wait.cu:[[@LINE-3]]:3: note: tcgen05.ld writes 'regs' here
  out[0] = __uint_as_float(regs[0]);
  wait_ld();
}

__global__ void one_path_waits(uint32_t taddr, float *out, int flag) {
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(v) : "r"(taddr));
  if (flag)
    wait_ld();
  // CHECK: ld-use-before-wait.cu:[[@LINE+2]]:28: warning: 'v' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
  // CHECK-NEXT: fix-it:"{{.*}}ld-use-before-wait.cu":{[[@LINE+1]]:1-[[@LINE+1]]:1}:"  wait_ld();\n"
  out[0] = __uint_as_float(v);
  wait_ld();
}

__global__ void loop_carried(uint32_t taddr, float *out, int n) {
  uint32_t v = 0;
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    // The value loaded in the previous iteration is read here; the wait at
    // the bottom of the loop covers it.
    acc += __uint_as_float(v);
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(taddr + i));
    wait_ld();
  }
  out[0] = acc;
}

__global__ void loop_wait_outside(uint32_t taddr, float *out, int n) {
  uint32_t v = 0;
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    // CHECK: ld-use-before-wait.cu:[[@LINE+2]]:28: warning: 'v' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
    // CHECK-NEXT: fix-it:"{{.*}}ld-use-before-wait.cu":{[[@LINE+1]]:1-[[@LINE+1]]:1}:"    wait_ld();\n"
    acc += __uint_as_float(v);
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                 : "=r"(v) : "r"(taddr + i));
  }
  wait_ld();
  out[0] = acc;
}

// No fix-it: the read is the body of a loop without braces, or one lane
// reads (wait::ld is .sync.aligned).
__global__ void reads_without_fix(uint32_t taddr, float *out) {
  uint32_t r[2];
  ld2(taddr, r);
  float sum = 0;
  for (int i = 0; i < 2; ++i)
    // CHECK: ld-use-before-wait.cu:[[@LINE+1]]:28: warning: 'r' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
    sum += __uint_as_float(r[i]);
  if (threadIdx.x % 32 == 0) {
    // CHECK: ld-use-before-wait.cu:[[@LINE+1]]:30: warning: 'r' is read before tcgen05.wait::ld;{{.*}}[tmem-ld-use-before-wait]
    out[1] = __uint_as_float(r[1]) + sum;
  }
  wait_ld();
}

// Must not be flagged: wait before every read, other variables, and a
// load whose result is only stored after the wait.
__global__ void waits_first(uint32_t taddr, float *out) {
  uint32_t r[2];
  uint32_t unrelated = threadIdx.x;
  ld2(taddr, r);
  out[2] = __uint_as_float(unrelated);
  wait_ld();
  out[0] = __uint_as_float(r[0]) + __uint_as_float(r[1]);
}
