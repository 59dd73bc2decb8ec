//===- FootprintTest.cpp - Footprint and constant tables ------------------===//
//
// Part of tmemcheck. Checks Footprint.cpp against tcgen05-rules.md §3, §11.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/Footprint.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

TEST(FootprintTest, Constants) {
  EXPECT_EQ(TmemLanes, 128u);
  EXPECT_EQ(TmemColumns, 512u);
  EXPECT_EQ(TmemAllocUnit, 32u);
}

TEST(FootprintTest, LegalAllocColumnCounts) {
  for (int64_t N : {32, 64, 128, 256, 512})
    EXPECT_TRUE(isLegalAllocColumnCount(N)) << N;
  for (int64_t N : {-32, 0, 1, 16, 31, 33, 48, 96, 160, 384, 544, 576, 1024})
    EXPECT_FALSE(isLegalAllocColumnCount(N)) << N;
}

TEST(FootprintTest, RoundUpAllocColumnCount) {
  EXPECT_EQ(roundUpToLegalAllocColumnCount(-5), 32u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(0), 32u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(1), 32u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(32), 32u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(33), 64u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(96), 128u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(257), 512u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(512), 512u);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(513), std::nullopt);
  EXPECT_EQ(roundUpToLegalAllocColumnCount(INT64_MAX), std::nullopt);
}

struct LdStRow {
  LdStShape Shape;
  unsigned Lanes;
  unsigned ColumnsPerRepeat;
  unsigned RegistersPerRepeat;
  unsigned MaxRepeat;
};

TEST(FootprintTest, LdStTable) {
  const LdStRow Rows[] = {
      {LdStShape::S32x32b, 32, 1, 1, 128},
      {LdStShape::S16x64b, 16, 2, 1, 128},
      {LdStShape::S16x128b, 16, 4, 2, 64},
      {LdStShape::S16x256b, 16, 8, 4, 32},
      {LdStShape::S16x32bx2, 16, 1, 1, 128},
  };
  for (const LdStRow &R : Rows) {
    EXPECT_EQ(maxLdStRepeat(R.Shape), R.MaxRepeat);
    for (unsigned N = 1; N <= R.MaxRepeat; N *= 2) {
      Footprint F = ldStFootprint(R.Shape, N, false, std::nullopt);
      EXPECT_EQ(F.Lanes, R.Lanes);
      EXPECT_EQ(F.Columns, R.ColumnsPerRepeat * N);
      EXPECT_FALSE(F.AllQuarters);
      EXPECT_EQ(ldStRegisterCount(R.Shape, N), R.RegistersPerRepeat * N);
      Footprint P = ldStFootprint(R.Shape, N, true, std::nullopt);
      EXPECT_EQ(P.Columns, 2 * R.ColumnsPerRepeat * N) << "pack doubles";
      EXPECT_EQ(P.Lanes, R.Lanes);
    }
  }
}

TEST(FootprintTest, LdStMaxRegisterCountIs128) {
  EXPECT_EQ(ldStRegisterCount(LdStShape::S32x32b, 128), 128u);
  EXPECT_EQ(ldStRegisterCount(LdStShape::S16x128b, 64), 128u);
  EXPECT_EQ(ldStRegisterCount(LdStShape::S16x256b, 32), 128u);
}

TEST(FootprintTest, SplitOffset) {
  Footprint F = ldStFootprint(LdStShape::S16x32bx2, 8, false, int64_t(8));
  EXPECT_EQ(F.Lanes, 16u);
  EXPECT_EQ(F.Columns, 8u);
  ASSERT_TRUE(F.SecondHalfOffset.has_value());
  EXPECT_EQ(*F.SecondHalfOffset, 8);

  Footprint U = ldStFootprint(LdStShape::S16x32bx2, 2, true, std::nullopt);
  EXPECT_EQ(U.Columns, 4u);
  EXPECT_FALSE(U.SecondHalfOffset.has_value()) << "unknown split offset";

  // Other shapes never carry a second half, even if one is passed.
  Footprint G = ldStFootprint(LdStShape::S32x32b, 2, false, int64_t(4));
  EXPECT_FALSE(G.SecondHalfOffset.has_value());
}

TEST(FootprintTest, CopyTable) {
  struct Row {
    CopyShape Shape;
    unsigned Lanes, Columns;
    bool AllQuarters;
  };
  const Row Rows[] = {
      {CopyShape::S128x256b, 128, 8, false},
      {CopyShape::S4x256b, 4, 8, false},
      {CopyShape::S128x128b, 128, 4, false},
      {CopyShape::S64x128bWarpx2_02_13, 128, 4, true},
      {CopyShape::S64x128bWarpx2_01_23, 128, 4, true},
      {CopyShape::S32x128bWarpx4, 128, 4, true},
  };
  for (const Row &R : Rows) {
    Footprint F = copyFootprint(R.Shape);
    EXPECT_EQ(F.Lanes, R.Lanes);
    EXPECT_EQ(F.Columns, R.Columns);
    EXPECT_EQ(F.AllQuarters, R.AllQuarters);
    EXPECT_FALSE(F.SecondHalfOffset.has_value());
  }
}

TEST(FootprintTest, Shift) {
  Footprint F = shiftFootprint();
  EXPECT_EQ(F.Lanes, 32u);
  EXPECT_EQ(F.Columns, 8u);
}

