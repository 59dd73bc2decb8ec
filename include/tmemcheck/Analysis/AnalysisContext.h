//===- AnalysisContext.h - Lazily computed facts of a kernel ----*- C++ -*-===//
//
// Part of tmemcheck. Several checks need the same analyses of a kernel; the
// context computes each at most once, on first use, within the kernel's
// budget.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H
#define TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H

#include "tmemcheck/Analysis/BlockThreads.h"
#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/DeallocOrdering.h"
#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Analysis/PeerCollectives.h"
#include "tmemcheck/Analysis/ReuseOrdering.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <memory>

namespace tmemcheck {

/// The analyses of one kernel graph, computed on demand.
class AnalysisContext {
public:
  /// \p Budget bounds every analysis of the kernel (the default: no time
  /// limit, the default loop-iteration bound).
  explicit AnalysisContext(const KernelGraph &G,
                           KernelBudget Budget = KernelBudget())
      : G(G), Budget(Budget) {
    if (G.OutOfTime)
      this->Budget.timeRanOut();
  }

  const KernelGraph &graph() const { return G; }
  /// The kernel's budget: once it is exhausted, the analyses are partial
  /// and no finding of the kernel may be reported.
  KernelBudget &budget() { return Budget; }
  const ControlDependence &control() {
    if (!CD)
      CD = std::make_unique<ControlDependence>(G);
    return *CD;
  }
  const LifecycleAnalysis &lifecycle() {
    if (!Life)
      Life = std::make_unique<LifecycleAnalysis>(G, control(), Budget);
    return *Life;
  }

  ThreadConditions &threads() {
    if (!Threads)
      Threads = std::make_unique<ThreadConditions>(G, control());
    return *Threads;
  }
  /// The threads that may run each block (one flow per kernel: the
  /// completion and reuse analyses and the divergence check share it).
  BlockThreads &blockThreads() {
    if (!Running)
      Running = std::make_unique<BlockThreads>(G);
    return *Running;
  }
  const CompletionAnalysis &completion() {
    if (!Completion)
      Completion = std::make_unique<CompletionAnalysis>(G, threads(),
                                                        blockThreads(), Budget);
    return *Completion;
  }
  const DeallocOrdering &deallocOrdering() {
    if (!Ordering)
      Ordering = std::make_unique<DeallocOrdering>(G, threads(), Budget);
    return *Ordering;
  }

  const PeerCollectiveAnalysis &peerCollectives() {
    if (!Peer)
      Peer = std::make_unique<PeerCollectiveAnalysis>(G, control(), Budget);
    return *Peer;
  }
  const ReuseOrdering &reuseOrdering() {
    if (!Reuse)
      Reuse =
          std::make_unique<ReuseOrdering>(G, threads(), blockThreads(), Budget);
    return *Reuse;
  }

private:
  const KernelGraph &G;
  KernelBudget Budget;
  std::unique_ptr<ControlDependence> CD;
  std::unique_ptr<LifecycleAnalysis> Life;
  std::unique_ptr<ThreadConditions> Threads;
  std::unique_ptr<BlockThreads> Running;
  std::unique_ptr<CompletionAnalysis> Completion;
  std::unique_ptr<DeallocOrdering> Ordering;
  std::unique_ptr<PeerCollectiveAnalysis> Peer;
  std::unique_ptr<ReuseOrdering> Reuse;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H
