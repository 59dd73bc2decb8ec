// RUN: not %tmemcheck --checks='-*,tmem-missing-wait-ld,tmem-accumulator-read-before-commit' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// The shape of generated warp-specialised kernels (FlashInfer's FlashKDA):
// the shared-memory base is declared, then assigned (`int smem; smem =
// cvta(...)`), every pipeline's mbarriers are carved from the one dynamic
// buffer at fixed offsets (`smem + 16 + stage * 8`), and the compute warps
// keep a running state in TMEM. They store it, read it back, store the
// update and only then arrive on `state_ready`, which the MMA warp waits on
// before its mma rewrites the state columns. Their reads before that
// arrive are not reads of an mma result; the reads after it follow the
// wait on the commit barrier. The compute warps never wait::ld: a
// tcgen05.st followed by wait::st orders the earlier ld only under PTX
// 9.4 (warnings), a hand-off with nothing ordering the ld is an error.

__device__ __forceinline__ void mbar_init(int bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
               : "memory");
}
__device__ __forceinline__ void mbar_arrive(int bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar)
               : "memory");
}
__device__ __forceinline__ void mbar_wait(int bar, unsigned phase) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra W_%=;\n\t}" ::"r"(bar),
               "r"(phase)
               : "memory");
}
__device__ __forceinline__ void commit(int bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(bar)
               : "memory");
}
// D = 128 lanes x 64 columns (idesc N = 64).
__device__ __forceinline__ void mma(int d, unsigned long long a,
                                    unsigned long long b, int acc) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::
                   "r"(d),
               "l"(a), "l"(b), "r"(0x08100490u), "r"(acc)
               : "memory");
}
__device__ __forceinline__ void ld_x4(float *dst, int taddr) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
               : "=f"(dst[0]), "=f"(dst[1]), "=f"(dst[2]), "=f"(dst[3])
               : "r"(taddr));
}
__device__ __forceinline__ void st_x4(int taddr, const float *src) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1, %2, %3, %4};"
               ::"r"(taddr),
               "f"(src[0]), "f"(src[1]), "f"(src[2]), "f"(src[3])
               : "memory");
}
__device__ __forceinline__ void wait_st() {
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// kBug 0: correct. 1: the compute warps arrive on state_ready before they
// read the state. 2: the MMA warp does not wait on state_ready. 3: the
// state is read and handed back without any store ordering the load.
template <int kBug>
__global__ void __launch_bounds__(160)
    carved(float *out, unsigned long long da, unsigned long long db,
           int chunks, int checkpoint) {
  extern __shared__ __align__(1024) char smem_raw[];
  int smem;
  smem = (int)(unsigned long long)__cvta_generic_to_shared(smem_raw);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#define state_ready(s) (smem + 0 + (s) * 8)
#define acc_full(s) (smem + 16 + (s) * 8)
#define dealloc_ready (smem + 32)
  if (warp == 0) {
    for (int b = lane; b < 2; b += 32)
      mbar_init(smem + 0 + b * 8, 4);
    for (int b = lane; b < 3; b += 32)
      mbar_init(smem + 16 + b * 8, 1);
  }
  __syncthreads();
  volatile int *slot = (volatile int *)(smem_raw + 64);
  if (warp == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 128;" ::"r"(smem + 64)
                 : "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const int taddr = slot[0];
  if (warp < 4) {
    const int row = (warp * 32) << 16;
    float v[4] = {0.f, 0.f, 0.f, 0.f};
    st_x4(taddr + 64 + row, v);
    wait_st();
    if (checkpoint) {
      float c[4];
      ld_x4(c, taddr + 64 + row);
      out[threadIdx.x] = c[0] + c[1] + c[2] + c[3];
    }
    unsigned s = 0, phase = 0;
    for (int i = 0; i < chunks; ++i) {
      if (kBug == 1 && lane == 0)
        mbar_arrive(state_ready(s));
      float x[4];
      ld_x4(x, taddr + 64 + row);
      for (int k = 0; k < 4; ++k)
        x[k] = x[k] * 0.5f;
      if (kBug != 3) {
        st_x4(taddr + row, x);
        wait_st();
      } else {
        out[threadIdx.x] = x[0] + x[1] + x[2] + x[3];
      }
      if (kBug != 1 && lane == 0)
        mbar_arrive(state_ready(s));
      mbar_wait(acc_full(s), phase);
      s ^= 1;
      if (s == 0)
        phase ^= 1;
    }
    float f[4];
    ld_x4(f, taddr + 64 + row);
    out[threadIdx.x] = f[0] + f[1] + f[2] + f[3];
    asm volatile("barrier.sync 1, 128;" ::: "memory");
    if (warp == 0 && lane == 0)
      mbar_arrive(dealloc_ready);
  } else if (warp == 4) {
    unsigned s = 0, phase = 0;
    for (int i = 0; i < chunks; ++i) {
      if (kBug != 2)
        mbar_wait(state_ready(s), phase);
      mma(taddr + 64, da, db, 1);
      commit(acc_full(s));
      s ^= 1;
      if (s == 0)
        phase ^= 1;
    }
    mbar_wait(dealloc_ready, 0);
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(
                     taddr)
                 : "memory");
    asm volatile(
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
}

template __global__ void carved<0>(float *, unsigned long long,
                                   unsigned long long, int, int);
template __global__ void carved<1>(float *, unsigned long long,
                                   unsigned long long, int, int);
template __global__ void carved<2>(float *, unsigned long long,
                                   unsigned long long, int, int);
template __global__ void carved<3>(float *, unsigned long long,
                                   unsigned long long, int, int);

// carved<0> (correct) has one finding, the warning at line 113 below.
// Neither its checkpoint read nor the read after the loop (zero trips: the
// MMA warp never got the state) is an accumulator read before commit, and
// the arrive on dealloc_ready, whose waiter only deallocates, hands
// nothing over.
//
// carved<2>: nothing holds the mma back, the checkpoint read races with it.
// CHECK: carved-pipeline-handoff.cu:95:7: error: tcgen05.ld reads the accumulator in 'smem_raw[64]' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
// CHECK: carved-pipeline-handoff.cu:130:7: note: the mma writing it; the commits that track it arrive on mbarriers this path does not wait on
//
// carved<1> arrives on state_ready first: the previous chunk's load (st +
// wait::st between) is ordered under PTX 9.4 only, the checkpoint load not
// at all, and the mma may rewrite the state while it is read.
// CHECK: carved-pipeline-handoff.cu:101:9: warning: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders it before the later tcgen05.st of this warp that a tcgen05.wait::st completed, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
// CHECK: carved-pipeline-handoff.cu:103:7: note: the tcgen05.ld is issued here
// CHECK: carved-pipeline-handoff.cu:101:9: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
// CHECK: carved-pipeline-handoff.cu:95:7: note: the tcgen05.ld is issued here
// CHECK: carved-pipeline-handoff.cu:103:7: error: tcgen05.ld reads the accumulator in 'smem_raw[64]' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
//
// carved<3> hands the state back with nothing ordering its loads; carved<0>
// hands back the checkpoint load (line 95) after a tcgen05.st of this warp
// and its wait::st, which order the load under PTX 9.4 only.
// CHECK: carved-pipeline-handoff.cu:113:9: error: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; wait for the load with tcgen05.wait::ld first (rules §5.2) [tmem-missing-wait-ld]
// CHECK: carved-pipeline-handoff.cu:113:9: warning: this mbarrier arrive lets other threads reuse columns that a tcgen05.ld of this thread may still be reading; PTX ISA 9.4 orders it before the later tcgen05.st of this warp that a tcgen05.wait::st completed, earlier versions (9.1, CUDA 13.0) do not: wait for the load with tcgen05.wait::ld first to be correct under both (rules §5.1, §5.2) [tmem-missing-wait-ld]
// CHECK: carved-pipeline-handoff.cu:95:7: note: the tcgen05.ld is issued here
//
// carved<2> again: after a loop of no trips the read is not behind a
// commit wait, and the mma was never held back.
// CHECK: carved-pipeline-handoff.cu:120:5: error: tcgen05.ld reads the accumulator in 'smem_raw[64]' before waiting on an mbarrier that a tcgen05.commit of the mma writing it arrives on; the mma may not have finished (rules §5.2) [tmem-accumulator-read-before-commit]
