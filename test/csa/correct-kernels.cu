// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -verify %s
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -analyzer-config -Xclang unroll-loops=true -Xclang -verify %s
//
// tmem.TmemLifecycle must stay silent on correct kernels: the role idioms of
// CUTLASS and DeepGEMM, where one warp allocates, other warps use the TMEM
// and the same or another warp frees it, and the cases where the checker
// cannot know (an address it cannot trace, a function it cannot see).

// expected-no-diagnostics

#define SMEM_ADDR(p) static_cast<uint32_t>(__cvta_generic_to_shared(p))

__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(SMEM_ADDR(slot)), "r"(ncols) : "memory");
}
__device__ __forceinline__ void tmem_relinquish() {
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
               ::: "memory");
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
               :: "r"(taddr), "r"(ncols) : "memory");
}
__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
               : "=r"(r) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return r;
}
__device__ __forceinline__ void tmem_st(uint32_t taddr, uint32_t v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};"
               :: "r"(taddr), "r"(v));
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void tmem_mma(uint32_t d, uint64_t adesc,
                                         uint64_t bdesc, uint32_t idesc,
                                         uint32_t accumulate) {
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(adesc), "l"(bdesc), "r"(idesc),
                  "r"(accumulate));
}
__device__ __forceinline__ void mma_commit(uint64_t *bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
               ".shared::cluster.b64 [%0];" :: "r"(SMEM_ADDR(bar)) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n\t.reg .pred done;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra WAIT_%=;\n\t}"
               :: "r"(SMEM_ADDR(bar)), "r"(phase) : "memory");
}
__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(pred));
  return pred != 0;
}
// CUTLASS's canonical_warp_idx_sync: the warp index broadcast from lane 0.
__device__ __forceinline__ uint32_t warp_idx() {
  return __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
}

// The pattern every kernel uses: warp 0 allocates, a barrier publishes the
// address, every warp works, a barrier, warp 0 frees. The role test is
// evaluated twice; the analyzer keeps both consistent on one thread's path.
__global__ void role_pattern(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    tmem_alloc(&slot, 128);
    tmem_relinquish();
  }
  __syncthreads();
  const uint32_t base = slot;
  if (warp < 4)
    out[threadIdx.x] = __uint_as_float(tmem_ld(base + ((warp * 32) << 16)));
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(base, 128);
}

// The warp index recomputed at every use, through __shfl_sync, and role
// tests wrapped in __builtin_expect.
__global__ void recomputed_warp_index(float *out) {
  __shared__ uint32_t slot;
  if (__builtin_expect(warp_idx() == 0, 1))
    tmem_alloc(&slot, 64);
  __syncthreads();
  if (warp_idx() == 1)
    tmem_st(slot + 32, 7u);
  __syncthreads();
  if (__builtin_expect(warp_idx() == 0, 1))
    tmem_dealloc(slot, 64);
}

// A persistent warp-specialised kernel: an MMA warp issues (elected) into
// the accumulator for every tile, epilogue warps 4..7 read it back, and the
// allocating warp frees after the last barrier.
__global__ void persistent_gemm(float *out, const uint64_t *adesc,
                                const uint64_t *bdesc, uint32_t idesc,
                                int num_tiles) {
  __shared__ uint32_t slot;
  __shared__ uint64_t full_bar;
  const uint32_t warp = warp_idx();
  if (warp == 0) {
    tmem_alloc(&slot, 256);
    tmem_relinquish();
  }
  __syncthreads();
  const uint32_t acc = slot;
  uint32_t phase = 0;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    if (warp == 1) {
      if (elect_one()) {
        for (int k = 0; k < 4; ++k)
          tmem_mma(acc + (tile & 1) * 128, adesc[k], bdesc[k], idesc, k);
        mma_commit(&full_bar);
      }
    } else if (warp >= 4) {
      mbar_wait(&full_bar, phase);
      const uint32_t lane_base = ((warp % 4) * 32) << 16;
      out[tile * 128 + threadIdx.x % 128] = __uint_as_float(
          tmem_ld(acc + lane_base + (tile & 1) * 128));
    }
    phase ^= 1;
  }
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(acc, 256);
}

// The address broadcast from lane 0 with __shfl_sync is the same address.
__global__ void broadcast_address(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot, 128);
  __syncthreads();
  const uint32_t base = __shfl_sync(0xffffffffu, slot, 0);
  if (warp < 4)
    out[threadIdx.x] = __uint_as_float(tmem_ld(base + ((warp * 32) << 16)));
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(base, 128);
}

// DeepGEMM allocates in one warp and frees in another (rules A7): the
// allocating thread never runs the dealloc, another warp does.
__global__ void alloc_and_free_in_different_warps(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 2) {
    tmem_alloc(&slot, 512);
  }
  __syncthreads();
  if (warp == 2) {
    tmem_st(slot, 1u);
  } else if (warp == 0) {
    out[0] = 1.0f;
  }
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(slot, 512);
}

// The same with the dealloc in an else-arm of the allocating branch.
__global__ void free_in_other_arm(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 2) {
    tmem_alloc(&slot, 32);
    __syncthreads();
    __syncthreads();
  } else {
    __syncthreads();
    out[threadIdx.x] = 0.0f;
    __syncthreads();
    if (warp == 0)
      tmem_dealloc(slot, 32);
  }
}

