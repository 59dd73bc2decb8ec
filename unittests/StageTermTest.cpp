//===- StageTermTest.cpp - Stage terms of pipeline indices ----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/StageTerm.h"
#include "tmemcheck/Model/SharedAccess.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

TEST(StageTermTest, ModuloAndOtherStage) {
  StageTerm Tile = StageTerm::variable(7);
  std::optional<StageTerm> Stage = Tile.modulo(2);
  ASSERT_TRUE(Stage);
  EXPECT_EQ(Stage->Modulus, 2);
  EXPECT_EQ(Stage->Addend, 0);
  // `stage ^ 1`, `(stage + 1) % 2` and `(tile + 1) & 1` are one stage.
  std::optional<StageTerm> Xor = Stage->xored(1);
  std::optional<StageTerm> Next = Stage->plus(1)->modulo(2);
  std::optional<StageTerm> Masked = Tile.plus(1)->masked(1);
  ASSERT_TRUE(Xor && Next && Masked);
  EXPECT_EQ(*Xor, *Next);
  EXPECT_EQ(*Next, *Masked);
  EXPECT_NE(*Xor, *Stage);
  // A mask that is not 2^k - 1, a xor of a four-stage index: no term.
  EXPECT_FALSE(Tile.masked(6));
  EXPECT_FALSE(Tile.modulo(4)->xored(1));
}

TEST(StageTermTest, RelationOfBarrierAndColumns) {
  StageTerm Stage = *StageTerm::variable(3).modulo(2);
  StageTerm Columns = *Stage.times(128);
  std::optional<StageRelation> Same = stageRelation(Stage, Columns);
  std::optional<StageRelation> Other = stageRelation(*Stage.xored(1), Columns);
  ASSERT_TRUE(Same && Other);
  EXPECT_FALSE(*Same == *Other);
  // Another thread's variable, same shape: the same relation.
  StageTerm Theirs = *StageTerm::variable(9).modulo(2);
  EXPECT_TRUE(*stageRelation(Theirs, *Theirs.times(128)) == *Same);
  // Different variables or moduli in one thread: nothing to compare.
  EXPECT_FALSE(stageRelation(Theirs, Columns));
  EXPECT_FALSE(stageRelation(*StageTerm::variable(3).modulo(4), Columns));
  EXPECT_FALSE(stageRelation(StageTerm::constant(1), Columns));
}

TEST(StageTermTest, NvccBitTricks) {
  StageTerm Tile = StageTerm::variable(4);
  // `(tile << 3) & 8` is stage * 8; `~(tile << 3) & 8` the other stage's.
  std::optional<StageTerm> Mine = Tile.shiftedLeft(3)->masked(8);
  std::optional<StageTerm> Other =
      Tile.shiftedLeft(3)->complemented()->masked(8);
  ASSERT_TRUE(Mine && Other);
  EXPECT_EQ(*Mine, *Tile.modulo(2)->times(8));
  EXPECT_EQ(*Other, *Tile.modulo(2)->xored(1)->times(8));
  // A complement goes no further than a one-bit mask.
  EXPECT_FALSE(Tile.complemented()->plus(1));
  EXPECT_FALSE(Tile.shiftedLeft(3)->complemented()->masked(24));
}

TEST(StageTermTest, ScaledOffsets) {
  StageTerm Bytes = *StageTerm::variable(5).times(8);
  EXPECT_TRUE(Bytes.plus(8));
  EXPECT_FALSE(Bytes.plus(4)); // not a whole element
  EXPECT_FALSE(Bytes.modulo(2));
  EXPECT_EQ(StageTerm::constant(6).modulo(4)->constantValue(), 2);
}

TEST(StageTermTest, DescriptorBuilders) {
  EXPECT_TRUE(isSmemDescriptorBuilder("make_smem_desc"));
  EXPECT_TRUE(isSmemDescriptorBuilder("make_umma_desc"));
  EXPECT_TRUE(isSmemDescriptorBuilder("desc_encode"));
  EXPECT_FALSE(isSmemDescriptorBuilder("make_instr_desc"));
  EXPECT_FALSE(isSmemDescriptorBuilder("make_runtime_instr_desc_with_sf_id"));
  EXPECT_FALSE(isSmemDescriptorBuilder("tmem_alloc"));
}

} // namespace
