// Input of region-ends.test: findings whose code spans more than a token.
__device__ __forceinline__ void tmem_alloc(uint32_t *slot, uint32_t ncols) {
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
      :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))),
         "r"(ncols) : "memory");
}

#define ALLOC_96(slot) tmem_alloc(slot, 96)

// A call over three lines: the region ends at its closing parenthesis.
__global__ void multi_line_call() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    tmem_alloc(&slot,
               /* not a power of two */
               96);
}

// A call written by a macro: the region is the macro's call site.
__global__ void macro_call() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    ALLOC_96(&slot);
}

// An asm statement whose template is two literals on two lines: the region
// is the instruction, from its opcode to its ';'.
__global__ void asm_statement() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 96;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))));
}

#define IN_WARP_0(stmt)                                                        \
  if (threadIdx.x / 32 == 0) {                                                 \
    stmt;                                                                      \
  }

// A call written as a macro's argument: the region is the argument as
// written.
__global__ void macro_argument() {
  __shared__ uint32_t slot;
  IN_WARP_0(tmem_alloc(&slot, 96));
}
