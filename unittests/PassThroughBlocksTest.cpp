//===- PassThroughBlocksTest.cpp - Empty blocks that only pass control on -===//
//
// Part of tmemcheck. KernelGraph::removePassThroughBlocks splices out blocks
// without events that have one successor, keeps the entry, the exit, arms
// that BlockThreads narrows and blocks whose removal would give a branch
// the same successor twice, and renumbers the rest consistently.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/KernelGraph.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

void addEvent(KernelGraph &G, unsigned B, unsigned Id) {
  Event E;
  E.Id = Id;
  G.Blocks[B].Events.push_back(E);
}

/// \p N blocks joined by \p Edges, entered at 0 and left at \p Exit.
KernelGraph graph(unsigned N,
                  std::initializer_list<std::pair<unsigned, unsigned>> Edges,
                  unsigned Exit) {
  KernelGraph G;
  for (unsigned I = 0; I < N; ++I)
    G.addBlock();
  G.Entry = 0;
  G.Exit = Exit;
  for (auto [From, To] : Edges)
    G.addEdge(From, To);
  return G;
}

/// Every edge is in both lists, once.
void expectConsistent(const KernelGraph &G) {
  for (unsigned B = 0; B < G.Blocks.size(); ++B) {
    for (unsigned S : G.Blocks[B].Succs) {
      ASSERT_LT(S, G.Blocks.size());
      EXPECT_EQ(llvm::count(G.Blocks[S].Preds, B), 1) << B << "->" << S;
    }
    for (unsigned P : G.Blocks[B].Preds) {
      ASSERT_LT(P, G.Blocks.size());
      EXPECT_TRUE(llvm::is_contained(G.Blocks[P].Succs, B)) << P << "->" << B;
    }
  }
}

TEST(PassThroughBlocksTest, ChainsCollapse) {
  // 0 (event) -> 1 -> 2 -> 3 (event) -> 4 (exit, empty)
  KernelGraph G = graph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 4);
  addEvent(G, 0, 7);
  addEvent(G, 3, 8);
  G.removePassThroughBlocks();
  ASSERT_EQ(G.Blocks.size(), 3u);
  EXPECT_EQ(G.Entry, 0u);
  EXPECT_EQ(G.Exit, 2u);
  EXPECT_EQ(G.Blocks[0].Succs, (llvm::SmallVector<unsigned, 2>{1}));
  EXPECT_EQ(G.Blocks[1].Events.front().Id, 8u);
  EXPECT_EQ(G.Blocks[1].Succs, (llvm::SmallVector<unsigned, 2>{2}));
  expectConsistent(G);
}

TEST(PassThroughBlocksTest, BranchesKeepTwoDistinctSuccessors) {
  // 0 branches to 1 (empty) and 2; 1 -> 2: removing 1 would give 0 the
  // successor 2 twice, so it stays. 2 -> 3 (empty) -> 4 (exit): 3 goes.
  KernelGraph G = graph(5, {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}}, 4);
  addEvent(G, 2, 1);
  G.removePassThroughBlocks();
  ASSERT_EQ(G.Blocks.size(), 4u);
  EXPECT_EQ(G.Blocks[0].Succs, (llvm::SmallVector<unsigned, 2>{1, 2}));
  EXPECT_EQ(G.Blocks[2].Succs, (llvm::SmallVector<unsigned, 2>{3}));
  EXPECT_EQ(G.Exit, 3u);
  expectConsistent(G);
}

TEST(PassThroughBlocksTest, NarrowedArmsAndLoopsStay) {
  // 0 branches (thread by thread) to 1 (empty arm) and 2 (empty arm); both
  // go to 3, a loop test: 3 -> 4 (empty latch) -> 3, and 3 -> 5 (exit).
  KernelGraph G =
      graph(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 3}, {3, 5}}, 5);
  G.Blocks[0].ThreadsOnTrueArm =
      std::make_shared<const std::vector<uint8_t>>(1024, 1);
  G.Blocks[0].TrueArmBlock = 1;
  G.Blocks[0].FalseArmBlock = 2;
  addEvent(G, 3, 1);
  G.removePassThroughBlocks();
  // The arms stay. The latch goes (3 had no edge to itself), so the back
  // edge becomes 3 -> 3.
  ASSERT_EQ(G.Blocks.size(), 5u);
  EXPECT_EQ(G.Blocks[0].TrueArmBlock, 1u);
  EXPECT_EQ(G.Blocks[0].FalseArmBlock, 2u);
  EXPECT_EQ(G.Blocks[3].Succs, (llvm::SmallVector<unsigned, 2>{3, 4}));
  EXPECT_EQ(G.Exit, 4u);
  expectConsistent(G);
}

} // namespace
