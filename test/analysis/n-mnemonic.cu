// RUN: not %tmemcheck --checks='-*,tmem-cta-group-mismatch,tmem-alloc-ncols,tmem-leak' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-" --implicit-check-not=fix-it:
// RUN: not %tmemcheck-bin --no-cuda --no-snippets --checks='-*,tmem-cta-group-mismatch' %s 2>&1 | FileCheck %s --check-prefix=REMARK
//
// Immediate asm operands inside a mnemonic (learn-cuda's common.h:
// `tcgen05.alloc.cta_group::%2` with "n"(CTA_GROUP)) are substituted before
// the instruction is decoded: a template parameter, a constexpr, a literal.
// Without that every such alloc, dealloc, mma and commit was dropped.

template <int CTA_GROUP>
__device__ inline void tmem_alloc(int smem_addr, int size) {
  asm volatile("tcgen05.alloc.cta_group::%2.sync.aligned.shared::cta.b32 [%0], %1;"
               :: "r"(smem_addr), "r"(size), "n"(CTA_GROUP));
}
template <int CTA_GROUP>
__device__ inline void tmem_dealloc(int taddr, int size) {
  asm volatile("tcgen05.dealloc.cta_group::%2.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(size), "n"(CTA_GROUP));
}
template <int CTA_GROUP>
__device__ inline void tmem_mma(int taddr, unsigned long long a_desc, unsigned long long b_desc,
                                int i_desc, int enable_input_d) {
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::%5.kind::f16 [%0], %1, %2, %3, p;\n\t"
               "}"
               :: "r"(taddr), "l"(a_desc), "l"(b_desc), "r"(i_desc),
                  "r"(enable_input_d), "n"(CTA_GROUP));
}
template <int CTA_GROUP>
__device__ inline void tmem_commit(int mbar_addr) {
  asm volatile("tcgen05.commit.cta_group::%1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
               :: "r"(mbar_addr), "n"(CTA_GROUP) : "memory");
}

// Must not be flagged: one cta_group throughout, 128 columns freed.
template <int CTA_GROUP>
__global__ void consistent(unsigned long long a, unsigned long long b, int idesc, int mbar) {
  __shared__ int slot;
  const int warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc<CTA_GROUP>(static_cast<int>(__cvta_generic_to_shared(&slot)), 128);
  __syncthreads();
  if (threadIdx.x == 0) {
    tmem_mma<CTA_GROUP>(slot, a, b, idesc, 0);
    tmem_commit<CTA_GROUP>(mbar);
  }
  __syncthreads();
  if (warp == 0)
    tmem_dealloc<CTA_GROUP>(slot, 128);
}
template __global__ void consistent<1>(unsigned long long, unsigned long long, int, int);
template __global__ void consistent<2>(unsigned long long, unsigned long long, int, int);

constexpr int kPair = 2;

// The commit's cta_group::%1 is 1 (a literal), the rest 2 (a constexpr):
// the kernel mixes them, which only the substituted text shows.
__global__ void mixed(unsigned long long a, unsigned long long b, int idesc, int mbar) {
  __shared__ int slot;
  const int warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc<kPair>(static_cast<int>(__cvta_generic_to_shared(&slot)), 128);
  __syncthreads();
  if (threadIdx.x == 0) {
    tmem_mma<kPair>(slot, a, b, idesc, 0);
    // CHECK: n-mnemonic.cu:[[@LINE+3]]:5: error: kernel 'mixed' mixes cta_group::1 and cta_group::2; every tcgen05 instruction of a kernel must use the same cta_group (rule A12) [tmem-cta-group-mismatch]
    // CHECK-NEXT: n-mnemonic.cu:32:17: note: 'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64' is issued here, inside 'tmem_commit'
    // CHECK-NEXT: n-mnemonic.cu:[[@LINE-6]]:5: note: cta_group::2 first used here
    tmem_commit<1>(mbar);
  }
  __syncthreads();
  if (warp == 0)
    tmem_dealloc<kPair>(slot, 128);
}

// The column count is an operand, the cta_group an "n" literal: the alloc
// is seen, so its bad size and the missing dealloc are too.
__global__ void literal_group() {
  __shared__ int slot;
  if (threadIdx.x / 32 == 0) {
    // CHECK: n-mnemonic.cu:[[@LINE+5]]:19: error: tcgen05.alloc requests 96 columns;{{.*}}[tmem-alloc-ncols]
    // CHECK-NEXT: fix-it:"{{.*}}n-mnemonic.cu":{[[@LINE+6]]:25-[[@LINE+6]]:27}:"128"
    // CHECK-NEXT: n-mnemonic.cu:[[@LINE+3]]:19: note: use 128 columns, the next legal size
    // CHECK-NEXT: n-mnemonic.cu:[[@LINE+2]]:19: error: TMEM allocated into 'slot' (96 columns) is still allocated when the kernel exits on some path;{{.*}}[tmem-leak]
    // CHECK-NEXT: n-mnemonic.cu:[[@LINE+5]]:1: note: no tcgen05.dealloc frees this region before the kernel ends
    asm volatile("tcgen05.alloc.cta_group::%2.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(static_cast<int>(__cvta_generic_to_shared(&slot))),
                    "r"(96), "n"(1));
  }
}

// A template pattern never instantiated: the "n" value is unknown there, and
// the instruction cannot be decoded; the tool says so.
template <int G>
__global__ void pattern_only(int taddr) {
  // REMARK: n-mnemonic.cu:[[@LINE+1]]:17: remark: cannot decode 'tcgen05.dealloc.cta_group::%1.sync.aligned.b32': {{.*}}invalid '.cta_group::%1' (expected .cta_group::1 or .cta_group::2)
  asm volatile("tcgen05.dealloc.cta_group::%1.sync.aligned.b32 %0, 128;"
               :: "r"(taddr), "n"(G));
}