TEST(FootprintTest, InstructionDescriptorDense) {
  // M=128 (8 << 4), N=256 (32 << 3).
  uint32_t Idesc = (32u << 17) | (8u << 24);
  for (MmaKind K :
       {MmaKind::F16, MmaKind::TF32, MmaKind::F8F6F4, MmaKind::I8}) {
    auto S = decodeInstructionDescriptor(K, Idesc);
    ASSERT_TRUE(S.has_value());
    EXPECT_EQ(S->M, 128u);
    EXPECT_EQ(S->N, 256u);
  }
  auto S64 = decodeInstructionDescriptor(MmaKind::F16, (2u << 17) | (4u << 24));
  ASSERT_TRUE(S64);
  EXPECT_EQ(S64->M, 64u);
  EXPECT_EQ(S64->N, 16u);
  // Unrelated bits do not leak into M/N.
  auto Noisy = decodeInstructionDescriptor(
      MmaKind::F16, (8u << 24) | (16u << 17) | 0x0001FFFFu | (1u << 23));
  ASSERT_TRUE(Noisy);
  EXPECT_EQ(Noisy->M, 128u);
  EXPECT_EQ(Noisy->N, 128u);
}

TEST(FootprintTest, InstructionDescriptorBlockScaled) {
  // mx kinds: M in bits 27-28 (<< 7).
  uint32_t Idesc = (1u << 27) | (16u << 17);
  for (MmaKind K : {MmaKind::MXF8F6F4, MmaKind::MXF4, MmaKind::MXF4NVF4}) {
    auto S = decodeInstructionDescriptor(K, Idesc);
    ASSERT_TRUE(S);
    EXPECT_EQ(S->M, 128u);
    EXPECT_EQ(S->N, 128u);
  }
  auto S256 =
      decodeInstructionDescriptor(MmaKind::MXF4, (2u << 27) | (8u << 17));
  ASSERT_TRUE(S256);
  EXPECT_EQ(S256->M, 256u);
  EXPECT_EQ(S256->N, 64u);
  // The same bits read as a dense descriptor give a different M.
  auto Dense =
      decodeInstructionDescriptor(MmaKind::F16, (1u << 27) | (16u << 17));
  ASSERT_TRUE(Dense);
  EXPECT_EQ(Dense->M, 8u << 4);
}

TEST(FootprintTest, InstructionDescriptorZeroFields) {
  EXPECT_FALSE(decodeInstructionDescriptor(MmaKind::F16, 0));
  EXPECT_FALSE(decodeInstructionDescriptor(MmaKind::F16, 8u << 24));
  EXPECT_FALSE(decodeInstructionDescriptor(MmaKind::F16, 16u << 17));
  EXPECT_FALSE(decodeInstructionDescriptor(MmaKind::MXF4, 16u << 17));
}

TmemOp mma(CtaGroup G, bool Ws = false, bool Sp = false) {
  TmemOp Op;
  Op.Kind = TmemOpKind::Mma;
  Op.Group = G;
  Op.WeightStationary = Ws;
  Op.Sparse = Sp;
  Op.Mma = MmaKind::F16;
  return Op;
}

TEST(FootprintTest, MmaAccumulatorTable) {
  struct Row {
    CtaGroup G;
    bool Ws, Sp;
    unsigned M, N;
    std::optional<unsigned> Lanes, Columns;
    bool AllQuarters;
  };
  const Row Rows[] = {
      {CtaGroup::One, false, false, 128, 256, 128, 256, false},
      {CtaGroup::One, false, true, 128, 64, 128, 64, false},
      {CtaGroup::One, true, false, 128, 128, 128, 128, false},
      {CtaGroup::One, false, false, 64, 128, 16, 128, true},
      {CtaGroup::One, true, false, 64, 128, 128, 64, false},
      {CtaGroup::One, true, false, 32, 128, 128, 32, false},
      {CtaGroup::Two, false, false, 128, 256, 128, 128, false},
      {CtaGroup::Two, false, false, 256, 256, 128, 256, false},
      {CtaGroup::Two, false, true, 256, 128, 128, 128, false},
      // Unconfirmed or illegal combinations.
      {CtaGroup::Two, false, true, 128, 128, std::nullopt, std::nullopt, false},
      {CtaGroup::Two, true, false, 128, 128, std::nullopt, std::nullopt, false},
      {CtaGroup::One, false, false, 256, 128, std::nullopt, std::nullopt,
       false},
      {CtaGroup::One, false, false, 32, 128, std::nullopt, std::nullopt, false},
      {CtaGroup::One, false, false, 0, 128, std::nullopt, std::nullopt, false},
      {CtaGroup::One, false, false, 128, 0, std::nullopt, std::nullopt, false},
      {CtaGroup::One, false, false, 128, 12, std::nullopt, std::nullopt, false},
      {CtaGroup::One, false, false, 128, 264, std::nullopt, std::nullopt,
       false},
      {CtaGroup::Unspecified, false, false, 128, 128, std::nullopt,
       std::nullopt, false},
  };
  for (const Row &R : Rows) {
    auto F = mmaAccumulatorFootprint(mma(R.G, R.Ws, R.Sp), {R.M, R.N});
    SCOPED_TRACE(testing::Message()
                 << "M=" << R.M << " N=" << R.N << " group=" << int(R.G)
                 << " ws=" << R.Ws << " sp=" << R.Sp);
    if (!R.Lanes) {
      EXPECT_FALSE(F.has_value());
      continue;
    }
    ASSERT_TRUE(F.has_value());
    EXPECT_EQ(F->Lanes, *R.Lanes);
    EXPECT_EQ(F->Columns, *R.Columns);
    EXPECT_EQ(F->AllQuarters, R.AllQuarters);
  }
}

} // namespace
