// REQUIRES: csa-plugin
// RUN: %tmemcheck-bin --print-stub-header > %t.h
// RUN: %csa-analyze -nocudainc -include %t.h -Xclang -verify %s
//
// Asm the checker cannot model: it neither crashes nor guesses. Some of
// these strings are not valid PTX on purpose (ptxas would reject them), so
// this file is not part of nvcc-validate.test.

// expected-no-diagnostics

#define SMEM_ADDR(p) static_cast<uint32_t>(__cvta_generic_to_shared(p))

__global__ void malformed(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    // No such cta_group, missing operands, garbage after the opcode.
    asm volatile("tcgen05.alloc.cta_group::3.sync.aligned.shared::cta.b32 "
                 "[%0], 32;" :: "r"(SMEM_ADDR(&slot)));
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32;");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, ]]]{{;"
                 :: "r"(slot));
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [" : "=r"(slot));
    asm volatile("");
    asm volatile("// tcgen05.alloc in a comment\n\t/* tcgen05.dealloc */");
    asm volatile("tcgen05");
  }
}

// The slot operand is not an lvalue the path can name.
__global__ void untraceable_slots(uint32_t *generic, uint32_t smem_addr) {
  if (threadIdx.x < 32) {
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "n"(0));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.b32 [%0], 32;"
                 :: "l"(nullptr));
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "r"(smem_addr));
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0+4], 32;"
        :: "r"(smem_addr));
  }
}

// Addresses computed inside the asm, a guarded alloc and dealloc.
__global__ void inside_the_asm(float *out) {
  __shared__ uint32_t slot;
  if (threadIdx.x < 32) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %1, 0;\n\t"
                 "@p tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 32;\n\t}"
                 :: "r"(SMEM_ADDR(&slot)), "r"(threadIdx.x));
    asm volatile("{\n\t.reg .b32 t;\n\tmov.b32 t, 0;\n\t"
                 "tcgen05.dealloc.cta_group::1.sync.aligned.b32 t, 32;\n\t}");
    asm volatile(
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
        :: "r"(SMEM_ADDR(&slot)));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
                 "@p tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;\n\t}"
                 :: "r"(slot), "r"(threadIdx.x));
  }
}
