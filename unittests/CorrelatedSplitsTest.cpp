//===- CorrelatedSplitsTest.cpp - A graph per assumption on a value -------===//
//
// Part of tmemcheck. Two tests of one value split the checks into one run
// per value; each run's graph has only the arms the assumption allows, and
// the blocks it cannot reach keep no events.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/CorrelatedSplits.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

/// entry: `if (K) a;` then `if (K) b;`, then exit. Blocks: 0 entry (tests
/// Key1), 1 a, 2 join (tests Key2), 3 b, 4 exit.
KernelGraph twoTests(const std::string &Key1, const std::string &Key2) {
  KernelGraph G;
  unsigned Entry = G.addBlock(), A = G.addBlock(), Join = G.addBlock(),
           B = G.addBlock(), Exit = G.addBlock();
  G.addEdge(Entry, A);
  G.addEdge(Entry, Join);
  G.addEdge(A, Join);
  G.addEdge(Join, B);
  G.addEdge(Join, Exit);
  G.addEdge(B, Exit);
  for (auto [Blk, Key] : {std::pair{Entry, Key1}, std::pair{Join, Key2}}) {
    G.Blocks[Blk].BranchUniformity = Uniformity::CtaUniform;
    G.Blocks[Blk].ValueKey = Key;
  }
  G.Blocks[A].Events.emplace_back();
  G.Blocks[B].Events.emplace_back();
  G.Blocks[Join].Events.emplace_back();
  G.Entry = Entry;
  G.Exit = Exit;
  return G;
}

TEST(CorrelatedSplitsTest, ValueTestedTwiceIsShared) {
  EXPECT_EQ(sharedConditionValues(twoTests("use_tmem", "use_tmem")),
            std::vector<std::string>{"use_tmem"});
  EXPECT_TRUE(sharedConditionValues(twoTests("a", "b")).empty());
  EXPECT_TRUE(sharedConditionValues(twoTests("", "")).empty());
}

TEST(CorrelatedSplitsTest, AssumptionKeepsOnlyItsArms) {
  KernelGraph G = twoTests("k", "k");
  KernelGraph Holds = assumeConditionValues(G, {"k"}, 1);
  EXPECT_EQ(Holds.Blocks[0].Succs, (llvm::SmallVector<unsigned, 2>{1}));
  EXPECT_EQ(Holds.Blocks[2].Succs, (llvm::SmallVector<unsigned, 2>{3}));
  EXPECT_EQ(Holds.Blocks[3].Events.size(), 1u);
  KernelGraph Fails = assumeConditionValues(G, {"k"}, 0);
  EXPECT_EQ(Fails.Blocks[0].Succs, (llvm::SmallVector<unsigned, 2>{2}));
  EXPECT_EQ(Fails.Blocks[2].Succs, (llvm::SmallVector<unsigned, 2>{4}));
  // The arms no path reaches keep no events and no edges.
  EXPECT_TRUE(Fails.Blocks[1].Events.empty());
  EXPECT_TRUE(Fails.Blocks[3].Events.empty());
  EXPECT_TRUE(Fails.Blocks[3].Succs.empty());
  EXPECT_EQ(Fails.Blocks[4].Preds, (llvm::SmallVector<unsigned, 2>{2}));
  EXPECT_EQ(Fails.Blocks[2].Events.size(), 1u);
}

TEST(CorrelatedSplitsTest, TooManySharedValuesAreNotSplit) {
  KernelGraph G;
  unsigned Prev = G.addBlock();
  G.Entry = Prev;
  for (unsigned I = 0; I < 2 * (MaxCorrelatedSplits + 1); ++I) {
    unsigned Arm = G.addBlock(), Next = G.addBlock();
    G.addEdge(Prev, Arm);
    G.addEdge(Prev, Next);
    G.addEdge(Arm, Next);
    G.Blocks[Prev].BranchUniformity = Uniformity::CtaUniform;
    G.Blocks[Prev].ValueKey = "v" + std::to_string(I / 2);
    Prev = Next;
  }
  G.Exit = Prev;
  EXPECT_TRUE(sharedConditionValues(G).empty());
}

} // namespace
