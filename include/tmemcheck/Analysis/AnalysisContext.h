//===- AnalysisContext.h - Lazily computed facts of a kernel ----*- C++ -*-===//
//
// Part of tmemcheck. Several checks need the same analyses of a kernel; the
// context computes each at most once, on first use.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H
#define TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/Lifecycle.h"

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

private:
  const KernelGraph &G;
  std::unique_ptr<ControlDependence> CD;
  std::unique_ptr<LifecycleAnalysis> Life;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_ANALYSISCONTEXT_H
