// RUN: not %tmemcheck --checks='-*,tmem-alloc-budget' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
// RUN: not %tmemcheck --checks='-*,tmem-alloc-budget' --assume-ctas-per-sm=3 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,ASSUMED --implicit-check-not="[tmem-"
//
// tmem-alloc-budget, co-resident CTAs: the CTAs a launch keeps on one SM
// share its 512 columns. When their peaks do not fit together, the extra
// CTAs wait in tcgen05.alloc until another frees its columns (rule A4):
// the occupancy asked for is never reached. A warning with the numbers.

template <uint32_t kCols>
__device__ __forceinline__ void alloc_dealloc(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], %1;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(slot)), "n"(kCols));
  __syncthreads();
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(*slot), "n"(kCols));
}

// Two CTAs per SM, each holding 512 columns.
// CHECK: alloc-budget-coresident.cu:[[@LINE+2]]:17: warning: __launch_bounds__ asks for 2 co-resident CTAs per SM, and each holds 512 TMEM columns at its peak: 1024 columns are needed but an SM has 512; only 1 of them can hold their columns at once, the others wait in tcgen05.alloc until one frees them (rule A4) [tmem-alloc-budget]
// CHECK-NEXT: alloc-budget-coresident.cu:[[@LINE+4]]:3: note: the CTA holds 512 columns after this allocation
__global__ void __launch_bounds__(256, 2) two_ctas_full() {
  __shared__ uint32_t slot;
  // A helper call in the kernel: the note is at this line.
  alloc_dealloc<512>(&slot);
}

// Must not be flagged: two CTAs of 256 columns fit.
__global__ void __launch_bounds__(256, 2) two_ctas_half() {
  __shared__ uint32_t slot;
  alloc_dealloc<256>(&slot);
}

// Must not be flagged: one CTA per SM.
__global__ void __launch_bounds__(128, 1) one_cta_full() {
  __shared__ uint32_t slot;
  alloc_dealloc<512>(&slot);
}

// No launch bounds: only the assumption (3 CTAs per SM) judges it.
// ASSUMED: alloc-budget-coresident.cu:[[@LINE+2]]:17: warning: the launch is assumed to keep 3 co-resident CTAs per SM, and each holds 256 TMEM columns at its peak: 768 columns are needed but an SM has 512; only 2 of them can hold their columns at once, the others wait in tcgen05.alloc until one frees them (rule A4) [tmem-alloc-budget]
// ASSUMED-NEXT: alloc-budget-coresident.cu:[[@LINE+3]]:3: note: the CTA holds 256 columns after this allocation
__global__ void no_bounds_half() {
  __shared__ uint32_t slot;
  alloc_dealloc<256>(&slot);
}

// Must not be flagged even with the assumption: the launch bounds say one.
__global__ void __launch_bounds__(128, 1) bounds_win() {
  __shared__ uint32_t slot;
  alloc_dealloc<512>(&slot);
}

// The launch assumption can come from .tmemcheck.yaml too.
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/k.cu
// RUN: printf 'AssumeCtasPerSm: 3\n' > %t.dir/.tmemcheck.yaml
// RUN: not %tmemcheck --checks='-*,tmem-alloc-budget' %t.dir/k.cu 2>&1 | FileCheck %s --check-prefix=CONFIG
// RUN: %tmemcheck --dump-config %t.dir/k.cu | FileCheck %s --check-prefix=DUMP
// CONFIG: k.cu:45:17: warning: the launch is assumed to keep 3 co-resident CTAs per SM
// DUMP: AssumeCtasPerSm: 3