// Two spellings of "warp 0": the analyzer cannot relate them, so the path
// where the alloc ran and the dealloc did not is only one thread's view.
__global__ void different_spellings(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot, 32);
  __syncthreads();
  if (threadIdx.x < 32)
    tmem_dealloc(slot, 32);
}

// Allocation inside a helper that also gives up the permit and returns the
// address; the helper is not a kernel, so it does not leak by returning.
__device__ uint32_t alloc_relinquish_and_get(uint32_t *slot, uint32_t ncols) {
  tmem_alloc(slot, ncols);
  tmem_relinquish();
  return *slot;
}
__global__ void helper_returns_address(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    const uint32_t t = alloc_relinquish_and_get(&slot, 64);
    out[threadIdx.x] = __uint_as_float(tmem_ld(t + 32));
    tmem_dealloc(t, 64);
  }
}

// A fresh allocation per iteration, freed in the same iteration; the permit
// is given up after the loop.
__global__ void alloc_per_iteration(float *out, int n) {
  __shared__ uint32_t slot;
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x < 32) {
      tmem_alloc(&slot, 32);
      out[i * 32 + threadIdx.x] = __uint_as_float(tmem_ld(slot));
      tmem_dealloc(slot, 32);
    }
    __syncthreads();
  }
  if (threadIdx.x < 32)
    tmem_relinquish();
}

// A constant-trip loop (fully unrolled with unroll-loops=true), then the
// dealloc after it.
__global__ void constant_loop(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot, 128);
  __syncthreads();
  const uint32_t base = slot;
  float acc = 0.0f;
  if (warp < 4)
    for (int k = 0; k < 16; ++k)
      acc += __uint_as_float(tmem_ld(base + ((warp * 32) << 16) + k));
  out[threadIdx.x] = acc;
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(base, 128);
}

// The slot lives in dynamic shared memory; barriers do not lose it.
struct SharedStorage {
  uint64_t full_bar;
  uint32_t tmem_base;
};
__global__ void slot_in_dynamic_smem(float *out, int m) {
  extern __shared__ char smem[];
  SharedStorage &ss = *reinterpret_cast<SharedStorage *>(smem);
  const uint32_t warp = threadIdx.x / 32;
  if (blockIdx.x * 128 >= m) // before the alloc: nothing to free
    return;
  if (warp == 0)
    tmem_alloc(&ss.tmem_base, 64);
  __syncthreads();
  const uint32_t base = ss.tmem_base;
  if (warp == 0)
    out[threadIdx.x] = __uint_as_float(tmem_ld(base));
  __syncthreads();
  if (warp == 0)
    tmem_dealloc(base, 64);
}

// Two regions in two slots, freed in the opposite order.
__global__ void two_regions(float *out) {
  __shared__ uint32_t acc_slot, sf_slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) {
    tmem_alloc(&acc_slot, 128);
    tmem_alloc(&sf_slot, 32);
    tmem_relinquish();
  }
  __syncthreads();
  const uint32_t acc = acc_slot, sf = sf_slot;
  if (warp == 0) {
    out[threadIdx.x] = __uint_as_float(tmem_ld(acc) + tmem_ld(sf));
  }
  __syncthreads();
  if (warp == 0) {
    tmem_dealloc(sf, 32);
    tmem_dealloc(acc, 128);
  }
}

// The slot address arrives as a number the checker cannot trace to a
// variable: nothing is assumed about it.
__global__ void untraceable_slot(uint32_t smem_slot_addr, uint32_t taddr) {
  if (threadIdx.x < 32) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "r"(smem_slot_addr));
    tmem_dealloc(taddr, 32);
    tmem_dealloc(taddr, 32);
  }
}

// A function compiled elsewhere (-rdc) may free what it is given.
extern __device__ void release_tmem(uint32_t taddr);
__global__ void freed_elsewhere(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    tmem_alloc(&slot, 32);
    release_tmem(slot);
  }
}

// An error path that traps after the alloc does not return.
__global__ void trap_on_error(float *out, int status) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot, 32);
  __syncthreads();
  if (status != 0) {
    asm volatile("trap;");
    return;
  }
  if (warp == 0)
    tmem_dealloc(slot, 32);
}

// CUTLASS's allocator (cute::TMEM::Allocator1Sm) is modelled by name; its
// SM100 body is compiled out under Clang, so this stand-in has the same
// member functions with the real asm.
namespace cute {
namespace TMEM {
struct Allocator1Sm {
  __device__ void allocate(int num_columns, uint32_t *dst_ptr) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
        :: "r"(SMEM_ADDR(dst_ptr)), "r"(num_columns));
  }
  __device__ void free(uint32_t tmem_ptr, int num_columns) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(tmem_ptr), "r"(num_columns) : "memory");
  }
  __device__ void release_allocation_lock() {
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;"
                 ::: "memory");
  }
};
} // namespace TMEM
} // namespace cute

__global__ void cutlass_allocator(float *out) {
  __shared__ uint32_t tmem_base;
  cute::TMEM::Allocator1Sm allocator;
  const uint32_t warp = warp_idx();
  if (warp == 0) {
    allocator.allocate(256, &tmem_base);
    allocator.release_allocation_lock();
  }
  __syncthreads();
  if (warp < 4)
    out[threadIdx.x] = __uint_as_float(tmem_ld(tmem_base + ((warp * 32) << 16)));
  __syncthreads();
  if (warp == 0)
    allocator.free(tmem_base, 256);
}
