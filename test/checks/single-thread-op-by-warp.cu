// RUN: not %tmemcheck --checks='-*,tmem-single-thread-op-by-warp' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-single-thread-op-by-warp: mma, cp, shift and commit are issued by a
// single thread (rules §2 issue granularity). A warp that runs them without
// electing one lane issues 32 of them (EXP-7) and, for commit, 32 arrives.

__device__ __forceinline__ void mma_f16(uint32_t d, uint64_t adesc,
                                        uint64_t bdesc, uint32_t idesc,
                                        uint32_t accumulate) {
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(adesc), "l"(bdesc), "r"(idesc),
                  "r"(accumulate));
}

__device__ __forceinline__ void commit(uint32_t bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];" :: "r"(bar) : "memory");
}

// CUTLASS's cute::elect_one_sync.
__device__ __forceinline__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .b32 %%rx;\n\t.reg .pred %%px;\n\t"
               "elect.sync %%rx|%%px, %1;\n\t@%%px mov.s32 %0, 1;\n\t}"
               : "+r"(pred) : "r"(0xffffffffu));
  return pred;
}

// The MMA warp forgot the election: every single-thread instruction is
// issued 32 times.
__global__ void mma_warp_without_election(uint32_t taddr, uint64_t adesc,
                                          uint64_t bdesc, uint32_t idesc,
                                          uint32_t bar, int k_blocks) {
  if (threadIdx.x / 32 == 1) {
    for (int k = 0; k < k_blocks; ++k) {
      // CHECK: single-thread-op-by-warp.cu:[[@LINE+3]]:21: error: tcgen05.mma is a single-thread operation, but every thread that reaches it issues one (32 per warp); elect one thread, e.g. with elect.sync [tmem-single-thread-op-by-warp]
      asm volatile("{\n\t.reg .pred p;\n\t"
                   "setp.ne.b32 p, %4, 0;\n\t"
                   "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;"
                   "\n\t}"
                   :: "r"(taddr), "l"(adesc), "l"(bdesc), "r"(idesc),
                      "r"(k));
    }
    // CHECK: single-thread-op-by-warp.cu:[[@LINE+1]]:19: error: tcgen05.commit is a single-thread operation, but every thread that reaches it issues one (32 per warp); elect one thread, e.g. with elect.sync [tmem-single-thread-op-by-warp]
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
                 ".shared::cluster.b64 [%0];" :: "r"(bar) : "memory");
  }
}

__global__ void cp_and_shift_by_whole_warp(uint32_t taddr, uint64_t sdesc) {
  // CHECK: single-thread-op-by-warp.cu:[[@LINE+1]]:17: error: tcgen05.cp is a single-thread operation, but every thread that reaches it issues one (32 per warp); elect one thread, e.g. with elect.sync [tmem-single-thread-op-by-warp]
  asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;"
               :: "r"(taddr), "l"(sdesc));
  // CHECK: single-thread-op-by-warp.cu:[[@LINE+1]]:17: error: tcgen05.shift is a single-thread operation, but every thread that reaches it issues one (32 per warp); elect one thread, e.g. with elect.sync [tmem-single-thread-op-by-warp]
  asm volatile("tcgen05.shift.cta_group::1.down [%0];" :: "r"(taddr));
}

// Through helpers: the finding is at the call in the kernel, with a note at
// the instruction.
__global__ void helpers_without_election(uint32_t taddr, uint64_t adesc,
                                         uint64_t bdesc, uint32_t idesc,
                                         uint32_t bar) {
  uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    // CHECK: single-thread-op-by-warp.cu:[[@LINE+2]]:5: error: tcgen05.mma is a single-thread operation{{.*}}[tmem-single-thread-op-by-warp]
    // CHECK-NEXT: single-thread-op-by-warp.cu:12:17: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside 'mma_f16'
    mma_f16(taddr, adesc, bdesc, idesc, 0);
    // CHECK: single-thread-op-by-warp.cu:[[@LINE+2]]:5: error: tcgen05.commit is a single-thread operation{{.*}}[tmem-single-thread-op-by-warp]
    // CHECK-NEXT: single-thread-op-by-warp.cu:18:17: note: 'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64' is issued here, inside 'commit'
    commit(bar);
  }
}

// Must not be flagged: every way of electing one thread.
__global__ void elected(uint32_t taddr, uint64_t adesc, uint64_t bdesc,
                        uint32_t idesc, uint32_t bar, uint64_t sdesc) {
  uint32_t warp = threadIdx.x / 32;
  uint32_t lane = threadIdx.x % 32;
  if (warp == 1) {
    // A helper named like CUTLASS's.
    if (elect_one_sync()) {
      mma_f16(taddr, adesc, bdesc, idesc, 1);
      commit(bar);
    }
    // elect.sync in the kernel, its output tested by an `if`.
    uint32_t leader = 0;
    asm volatile("{\n\t.reg .pred e;\n\t"
                 "elect.sync _|e, 0xffffffff;\n\t"
                 "selp.b32 %0, 1, 0, e;\n\t}" : "=r"(leader));
    if (leader)
      asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;"
                   :: "r"(taddr), "l"(sdesc));
    // elect.sync and a @p guard in the same asm string.
    asm volatile("{\n\t.reg .pred e, p;\n\t"
                 "elect.sync _|e, 0xffffffff;\n\t"
                 "setp.ne.b32 p, %4, 0;\n\t"
                 "@e tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;"
                 "\n\t@e tcgen05.commit.cta_group::1.mbarrier::arrive::one"
                 ".shared::cluster.b64 [%5];\n\t}"
                 :: "r"(taddr), "l"(adesc), "l"(bdesc), "r"(idesc), "r"(1),
                    "r"(bar));
  }
  // Lane tests.
  if (threadIdx.x % 32 == 0)
    commit(bar);
  if (warp == 2 && lane == 0)
    asm volatile("tcgen05.shift.cta_group::1.down [%0];" :: "r"(taddr));
  if (threadIdx.x == 0)
    mma_f16(taddr, adesc, bdesc, idesc, 1);
}

// An early return of all but one lane is an election too.
__global__ void elected_by_early_return(uint32_t taddr, uint32_t bar) {
  if (threadIdx.x != 0)
    return;
  asm volatile("tcgen05.shift.cta_group::1.down [%0];" :: "r"(taddr));
  commit(bar);
}
