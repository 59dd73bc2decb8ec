//===- BlockThreadsTest.cpp - Threads that may run each block -------------===//
//
// Part of tmemcheck. BlockThreads narrows a block's threads by the arms of
// branches known thread by thread and by the block's size, joins them where
// paths meet, leaves loops' tests and unreached blocks alone, and interns
// its masks so that equal sets are one pointer; remembered intersections
// stay right for masks made after others are freed.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BlockThreads.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace tmemcheck;

namespace {

/// Threads [Lo, Hi) of the 1024-entry tables.
std::shared_ptr<const std::vector<uint8_t>> threads(unsigned Lo, unsigned Hi) {
  auto M = std::make_shared<std::vector<uint8_t>>(1024, 0);
  std::fill(M->begin() + Lo, M->begin() + Hi, 1);
  return M;
}

unsigned count(const ThreadMask &M) {
  return M ? unsigned(std::count(M->begin(), M->end(), 1)) : 1024;
}

/// 0 branches on `warp < 4` to 1 (true) and 2 (false); both join at 3; 4
/// is reached from nowhere.
KernelGraph roleSplit() {
  KernelGraph G;
  for (int I = 0; I < 5; ++I)
    G.addBlock();
  G.Entry = 0;
  G.addEdge(0, 1);
  G.addEdge(0, 2);
  G.addEdge(1, 3);
  G.addEdge(2, 3);
  G.addEdge(4, 3);
  G.Blocks[0].ThreadsOnTrueArm = threads(0, 128);
  G.Blocks[0].TrueArmBlock = 1;
  G.Blocks[0].FalseArmBlock = 2;
  return G;
}

TEST(BlockThreadsTest, ArmsNarrowAndJoinsWiden) {
  KernelGraph G = roleSplit();
  G.MaxThreadsPerBlock = 256;
  BlockThreads T(G);
  EXPECT_EQ(count(T.of(0)), 256u);
  EXPECT_EQ(count(T.of(1)), 128u);
  EXPECT_EQ((*T.of(1))[127], 1);
  EXPECT_EQ((*T.of(1))[128], 0);
  EXPECT_EQ(count(T.of(2)), 128u);
  EXPECT_EQ((*T.of(2))[128], 1);
  EXPECT_EQ((*T.of(2))[256], 0); // past __launch_bounds__
  EXPECT_EQ(count(T.of(3)), 256u);
  // The entry and the join hold the same set: one pointer.
  EXPECT_EQ(T.of(0), T.of(3));
  // Unreached: not narrowed.
  EXPECT_FALSE(T.of(4));
}

TEST(BlockThreadsTest, NothingToNarrow) {
  KernelGraph G = roleSplit();
  G.Blocks[0].ThreadsOnTrueArm.reset();
  BlockThreads T(G);
  for (unsigned B = 0; B < 5; ++B)
    EXPECT_FALSE(T.of(B)) << B;
}

TEST(BlockThreadsTest, OnlyTheBlockSizeNarrows) {
  // No branch known thread by thread, __launch_bounds__(128): every block
  // the entry reaches runs in threads [0, 128), as one interned mask; the
  // unreached block is left alone.
  KernelGraph G = roleSplit();
  G.Blocks[0].ThreadsOnTrueArm.reset();
  G.MaxThreadsPerBlock = 128;
  BlockThreads T(G);
  for (unsigned B = 0; B < 4; ++B) {
    ASSERT_TRUE(T.of(B)) << B;
    EXPECT_EQ(count(T.of(B)), 128u) << B;
    EXPECT_EQ((*T.of(B))[127], 1);
    EXPECT_EQ(T.of(B), T.of(0));
  }
  EXPECT_FALSE(T.of(4));
}

TEST(BlockThreadsTest, BothArmsToOneBlockDoNotNarrow) {
  KernelGraph G = roleSplit();
  G.Blocks[0].FalseArmBlock = 1; // `if (c) {}`: both edges to one block
  BlockThreads T(G);
  EXPECT_FALSE(T.of(1));
}

TEST(BlockThreadsTest, IntersectionsAreInterned) {
  KernelGraph G = roleSplit();
  BlockThreads T(G);
  ThreadMask Warps0to1 =
      std::make_shared<const std::vector<uint8_t>>(*threads(0, 64));
  ThreadMask A = T.intersect(Warps0to1, T.of(1));
  ThreadMask B = T.intersect(T.of(1), Warps0to1);
  EXPECT_EQ(A, B);
  EXPECT_EQ(count(A), 64u);
  EXPECT_EQ(T.intersect(nullptr, T.of(1)), T.of(1));
  EXPECT_EQ(count(T.intersect(T.of(1), T.of(2))), 0u);
}

// Intersections are remembered by the masks' addresses. A caller's mask
// that is freed must not let a later mask at the same address (the
// allocator hands it straight back) get the remembered answer: one analysis
// context shares the BlockThreads of a kernel among its analyses.
TEST(BlockThreadsTest, AMaskMadeAfterAnotherIsFreedGetsItsOwnIntersection) {
  KernelGraph G = roleSplit();
  BlockThreads T(G);
  for (unsigned Round = 0; Round < 8; ++Round) {
    const unsigned Hi = Round % 2 ? 32 : 96;
    ThreadMask Callers = threads(0, Hi);
    EXPECT_EQ(count(T.intersect(Callers, T.of(1))), Hi) << "round " << Round;
  }
}

} // namespace

TEST(BlockThreadsTest, ArmTablesOfAnySizeAndTruthValue) {
  // A table shorter than the block, not a multiple of eight threads long,
  // whose true entries are any non-zero byte: thread T takes the true arm
  // when its entry is not zero, threads past the table the false arm.
  KernelGraph G = roleSplit();
  auto Arm = std::make_shared<std::vector<uint8_t>>(203, 0);
  for (unsigned T = 0; T < Arm->size(); ++T)
    (*Arm)[T] = T % 3 == 0 ? uint8_t(1 + T % 255) : 0;
  G.Blocks[0].ThreadsOnTrueArm = Arm;
  BlockThreads B(G);
  ASSERT_TRUE(B.of(1) && B.of(2));
  ASSERT_EQ(B.of(1)->size(), 1024u);
  for (unsigned T = 0; T < 1024; ++T) {
    const bool True = T < Arm->size() && T % 3 == 0;
    EXPECT_EQ((*B.of(1))[T], True ? 1 : 0) << "thread " << T;
    EXPECT_EQ((*B.of(2))[T], True ? 0 : 1) << "thread " << T;
  }
}
