//===- AnalysisContext.h - Lazily computed facts of a kernel ----*- C++ -*-===//
//
// Part of tmemcheck. Several checks need the same analyses of a kernel; the
// context computes each at most once, on first use.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H
#define TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/DeallocOrdering.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <memory>

namespace tmemcheck {

/// The analyses of one kernel graph, computed on demand.
class AnalysisContext {
public:
  explicit AnalysisContext(const KernelGraph &G) : G(G) {}

  const KernelGraph &graph() const { return G; }
  const ControlDependence &control() {
    if (!CD)
      CD = std::make_unique<ControlDependence>(G);
    return *CD;
  }
  const LifecycleAnalysis &lifecycle() {
    if (!Life)
      Life = std::make_unique<LifecycleAnalysis>(G, control());
    return *Life;
  }

  ThreadConditions &threads() {
    if (!Threads)
      Threads = std::make_unique<ThreadConditions>(G, control());
    return *Threads;
  }
  const CompletionAnalysis &completion() {
    if (!Completion)
      Completion = std::make_unique<CompletionAnalysis>(G, threads());
    return *Completion;
  }
  const DeallocOrdering &deallocOrdering() {
    if (!Ordering)
      Ordering = std::make_unique<DeallocOrdering>(G, threads());
    return *Ordering;
  }

private:
  const KernelGraph &G;
  std::unique_ptr<ControlDependence> CD;
  std::unique_ptr<LifecycleAnalysis> Life;
  std::unique_ptr<ThreadConditions> Threads;
  std::unique_ptr<CompletionAnalysis> Completion;
  std::unique_ptr<DeallocOrdering> Ordering;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H
