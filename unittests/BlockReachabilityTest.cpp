//===- BlockReachabilityTest.cpp - The all-pairs block reachability -------===//
//
// Part of tmemcheck. BlockReachability must give exactly what
// KernelGraph::reachableFrom gives block by block: self-reach only on a
// cycle, on loops, on graphs with several components, and on random graphs.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BlockReachability.h"

#include "gtest/gtest.h"

#include <random>

using namespace tmemcheck;

namespace {

void expectSameAsWalks(const KernelGraph &G) {
  BlockReachability Reach(G);
  for (unsigned From = 0; From < G.Blocks.size(); ++From) {
    std::vector<uint8_t> Walk = G.reachableFrom(From);
    for (unsigned To = 0; To < G.Blocks.size(); ++To)
      EXPECT_EQ(Reach.reaches(From, To), bool(Walk[To]))
          << "from " << From << " to " << To;
  }
}

TEST(BlockReachabilityTest, LoopsAndSelfReach) {
  // 0 -> 1 <-> 2, 1 -> 3, 3 -> 3, 4 (unreachable) -> 1.
  KernelGraph G;
  for (int I = 0; I < 5; ++I)
    G.addBlock();
  G.addEdge(0, 1);
  G.addEdge(1, 2);
  G.addEdge(2, 1);
  G.addEdge(1, 3);
  G.addEdge(3, 3);
  G.addEdge(4, 1);
  BlockReachability Reach(G);
  EXPECT_FALSE(Reach.reaches(0, 0)); // not on a cycle
  EXPECT_TRUE(Reach.reaches(1, 1));
  EXPECT_TRUE(Reach.reaches(2, 2));
  EXPECT_TRUE(Reach.reaches(3, 3)); // a self-loop
  EXPECT_FALSE(Reach.reaches(4, 4));
  EXPECT_TRUE(Reach.reaches(0, 3));
  EXPECT_FALSE(Reach.reaches(3, 1));
  EXPECT_TRUE(Reach.reaches(4, 2));
  EXPECT_FALSE(Reach.reaches(1, 4));
  expectSameAsWalks(G);
}

TEST(BlockReachabilityTest, RandomGraphsMatchTheWalks) {
  std::mt19937 Rng(11);
  for (int Round = 0; Round < 30; ++Round) {
    KernelGraph G;
    const unsigned N = 1 + Rng() % 60;
    for (unsigned B = 0; B < N; ++B)
      G.addBlock();
    const unsigned Edges = Rng() % (2 * N + 1);
    for (unsigned E = 0; E < Edges; ++E)
      G.addEdge(Rng() % N, Rng() % N);
    expectSameAsWalks(G);
  }
}

} // namespace
