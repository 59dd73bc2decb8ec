// RUN: not %tmemcheck --checks='-*,tmem-single-thread-op-by-warp,tmem-divergent-collective' %s -- -std=c++20 2>&1 | FileCheck %s --implicit-check-not="[tmem-"
//
// Elections written as inline-asm elect.sync, whatever the helper is called:
// CuTe's elect_one_sync (`@%%px mov.s32 %1, 1` into a "+r" variable that
// starts at 0), ThunderKittens' elect_leader (`selp.u32 %0, 1, 0, P`), and
// the asm written straight into the kernel. A branch on one of them selects
// one lane: a single-thread op under it is elected (silent), a
// warp-collective op under it is divergent (an error). The leader's lane id
// that CuTe's asm also returns is the same in every lane: no election.
#include <cstdint>
#include <utility>

namespace cute {
__device__ __forceinline__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  uint32_t laneid = 0;
  asm volatile("{\n"
               ".reg .b32 %%rx;\n"
               ".reg .pred %%px;\n"
               "     elect.sync %%rx|%%px, %2;\n"
               "@%%px mov.s32 %1, 1;\n"
               "     mov.s32 %0, %%rx;\n"
               "}\n"
               : "+r"(laneid), "+r"(pred)
               : "r"(0xFFFFFFFF));
  return pred;
}
} // namespace cute

namespace kittens {
template <int GROUP_WARPS> struct group {
  __device__ static inline bool elect_leader() {
    if constexpr (GROUP_WARPS == 1) {
      uint32_t elected = 0;
      asm volatile("{.reg .pred P;\n"
                   " elect.sync _|P, %1;\n"
                   " selp.u32 %0, 1, 0, P;}\n"
                   : "+r"(elected)
                   : "r"(0xFFFFFFFF));
      return static_cast<bool>(elected);
    } else {
      return (threadIdx.x / 32 == 0 && group<1>::elect_leader());
    }
  }
};
} // namespace kittens

// The leader's lane id (CuTe's ElectOneLaneIdReturnType shape).
__device__ __forceinline__ uint32_t leader_lane() {
  uint32_t laneid = 0;
  asm volatile("{\n.reg .b32 %%rx;\n.reg .pred %%px;\n"
               "elect.sync %%rx|%%px, 0xffffffff;\n"
               "mov.s32 %0, %%rx;\n}"
               : "+r"(laneid));
  return laneid;
}

// "+r" starting at 1 and set to 1 by the elected lane: 1 everywhere.
__device__ __forceinline__ uint32_t not_an_election() {
  uint32_t p = 1;
  asm volatile("{\n.reg .pred %%px;\nelect.sync _|%%px, 0xffffffff;\n"
               "@%%px mov.s32 %0, 1;\n}"
               : "+r"(p));
  return p;
}

struct Mma { // DeepGEMM's ptx::SM100_MMA_F16BF16_SS: no election inside
  __device__ static void fma(uint64_t const &a, uint64_t const &b,
                             uint32_t const &c, uint32_t const &scale_c,
                             uint64_t const &desc) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; \n\t}\n"
                 ::"r"(c), "l"(a), "l"(b), "r"(static_cast<uint32_t>(desc >> 32)),
                 "r"(scale_c));
  }
};

template <uint32_t kNumValid, uint32_t... kIdx, typename FuncT>
__device__ void for_each_static_until(std::integer_sequence<uint32_t, kIdx...>,
                                      FuncT &&func) {
  ((kIdx < kNumValid ? func.template operator()<kIdx>() : void()), ...);
}

__device__ __forceinline__ void alloc128(uint32_t *slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"
               ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
}

// DeepGEMM's MMA warp: the mma reached through lambdas and a fold
// expression, under `if (cute::elect_one_sync())`: elected, silent.
__global__ void deepgemm_elected(uint64_t a, uint64_t b, uint64_t d,
                                 uint32_t tmem, int num_k_blocks) {
  if (threadIdx.x / 32 == 1) {
    for (int k = 0; k < num_k_blocks; ++k) {
      const uint32_t accumulate = k > 0;
      if (cute::elect_one_sync()) {
        auto issue_umma = [&]<uint32_t kIdx>() {
          Mma::fma(a, b, tmem, kIdx > 0 or accumulate, d);
        };
        auto issue_full_k_block = [&]() {
          for_each_static_until<4>(std::make_integer_sequence<uint32_t, 4>(),
                                   issue_umma);
        };
        issue_full_k_block();
      }
      __syncwarp();
    }
  }
}

// The same chain without the election: every lane issues the mma. (The
// loop counter is not captured: a variable captured by reference counts as
// modified anywhere, and a loop on an unknown condition may be the
// election.)
__global__ void deepgemm_no_election(uint64_t a, uint64_t b, uint64_t d,
                                     uint32_t tmem, int num_k_blocks) {
  if (threadIdx.x / 32 == 1) {
    for (int k = 0; k < num_k_blocks; ++k) {
      const uint32_t accumulate = k > 0;
      auto issue_umma = [&]<uint32_t kIdx>() {
        Mma::fma(a, b, tmem, kIdx > 0 or accumulate, d);
      };
      auto issue_full_k_block = [&]() {
        for_each_static_until<4>(std::make_integer_sequence<uint32_t, 4>(),
                                 issue_umma);
      };
      // CHECK: elect-asm.cu:[[@LINE+2]]:25: error: tcgen05.mma is a single-thread operation, but every thread that reaches it issues one (32 per warp); elect one thread, e.g. with elect.sync [tmem-single-thread-op-by-warp]
      // CHECK-NEXT: elect-asm.cu:72:{{[0-9]+}}: note: 'tcgen05.mma.cta_group::1.kind::f16' is issued here, inside '{{.*}}operator()'
      issue_full_k_block();
      __syncwarp();
    }
  }
}

// ThunderKittens' elect_leader guards the mma (silent); the alloc under it
// runs in one lane of the warp (error).
__global__ void kittens_leader(uint64_t a, uint64_t b, uint64_t d,
                               uint32_t tmem) {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0) {
    if (kittens::group<1>::elect_leader())
      Mma::fma(a, b, tmem, 0, d);
    if (kittens::group<1>::elect_leader())
      // CHECK: elect-asm.cu:[[@LINE+1]]:7: error: tcgen05.alloc is warp-collective (.sync.aligned) {{.*}}[tmem-divergent-collective]
      alloc128(&slot);
  }
}

// The asm written into the kernel: a branch on its predicate output.
__global__ void inline_election(uint64_t a, uint64_t b, uint64_t d,
                                uint32_t tmem) {
  __shared__ uint32_t slot;
  uint32_t leader;
  asm volatile("{\n.reg .pred P;\nelect.sync _|P, 0xffffffff;\n"
               "selp.b32 %0, 1, 0, P;\n}"
               : "=r"(leader));
  if (threadIdx.x / 32 == 2 && leader)
    Mma::fma(a, b, tmem, 0, d);
  if (threadIdx.x / 32 == 0 && leader)
    // CHECK: elect-asm.cu:[[@LINE+1]]:5: error: tcgen05.alloc is warp-collective (.sync.aligned) {{.*}}[tmem-divergent-collective]
    alloc128(&slot);
}

// Not elections: the leader's lane id is warp-uniform, and a variable that
// the elected lane sets to its initial value is the same in every lane.
// The alloc under them is not divergent (silent).
__global__ void not_elections() {
  __shared__ uint32_t slot;
  if (threadIdx.x / 32 == 0 && leader_lane() == 0)
    alloc128(&slot);
  if (threadIdx.x / 32 == 1 && not_an_election())
    alloc128(&slot);
}
