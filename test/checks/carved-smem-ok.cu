// RUN: %tmemcheck %s 2>&1 | count 0
//
// Must not be flagged by any default check: a generated-kernel style that
// carves one dynamic shared-memory buffer by byte offsets. The mbarriers
// and the TMEM address slot are integer shared addresses (`smem + 616`);
// the slot is read back through a pointer into the same buffer. Two
// accumulator stages: the MMA warp waits for a stage to be empty, commits to
// its full mbarrier; the epilogue waits on that, reads the accumulator,
// waits for its loads and releases the stage, then tells the deallocating
// warp it is done.

__device__ __forceinline__ void bar_init(int bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count));
}

__device__ __forceinline__ void bar_wait(int bar, int phase) {
  asm volatile("{\n\t.reg .pred ok;\n\tAGAIN_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 ok, [%0], %1;\n\t"
               "@!ok bra AGAIN_%=;\n\t}" :: "r"(bar), "r"(phase) : "memory");
}

__device__ __forceinline__ void bar_arrive(int bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

__device__ __forceinline__ bool leader() {
  uint32_t is_leader = 0;
  asm volatile("{\n\t.reg .pred q;\n\telect.sync _|q, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, q;\n\t}" : "=r"(is_leader));
  return is_leader != 0;
}

// kind::f16, BF16 x BF16 -> F32, M = 128, N = 64.
constexpr uint32_t kIdesc =
    (1u << 4) | (1u << 7) | (1u << 10) | ((64u >> 3) << 17) | ((128u >> 4) << 24);

#define ACC_FULL(stage) (smem + 0 + (stage) * 8)
#define ACC_EMPTY(stage) (smem + 16 + (stage) * 8)
#define DEALLOC_READY (smem + 32)
#define TMEM_SLOT (smem + 616)

__global__ void __launch_bounds__(256)
carved(uint64_t adesc, uint64_t bdesc, int num_tiles, float *out) {
  extern __shared__ __align__(1024) char smem_raw[];
  const int smem = static_cast<int>(__cvta_generic_to_shared(smem_raw));
  volatile int *tmem_slot = reinterpret_cast<volatile int *>(smem_raw + 616);
  const int warp = threadIdx.x / 32;

  if (warp == 0 && leader()) {
    bar_init(ACC_FULL(0), 1);
    bar_init(ACC_FULL(1), 1);
    bar_init(ACC_EMPTY(0), 4);
    bar_init(ACC_EMPTY(1), 4);
    bar_init(DEALLOC_READY, 4);
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(TMEM_SLOT), "r"(128) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const int taddr = tmem_slot[0];

  if (warp == 1) {
    if (leader()) {
      for (int tile = 0; tile < num_tiles; ++tile) {
        const int stage = tile & 1;
        bar_wait(ACC_EMPTY(stage), ((tile >> 1) & 1) ^ 1);
        asm volatile("tcgen05.fence::after_thread_sync;");
        asm volatile("{\n\t.reg .pred acc;\n\tsetp.ne.b32 acc, %4, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, acc;\n\t}"
                     :: "r"(taddr + stage * 64), "l"(adesc), "l"(bdesc),
                        "r"(kIdesc), "r"(0));
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                     :: "r"(ACC_FULL(stage)) : "memory");
      }
    }
    __syncwarp();
  } else if (warp >= 4) {
    const int lanes = ((warp % 4) * 32) << 16;
    for (int tile = 0; tile < num_tiles; ++tile) {
      const int stage = tile & 1;
      bar_wait(ACC_FULL(stage), (tile >> 1) & 1);
      asm volatile("tcgen05.fence::after_thread_sync;");
      float v;
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                   : "=f"(v) : "r"(taddr + lanes + stage * 64));
      asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
      asm volatile("tcgen05.fence::before_thread_sync;");
      if (leader())
        bar_arrive(ACC_EMPTY(stage));
      out[tile * 128 + (threadIdx.x - 128)] = v;
    }
    asm volatile("tcgen05.fence::before_thread_sync;");
    if (leader())
      bar_arrive(DEALLOC_READY);
  }
  if (warp == 0) {
    bar_wait(DEALLOC_READY, 0);
    asm volatile("tcgen05.fence::after_thread_sync;");
    const int base = *tmem_slot;
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(base), "r"(128));
  }
}

// The slot's offset in the buffer is not a constant (a layout computed from
// launch parameters) and the dealloc passes column 0, as DeepGEMM does with
// its single allocation: no region can be named, so nothing is reported
// (no leak for want of a matching dealloc).
__global__ void __launch_bounds__(128) carved_at_runtime_offset(int slot_offset) {
  extern __shared__ __align__(1024) char smem_raw[];
  const int smem = static_cast<int>(__cvta_generic_to_shared(smem_raw));
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(smem + slot_offset * 4), "r"(64) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(0), "r"(64));
}
