// RUN: not %tmemcheck --checks='-*,tmem-alloc-ncols' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-alloc-ncols: column counts that reach tcgen05.alloc/dealloc through
// registers (ptxas cannot check them, rules EXP-2) and dealloc immediates
// (ptxas only checks "multiple of 32", EXP-3).

__device__ __forceinline__ void alloc_cols(uint32_t slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(slot), "r"(ncols));
}

__device__ __forceinline__ void dealloc_cols(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols));
}

__global__ void literal_in_register() {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:3: error: tcgen05.alloc requests 96 columns; the column count must be a power of two in [32, 512] (rule A1) [tmem-alloc-ncols]
  // CHECK-NEXT: alloc-ncols.cu:[[@LINE+1]]:3: note: use 128 columns, the next legal size
  alloc_cols(s, 96);
  __syncthreads();
  // CHECK: alloc-ncols.cu:[[@LINE+1]]:3: error: tcgen05.dealloc frees 96 columns;{{.*}}[tmem-alloc-ncols]
  dealloc_cols(slot, 96);
}

constexpr uint32_t kTooWide = 1024;

__global__ void constexpr_count() {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:3: error: tcgen05.alloc requests 1024 columns; the column count must be a power of two in [32, 512] (rule A1) [tmem-alloc-ncols]
  // CHECK-NEXT: note: a CTA can hold at most 512 columns
  alloc_cols(s, kTooWide);
}

template <uint32_t kCols> __global__ void templated_count() {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  // CHECK: alloc-ncols.cu:[[@LINE+1]]:3: error: tcgen05.alloc requests 48 columns;{{.*}}[tmem-alloc-ncols]
  alloc_cols(s, kCols);
  // Legal in both instantiations: a constant expression of the parameter.
  alloc_cols(s, kCols < 64 ? 64 : kCols);
}
template __global__ void templated_count<48>();
template __global__ void templated_count<128>();

__global__ void dealloc_immediate(uint32_t taddr) {
  // ptxas accepts 160 (a multiple of 32) although no alloc can have it.
  // CHECK: alloc-ncols.cu:[[@LINE+1]]:17: error: tcgen05.dealloc frees 160 columns;{{.*}}[tmem-alloc-ncols]
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 160;"
               :: "r"(taddr));
  // CHECK: alloc-ncols.cu:[[@LINE+1]]:17: error: tcgen05.dealloc frees 0 columns;{{.*}}[tmem-alloc-ncols]
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "n"(0));
}

// Must not be flagged: every legal size, a local that is never modified, a
// count known only at run time (a kernel parameter), a template pattern.
__global__ void legal_sizes(uint32_t runtime_cols) {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  alloc_cols(s, 32);
  alloc_cols(s, 64);
  const uint32_t kCols = 256;
  alloc_cols(s, kCols);
  uint32_t local = 512;
  alloc_cols(s, local);
  alloc_cols(s, runtime_cols);
  dealloc_cols(slot, 128);
}

template <int N> __global__ void never_instantiated() {
  __shared__ uint32_t slot;
  alloc_cols(static_cast<uint32_t>(__cvta_generic_to_shared(&slot)), N);
}

// A local that is reassigned is not a constant.
__global__ void reassigned(int flag) {
  __shared__ uint32_t slot;
  uint32_t n = 96;
  if (flag)
    n = 128;
  alloc_cols(static_cast<uint32_t>(__cvta_generic_to_shared(&slot)), n);
}
