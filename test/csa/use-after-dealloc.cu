// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -verify %s
//
// tmem.TmemLifecycle, use after dealloc: a tcgen05 ld, st, mma (any TMEM
// operand), cp or shift whose address derives from an allocation this path
// already freed (rule A9). Addresses are followed through the slot, local
// copies and lane/column offsets.

#define SMEM_ADDR(p) static_cast<uint32_t>(__cvta_generic_to_shared(p))
#define TMEM_ALLOC(slot, ncols)                                                \
  asm volatile(                                                                \
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"      \
      ::"r"(SMEM_ADDR(slot)), "n"(ncols))
#define TMEM_DEALLOC(taddr, ncols)                                             \
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"         \
               ::"r"(taddr), "n"(ncols))

// An epilogue step added after the dealloc; the lane offset depends on the
// warp.
__global__ void load_after_dealloc(float *out) {
  __shared__ uint32_t slot;
  const uint32_t warp = threadIdx.x / 32;
  if (warp == 0) // expected-note {{Assuming 'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 128); // expected-note {{TMEM allocated here}}
  __syncthreads();
  const uint32_t base = slot;
  __syncthreads();
  if (warp == 0) // expected-note {{'warp' is equal to 0}} expected-note {{Taking true branch}}
    TMEM_DEALLOC(base, 128); // expected-note {{TMEM deallocated here}}
  uint32_t v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" // expected-warning {{tcgen05.ld accesses TMEM after it was deallocated (rule A9)}} expected-note {{tcgen05.ld accesses TMEM after it was deallocated (rule A9)}}
               : "=r"(v) : "r"(base + (((warp % 4) * 32) << 16)));
  out[threadIdx.x] = __uint_as_float(v);
}

// A store to a column or-ed into the address.
__global__ void store_after_dealloc(const float *in) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 128); // expected-note {{TMEM allocated here}}
    const uint32_t base = slot;
    TMEM_DEALLOC(base, 128); // expected-note {{TMEM deallocated here}}
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" // expected-warning {{tcgen05.st accesses TMEM after it was deallocated (rule A9)}} expected-note {{tcgen05.st accesses TMEM after it was deallocated (rule A9)}}
                 :: "r"(base | 64), "r"(__float_as_uint(in[threadIdx.x])));
  }
}

// The accumulator of an (elected) MMA.
__global__ void mma_after_dealloc(uint64_t adesc, uint64_t bdesc,
                                  uint32_t idesc) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 256); // expected-note {{TMEM allocated here}}
    TMEM_DEALLOC(slot, 256); // expected-note {{TMEM deallocated here}}
    asm volatile("{\n\t.reg .pred e, p;\n\t" // expected-warning {{tcgen05.mma accesses TMEM after it was deallocated (rule A9)}} expected-note {{tcgen05.mma accesses TMEM after it was deallocated (rule A9)}}
                 "elect.sync _|e, 0xffffffff;\n\t"
                 "setp.ne.b32 p, %4, 0;\n\t"
                 "@e tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;"
                 "\n\t}"
                 :: "r"(slot), "l"(adesc), "l"(bdesc), "r"(idesc), "r"(0));
  }
}

// The A operand of an MMA read from TMEM: its region was freed, the
// accumulator's was not.
__global__ void mma_a_operand_after_dealloc(uint64_t bdesc, uint32_t idesc) {
  __shared__ uint32_t acc_slot, a_slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&acc_slot, 128);
    TMEM_ALLOC(&a_slot, 32); // expected-note {{TMEM allocated here}}
    const uint32_t acc = acc_slot, a = a_slot;
    TMEM_DEALLOC(a, 32); // expected-note {{TMEM deallocated here}}
    asm volatile("{\n\t.reg .pred e, p;\n\t" // expected-warning {{tcgen05.mma accesses TMEM after it was deallocated (rule A9)}} expected-note {{tcgen05.mma accesses TMEM after it was deallocated (rule A9)}}
                 "elect.sync _|e, 0xffffffff;\n\t"
                 "setp.ne.b32 p, %4, 0;\n\t"
                 "@e tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p;"
                 "\n\t}"
                 :: "r"(acc), "r"(a), "l"(bdesc), "r"(idesc), "r"(1));
    TMEM_DEALLOC(acc, 128);
  }
}

// A copy of scale factors into a freed region, and a shift.
__global__ void copy_and_shift_after_dealloc(uint64_t sdesc, int shift) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note 2 {{Assuming the condition is true}} expected-note 2 {{Taking true branch}}
    TMEM_ALLOC(&slot, 32); // expected-note 2 {{TMEM allocated here}}
    TMEM_DEALLOC(slot, 32); // expected-note 2 {{TMEM deallocated here}}
    if (shift) // expected-note {{Assuming 'shift' is not equal to 0}} expected-note {{Taking true branch}} expected-note {{Assuming 'shift' is 0}} expected-note {{Taking false branch}}
      asm volatile("tcgen05.shift.cta_group::1.down [%0];" :: "r"(slot)); // expected-warning {{tcgen05.shift accesses TMEM after it was deallocated (rule A9)}} expected-note {{tcgen05.shift accesses TMEM after it was deallocated (rule A9)}}
    else
      asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" // expected-warning {{tcgen05.cp accesses TMEM after it was deallocated (rule A9)}} expected-note {{tcgen05.cp accesses TMEM after it was deallocated (rule A9)}}
                   :: "r"(slot + 8), "l"(sdesc));
  }
}

// Through a helper: the report is at the helper's load.
__device__ __forceinline__ uint32_t tmem_ld(uint32_t taddr) {
  uint32_t r;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" // expected-warning 2 {{tcgen05.ld accesses TMEM after it was deallocated (rule A9)}} expected-note 2 {{tcgen05.ld accesses TMEM after it was deallocated (rule A9)}}
               : "=r"(r) : "r"(taddr));
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  return r;
}
__global__ void helper_load_after_dealloc(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 32); // expected-note {{TMEM allocated here}}
    out[threadIdx.x] = __uint_as_float(tmem_ld(slot));
    TMEM_DEALLOC(slot, 32); // expected-note {{TMEM deallocated here}}
    out[threadIdx.x + 32] = __uint_as_float(tmem_ld(slot)); // expected-note {{Calling 'tmem_ld'}}
  }
}

// The address broadcast with __shfl_sync is freed, the slot read later.
__global__ void load_through_slot_after_broadcast_dealloc(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) { // expected-note {{Assuming the condition is true}} expected-note {{Taking true branch}}
    TMEM_ALLOC(&slot, 32); // expected-note {{TMEM allocated here}}
    const uint32_t base = __shfl_sync(0xffffffffu, slot, 0);
    TMEM_DEALLOC(base, 32); // expected-note {{TMEM deallocated here}}
    out[threadIdx.x] = __uint_as_float(tmem_ld(slot)); // expected-note {{Calling 'tmem_ld'}}
  }
}

// Correct: a new allocation read through the slot after the old one was
// freed.
__global__ void new_allocation_in_same_slot(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    TMEM_ALLOC(&slot, 32);
    TMEM_DEALLOC(slot, 32);
    TMEM_ALLOC(&slot, 32);
    out[threadIdx.x] = __uint_as_float(tmem_ld(slot));
    TMEM_DEALLOC(slot, 32);
  }
}

// Correct: the dealloc and the load are on different CTA-uniform paths.
__global__ void dealloc_or_load(float *out, int skip) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    TMEM_ALLOC(&slot, 32);
    if (!skip)
      out[threadIdx.x] = __uint_as_float(tmem_ld(slot));
    TMEM_DEALLOC(slot, 32);
  }
}
