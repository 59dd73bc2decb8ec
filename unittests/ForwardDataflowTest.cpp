//===- ForwardDataflowTest.cpp - Bounds of the dataflow solver ------------===//
//
// Part of tmemcheck. The solver must end on any analysis, even one whose
// states never settle, and must say when it stopped short of a fixpoint.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ForwardDataflow.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

/// entry -> header <-> body, header -> exit: one loop, one event in the
/// body.
KernelGraph loopGraph() {
  KernelGraph G;
  G.Name = "loop";
  unsigned Entry = G.addBlock(), Header = G.addBlock(), Body = G.addBlock(),
           Exit = G.addBlock();
  G.addEdge(Entry, Header);
  G.addEdge(Header, Body);
  G.addEdge(Body, Header);
  G.addEdge(Header, Exit);
  G.Blocks[Body].Events.emplace_back();
  G.Entry = Entry;
  G.Exit = Exit;
  return G;
}

/// Joins by maximum; \p Step is what the body's event adds.
ForwardSolution<unsigned> solveCounting(const KernelGraph &G,
                                        KernelBudget &Budget, unsigned Cap) {
  return solveForward<unsigned>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<unsigned> &Out) {
        unsigned S = 0;
        for (unsigned P : G.Blocks[B].Preds)
          if (Reached[P])
            S = std::max(S, Out[P]);
        return S;
      },
      [&](const Event &, unsigned &S) { S = std::min(S + 1, Cap); });
}

TEST(ForwardDataflowTest, SettlingAnalysisIsComplete) {
  KernelGraph G = loopGraph();
  KernelBudget Budget;
  ForwardSolution<unsigned> S = solveCounting(G, Budget, /*Cap=*/3);
  EXPECT_TRUE(S.Complete);
  EXPECT_FALSE(Budget.wasExhausted());
  EXPECT_EQ(S.Out[G.Exit], 3u);
}

TEST(ForwardDataflowTest, NonSettlingAnalysisHitsTheLoopBound) {
  KernelGraph G = loopGraph();
  AnalysisLimits Limits;
  Limits.MaxLoopIterations = 50;
  KernelBudget Budget(Limits, 0);
  // An infinite ascending chain: without the bound this never ends.
  ForwardSolution<unsigned> S = solveCounting(G, Budget, ~0u);
  EXPECT_FALSE(S.Complete);
  EXPECT_EQ(Budget.why(), KernelBudget::Exhaustion::LoopIterations);
  EXPECT_NE(Budget.remark("loop").find("loop-iteration bound of 50 reached "
                                       "in kernel 'loop'"),
            std::string::npos);
  // A partial solution is not replayed.
  unsigned Visited = 0;
  replayForward(
      G, S, [](const Event &, unsigned &) {},
      [&](const Event &, const unsigned &) { ++Visited; });
  EXPECT_EQ(Visited, 0u);
}

TEST(ForwardDataflowTest, SpentTimeBudgetStopsAtOnce) {
  KernelGraph G = loopGraph();
  AnalysisLimits Limits;
  Limits.MaxKernelSeconds = 10;
  // The graph construction already used more than the whole budget.
  KernelBudget Budget(Limits, /*AlreadySpent=*/11);
  ForwardSolution<unsigned> S = solveCounting(G, Budget, 3);
  EXPECT_FALSE(S.Complete);
  EXPECT_EQ(Budget.why(), KernelBudget::Exhaustion::Time);
  EXPECT_FALSE(S.Reached[G.Exit]);
  EXPECT_NE(Budget.remark("loop").find("time budget of 10 s reached in "
                                       "kernel 'loop'"),
            std::string::npos);
}

TEST(ForwardDataflowTest, ExhaustionIsSticky) {
  AnalysisLimits Limits;
  KernelBudget Budget(Limits, 0);
  EXPECT_FALSE(Budget.exhausted());
  Budget.loopBoundReached();
  Budget.timeRanOut(); // the first reason stays
  EXPECT_TRUE(Budget.exhausted());
  EXPECT_EQ(Budget.why(), KernelBudget::Exhaustion::LoopIterations);
}

} // namespace
