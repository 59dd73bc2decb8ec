// RUN: not %tmemcheck --checks='-*,tmem-alloc-ncols' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// clang-tidy style suppression comments: NOLINT, NOLINT(check-list),
// NOLINTNEXTLINE(...), NOLINTBEGIN/NOLINTEND; a list naming another check
// does not suppress.

__device__ __forceinline__ void alloc_cols(uint32_t slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(slot), "r"(ncols));
}

__global__ void suppressed(uint32_t s) {
  alloc_cols(s, 96); // NOLINT
  alloc_cols(s, 96); // NOLINT(tmem-alloc-ncols)
  alloc_cols(s, 96); // NOLINT(tmem-alloc-*)
  // NOLINTNEXTLINE(tmem-alloc-ncols)
  alloc_cols(s, 96);
  // NOLINTBEGIN(tmem-alloc-ncols)
  alloc_cols(s, 96);
  alloc_cols(s, 48);
  // NOLINTEND(tmem-alloc-ncols)
}

__global__ void not_suppressed(uint32_t s) {
  // CHECK: nolint.cu:[[@LINE+1]]:3: error: tcgen05.alloc requests 96 columns;{{.*}}[tmem-alloc-ncols]
  alloc_cols(s, 96); // NOLINT(tmem-leak)
  // NOLINTNEXTLINE(tmem-leak)
  // CHECK: nolint.cu:[[@LINE+1]]:3: error: tcgen05.alloc requests 48 columns;{{.*}}[tmem-alloc-ncols]
  alloc_cols(s, 48);
  // CHECK: nolint.cu:[[@LINE+1]]:3: error: tcgen05.alloc requests 80 columns;{{.*}}[tmem-alloc-ncols]
  alloc_cols(s, 80); // NOLINTNEXTLINE does not apply to its own line
}
