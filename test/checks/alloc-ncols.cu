// RUN: not %tmemcheck --checks='-*,tmem-alloc-ncols' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
//
// tmem-alloc-ncols: column counts that reach tcgen05.alloc/dealloc through
// registers (ptxas cannot check them, rules EXP-2) and dealloc immediates
// (ptxas only checks "multiple of 32", EXP-3). A count written as an
// integer literal (at the instruction or as the argument of a wrapper that
// only passes it on) gets a fix-it that rounds it up; any other spelling
// (macro, named constant, template argument) gets none.

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
  // CHECK: alloc-ncols.cu:[[@LINE+3]]:3: error: tcgen05.alloc requests 96 columns; the column count must be a power of two in [32, 512] (rule A1) [tmem-alloc-ncols]
  // CHECK-NEXT: fix-it:"{{.*}}alloc-ncols.cu":{[[@LINE+2]]:17-[[@LINE+2]]:19}:"128"
  // CHECK-NEXT: alloc-ncols.cu:[[@LINE+1]]:3: note: use 128 columns, the next legal size
  alloc_cols(s, 96);
  __syncthreads();
  // The dealloc is rounded to what the (fixed) alloc gets.
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:3: error: tcgen05.dealloc frees 96 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: fix-it:"{{.*}}alloc-ncols.cu":{[[@LINE+1]]:22-[[@LINE+1]]:24}:"128"
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

// The literal keeps its suffix; an immediate of the asm template is
// rewritten inside the string (ptxas accepts 80 for a dealloc, EXP-3).
__global__ void suffix_and_immediate() {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  // CHECK: alloc-ncols.cu:[[@LINE+3]]:3: error: tcgen05.alloc requests 80 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: fix-it:"{{.*}}alloc-ncols.cu":{[[@LINE+2]]:39-[[@LINE+2]]:42}:"128u"
  // CHECK-NEXT: note: use 128 columns, the next legal size
  alloc_cols(s, static_cast<uint32_t>(80u));
  __syncthreads();
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:17: error: tcgen05.dealloc frees 96 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: fix-it:"{{.*}}alloc-ncols.cu":{[[@LINE+1]]:67-[[@LINE+1]]:69}:"128"
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 96;"
               :: "r"(slot));
}

// No fix-it: the count is a macro, a named constant, passed through a
// helper that also uses it for something else, or has no legal size; a
// dealloc whose kernel allocates another size is not guessed at.
#define ACC_COLS 96
__device__ __forceinline__ void alloc_and_clear(uint32_t slot, uint32_t ncols,
                                                uint32_t *cleared) {
  alloc_cols(slot, ncols);
  *cleared = ncols;
}

__global__ void not_rewritable(uint32_t *cleared) {
  __shared__ uint32_t slot;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&slot));
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:3: error: tcgen05.alloc requests 96 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: note: use 128 columns, the next legal size
  alloc_cols(s, ACC_COLS);
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:3: error: tcgen05.alloc requests 48 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: note: use 64 columns, the next legal size
  alloc_and_clear(s, 48, cleared);
  // CHECK: alloc-ncols.cu:[[@LINE+2]]:3: error: tcgen05.alloc requests 600 columns;{{.*}}[tmem-alloc-ncols]
  // CHECK-NEXT: note: a CTA can hold at most 512 columns
  alloc_cols(s, 600);
}

__global__ void dealloc_of_another_size() {
  __shared__ uint32_t slot;
  alloc_cols(static_cast<uint32_t>(__cvta_generic_to_shared(&slot)), 256);
  __syncthreads();
  // CHECK: alloc-ncols.cu:[[@LINE+1]]:3: error: tcgen05.dealloc frees 96 columns;{{.*}}[tmem-alloc-ncols]
  dealloc_cols(slot, 96);
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
