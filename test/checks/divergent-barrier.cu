// RUN: not %tmemcheck --checks='-*,tmem-divergent-barrier' %s 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// tmem-divergent-barrier: aligned barriers that the threads they
// synchronise reach at different instructions (rule B1), and the correct
// look-alikes. test/ptx/Inputs/regenerate.sh compiles this file to
// divergent-barrier.ptx (test/ptx/divergent-barrier.test);
// nvcc-validate-smem-barrier.test compiles it for sm_100a.

__device__ __forceinline__ void tmem_alloc(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
               "[%0], 128;" ::"r"((uint32_t)__cvta_generic_to_shared(slot)));
}
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 128;" ::"r"(
      taddr));
}
__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\n\t"
               "tcgen05.wait::ld.sync.aligned;"
               : "=r"(r)
               : "r"(taddr)
               : "memory");
  return r;
}
__device__ __forceinline__ void named_sync(uint32_t id, uint32_t count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// Warp-specialised partitions that leave through their own exits, each
// with its own CTA-wide barrier 0 (the Triton #11525 shape): the epilogue
// warps' loads are not ordered before warp 0's dealloc.
__global__ void partitions_own_barrier(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0)
    tmem_alloc(&slot);
  __syncthreads();
  const uint32_t taddr = slot;
  if (warp < 4) {
    // CHECK: divergent-barrier.cu:[[@LINE+4]]:5: error: the warps that branch apart reach barrier 0 at two different instructions, this '__syncthreads()' and the one at line [[@LINE+8]]; '__syncthreads()' is aligned: every thread of the CTA must wait at the same barrier instruction (rule B1) [tmem-divergent-barrier]
    // CHECK-NEXT: divergent-barrier.cu:[[@LINE+7]]:3: note: the threads of the other arm wait here
    // CHECK-NEXT: divergent-barrier.cu:[[@LINE-3]]:7: note: the threads split here; move one barrier after the point where the arms meet, or give each role its own named barrier with its thread count (bar.sync id, count)
    out[threadIdx.x] = __uint_as_float(tmem_ld(taddr + ((warp * 32) << 16)));
    __syncthreads();
    return;
  }
  out[threadIdx.x] = 0.0f;
  __syncthreads();
  if (warp == 4)
    tmem_dealloc(taddr);
}

// Lanes of one warp at two different aligned barriers.
__global__ void lanes_apart(float *out) {
  if (threadIdx.x % 32 < 16) {
    // CHECK: divergent-barrier.cu:[[@LINE+5]]:5: error: lanes of one warp reach different aligned barriers, this 'bar.sync' and the one at line [[@LINE+8]]; an aligned barrier must be executed by all threads of the warp at the same instruction (rule B1) [tmem-divergent-barrier]
    // CHECK-NEXT: divergent-barrier.cu:{{[0-9]+}}:17: note: 'bar.sync' is issued here, inside 'named_sync'
    // CHECK-NEXT: divergent-barrier.cu:[[@LINE+6]]:5: note: the threads of the other arm wait here
    // CHECK-NEXT: divergent-barrier.cu:[[@LINE-4]]:7: note: this condition differs between the lanes of a warp
    out[threadIdx.x] = 1.0f;
    named_sync(1, 128);
  } else {
    out[threadIdx.x] = 2.0f;
    named_sync(2, 128);
  }
}

// Correct: the warps that leave take no part in the named barrier, whose
// thread count is that of the warps that stay.
__global__ void early_exit_counted(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp >= 2)
    return;
  if (warp == 0)
    tmem_alloc(&slot);
  named_sync(1, 64);
  const uint32_t taddr = slot;
  out[threadIdx.x] = __uint_as_float(tmem_ld(taddr + ((warp * 32) << 16)));
  named_sync(1, 64);
  if (warp == 0)
    tmem_dealloc(taddr);
}

// Correct: one barrier after the divergent region reconverges.
__global__ void reconverged(float *out) {
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = 1.0f;
  else
    out[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] += 1.0f;
}

// Correct: warp roles, each with its own named barrier and count.
__global__ void roles_own_ids(float *out) {
  const uint32_t warp = threadIdx.x / 32;
  if (warp < 4) {
    out[threadIdx.x] = 1.0f;
    named_sync(1, 128);
    out[threadIdx.x] += 1.0f;
  } else {
    out[threadIdx.x] = 2.0f;
    named_sync(2, 128);
    out[threadIdx.x] += 2.0f;
  }
  __syncthreads();
}

// Correct: a CTA-uniform branch, every thread at the same barrier.
__global__ void cta_uniform_arms(float *out, int mode) {
  if (blockIdx.x == 0 || mode) {
    out[threadIdx.x] = 1.0f;
    __syncthreads();
  } else {
    out[threadIdx.x] = 2.0f;
    __syncthreads();
  }
}

// Correct: a persistent tile loop whose warp roles meet at one barrier per
// tile; only the elected thread of the producer issues work.
__global__ void persistent_roles(float *out, int tiles) {
  const uint32_t warp = threadIdx.x / 32;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    if (warp == 0) {
      if (threadIdx.x == 0)
        out[tile] = 1.0f;
    } else if (warp == 1) {
      out[tile * 32 + threadIdx.x % 32] = 2.0f;
    } else {
      named_sync(1, 64);
    }
    __syncthreads();
  }
}
