//===- LayoutTest.cpp - Value sets and TMEM roles -------------------------===//
//
// Part of tmemcheck. The small value sets the evaluator keeps for stage
// indices (`tile % 2`, `stage & 1`, `c ? 0 : 128`) and the roles TmemLayout
// infers from them, through the same front end as the CLI (stub headers,
// no CUDA needed).
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/Layout.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace tmemcheck;

namespace {

/// Helpers shared by every kernel of the tests: an alloc publishing the
/// base in `slot`, an f16 mma (M = N = 128), a block-scaled mma and the
/// scale-factor copy.
constexpr const char *Prelude = R"cuda(
__device__ __forceinline__ void alloc512(uint32_t *slot) {
  if (threadIdx.x / 32 == 0)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 "
                 "[%0], 512;"
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot))));
  __syncthreads();
}
__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200490u), "r"(1));
}
__device__ __forceinline__ void mma_mx(uint32_t d, uint64_t a, uint64_t b,
                                       uint32_t sfa, uint32_t sfb) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
               "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale"
               ".scale_vec::1X [%0], %1, %2, %3, [%4], [%5], p;\n\t}"
               :: "r"(d), "l"(a), "l"(b), "r"(0x08200000u), "r"(sfa),
                  "r"(sfb), "r"(1));
}
__device__ __forceinline__ void cp_sf(uint32_t t, uint64_t desc) {
  asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;"
               :: "r"(t), "l"(desc));
}
)cuda";

/// Parses \p Body (kernels using the prelude) and returns its graphs.
std::vector<KernelGraph> kernelsOf(const std::string &Body) {
  llvm::SmallString<128> Path;
  int FD = -1;
  if (llvm::sys::fs::createTemporaryFile("layout-test", "cu", FD, Path))
    return {};
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Prelude << Body;
  }
  FrontendOptions Opts;
  Opts.NoCuda = true;
  std::string Error;
  std::optional<CudaEnvironment> Env = CudaEnvironment::detect(Opts, Error);
  EXPECT_TRUE(Env) << Error;
  std::vector<KernelGraph> Kernels;
  if (Env) {
    clang::tooling::FixedCompilationDatabase Db(".", {});
    TranslationUnitResult TU =
        analyzeTranslationUnit(Db, Path, *Env, FrontendLimits());
    EXPECT_EQ(TU.CompileErrors, 0u) << TU.FirstError;
    Kernels = std::move(TU.Kernels);
  }
  llvm::sys::fs::remove(Path);
  return Kernels;
}

/// The column ranges of the uses with \p Role, as "begin+width" strings
/// with the stage when there is one: "0+128@0".
std::vector<std::string> rangesOf(const KernelGraph &G, TmemRole Role) {
  std::vector<std::string> Out;
  TmemLayout Layout(G);
  for (const RoleUse &U : Layout.uses())
    if (U.Role == Role)
      Out.push_back(std::to_string(*U.Range.Column) + "+" +
                    std::to_string(*U.Range.Width) +
                    (U.Stage ? "@" + std::to_string(*U.Stage) : ""));
  return Out;
}

using Ranges = std::vector<std::string>;

TEST(ValueSets, UnsignedModuloGivesOneRangePerStage) {
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, uint32_t tiles) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  for (uint32_t tile = 0; tile < tiles; ++tile)
    mma(t + (tile % 2) * 128, a, b);
})cuda");
  ASSERT_EQ(K.size(), 1u);
  EXPECT_EQ(rangesOf(K[0], TmemRole::Accumulator),
            (Ranges{"0+128@0", "128+128@1"}));
}

TEST(ValueSets, SignedModuloIsNotASmallSet) {
  // -3 % 2 is -1 for a signed int: the stage could be negative.
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, int tiles) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  for (int tile = 0; tile < tiles; ++tile)
    mma(t + (tile % 2) * 128, a, b);
})cuda");
  ASSERT_EQ(K.size(), 1u);
  EXPECT_TRUE(rangesOf(K[0], TmemRole::Accumulator).empty());
}

TEST(ValueSets, MaskGivesItsSubmasks) {
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, uint32_t x) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  mma(t + (x & 5) * 32, a, b);
})cuda");
  ASSERT_EQ(K.size(), 1u);
  EXPECT_EQ(rangesOf(K[0], TmemRole::Accumulator),
            (Ranges{"0+128@0", "32+128@1", "128+128@2", "160+128@3"}));
}

TEST(ValueSets, ConditionalOfConstants) {
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, bool odd) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  mma(t + (odd ? 256u : 0u), a, b);
})cuda");
  ASSERT_EQ(K.size(), 1u);
  EXPECT_EQ(rangesOf(K[0], TmemRole::Accumulator),
            (Ranges{"0+128@0", "256+128@1"}));
}

TEST(ValueSets, TooManyValuesAreUnknown) {
  // 32 possible stages: more than the set keeps.
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, uint32_t x) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  mma(t + (x % 32) * 8, a, b);
})cuda");
  ASSERT_EQ(K.size(), 1u);
  EXPECT_TRUE(rangesOf(K[0], TmemRole::Accumulator).empty());
}

TEST(ValueSets, OverflowGivesUpInsteadOfWrapping) {
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, uint64_t x) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  mma(t + (uint32_t)((x % 2) * 0x7fffffffffffffffull * 4), a, b);
})cuda");
  ASSERT_EQ(K.size(), 1u);
  EXPECT_TRUE(rangesOf(K[0], TmemRole::Accumulator).empty());
}

TEST(Roles, ScaleFactorCopiesTakeTheRoleTheMmaReadsThemAs) {
  auto K = kernelsOf(R"cuda(
__global__ void k(uint64_t a, uint64_t b, uint64_t sf) {
  __shared__ uint32_t slot;
  alloc512(&slot);
  const uint32_t t = slot;
  if (threadIdx.x == 0) {
    cp_sf(t + 256, sf);
    cp_sf(t + 260, sf);
    cp_sf(t + 300, sf);
    mma_mx(t, a, b, t + 256, t + 260);
  }
})cuda");
  ASSERT_EQ(K.size(), 1u);
  // The mma's operand (4 columns, M / 32) and the copy filling it.
  EXPECT_EQ(rangesOf(K[0], TmemRole::ScaleFactorA), (Ranges{"256+4", "256+4"}));
  EXPECT_EQ(rangesOf(K[0], TmemRole::ScaleFactorB), (Ranges{"260+4", "260+4"}));
  EXPECT_EQ(rangesOf(K[0], TmemRole::Copy), (Ranges{"300+4"}));
  EXPECT_EQ(rangesOf(K[0], TmemRole::Accumulator), (Ranges{"0+128"}));
}

} // namespace
