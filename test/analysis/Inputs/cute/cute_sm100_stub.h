// A stand-in for the shapes of CuTe's SM100 code (cute/arch/copy_sm100.hpp,
// mma_sm100_umma.hpp, arch/util.hpp): atoms whose static copy/fma hold the
// asm only when the arch macro is defined (CuTe compiles it out otherwise),
// and copy_unpack-style forwarding through `detail::explode(CopyOp::copy,
// ...)`, which calls the atom through a function pointer.
#pragma once
#include <cstdint>

#if defined(STUB_TCGEN05_ENABLED)
#define STUB_ASM(...) asm volatile(__VA_ARGS__)
#else
#define STUB_ASM(...) ((void)0)
#endif

namespace cute {

template <int... I> struct int_sequence {};

__device__ inline bool elect_one_sync() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "elect.sync _|p, 0xffffffff;\n\t"
               "selp.b32 %0, 1, 0, p;\n\t}"
               : "=r"(pred));
  return pred != 0;
}

struct SM100_TMEM_LOAD_32dp32b8x {
  using DRegisters = uint32_t[8];
  __device__ static void copy(uint32_t const &src_addr, uint32_t &dst0,
                              uint32_t &dst1, uint32_t &dst2, uint32_t &dst3,
                              uint32_t &dst4, uint32_t &dst5, uint32_t &dst6,
                              uint32_t &dst7) {
    STUB_ASM("tcgen05.ld.sync.aligned.32x32b.x8.b32"
             "{%0, %1, %2, %3, %4, %5, %6, %7},"
             "[%8];\n"
             : "=r"(dst0), "=r"(dst1), "=r"(dst2), "=r"(dst3), "=r"(dst4),
               "=r"(dst5), "=r"(dst6), "=r"(dst7)
             : "r"(src_addr));
  }
};

struct SM100_TMEM_LOAD_16dp32b2x {
  using DRegisters = uint32_t[2];
  __device__ static void copy(uint32_t const &src_addr, uint32_t &dst0,
                              uint32_t &dst1) {
    STUB_ASM("tcgen05.ld.sync.aligned.16x32bx2.x2.b32"
             "{%0, %1},"
             "[%2], 2;\n"
             : "=r"(dst0), "=r"(dst1)
             : "r"(src_addr));
  }
};

struct SM100_TMEM_STORE_32dp32b2x {
  __device__ static void copy(uint32_t const &src0, uint32_t const &src1,
                              uint32_t const &dst_addr) {
    STUB_ASM("tcgen05.st.sync.aligned.32x32b.x2.b32"
             "[%0],"
             "{%1, %2};\n"
             :
             : "r"(dst_addr), "r"(src0), "r"(src1));
  }
};

struct SM100_UTCCP_128dp256bit_1cta {
  __device__ static void copy(uint64_t const &src_addr,
                              uint32_t const &dst_addr) {
    STUB_ASM("tcgen05.cp.cta_group::1.128x256b [%0], %1;"
             :
             : "r"(dst_addr), "l"(src_addr));
  }
};

template <class a_type, class b_type, class c_type, int M, int N>
struct SM100_MMA_F16BF16_SS {
  __device__ static void fma(uint64_t const &desc_a, uint64_t const &desc_b,
                             uint32_t const &tmem_c, uint32_t const &scaleC,
                             uint64_t const &idescE) {
    if (cute::elect_one_sync()) {
      uint32_t mask[4] = {0, 0, 0, 0};
      STUB_ASM("{\n\t"
               ".reg .pred p;\n\t"
               "setp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, "
               "{%5, %6, %7, %8}, p; \n\t"
               "}\n"
               :
               : "r"(tmem_c), "l"(desc_a), "l"(desc_b),
                 "r"(uint32_t(idescE >> 32)), "r"(scaleC), "r"(mask[0]),
                 "r"(mask[1]), "r"(mask[2]), "r"(mask[3]));
    }
  }
};

// An atom whose name says one thing and whose body does another: the tool
// follows the body and says so.
struct SM100_TMEM_LOAD_32dp32b2x {
  __device__ static void copy(uint32_t const &src_addr, uint32_t &dst0,
                              uint32_t &dst1) {
    STUB_ASM("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\n"
             : "=r"(dst0)
             : "r"(src_addr));
    dst1 = 0;
  }
};

namespace detail {
// cute/arch/util.hpp: the atom arrives as a function pointer.
template <class Fn, class PtrS, int... Is, class PtrD, int... Id>
__device__ void explode(Fn fn, PtrS &&s, int_sequence<Is...>, PtrD &&d,
                        int_sequence<Id...>) {
  return fn(s[Is]..., d[Id]...);
}
} // namespace detail

// copy_traits_sm100.hpp's copy_unpack for TMEM loads and stores, reduced.
template <class CopyOp>
__device__ void tmem_load(uint32_t tmem_addr, uint32_t (&regs)[8]) {
  detail::explode(CopyOp::copy, &tmem_addr, int_sequence<0>{}, regs,
                  int_sequence<0, 1, 2, 3, 4, 5, 6, 7>{});
}
template <class CopyOp>
__device__ void tmem_load2(uint32_t tmem_addr, uint32_t (&regs)[2]) {
  detail::explode(CopyOp::copy, &tmem_addr, int_sequence<0>{}, regs,
                  int_sequence<0, 1>{});
}
template <class CopyOp>
__device__ void tmem_store2(uint32_t tmem_addr, uint32_t (&regs)[2]) {
  detail::explode(CopyOp::copy, regs, int_sequence<0, 1>{}, &tmem_addr,
                  int_sequence<0>{});
}
// mma_unpack: a direct call of the atom's fma.
template <class MmaOp>
__device__ void gemm(uint64_t a, uint64_t b, uint32_t tmem_c, uint32_t acc,
                     uint64_t idesc) {
  MmaOp::fma(a, b, tmem_c, acc, idesc);
}

namespace TMEM {
struct Allocator1Sm {
  __device__ void allocate(int num_columns, uint32_t *dst_ptr) {
    uint32_t dst = uint32_t(__cvta_generic_to_shared(dst_ptr));
    STUB_ASM("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], "
             "%1;"
             :
             : "r"(dst), "r"(num_columns));
  }
  __device__ void free(uint32_t tmem_ptr, int num_columns) {
    STUB_ASM("tcgen05.dealloc.cta_group::1.sync.aligned.b32  %0, %1;"
             :
             : "r"(tmem_ptr), "r"(num_columns));
  }
  __device__ void release_allocation_lock() {
    STUB_ASM("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::);
  }
};
} // namespace TMEM
} // namespace cute

namespace cutlass::arch {
__device__ inline void umma_arrive(uint64_t const *smem_ptr) {
  uint32_t bar = uint32_t(__cvta_generic_to_shared(smem_ptr));
  if (cute::elect_one_sync())
    STUB_ASM("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
             "cluster.b64 [%0];" ::"r"(bar));
}
__device__ inline void fence_view_async_tmem_load() {
  STUB_ASM("tcgen05.wait::ld.sync.aligned;" ::);
}
} // namespace cutlass::arch
