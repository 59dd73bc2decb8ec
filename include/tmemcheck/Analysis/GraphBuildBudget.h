//===- GraphBuildBudget.h - Bounds of building one kernel graph -*- C++ -*-===//
//
// Part of tmemcheck. Both front ends (Clang AST, PTX text) build kernel
// graphs under the same bounds: the kernel's wall-time budget and the
// numbers of blocks and events (--max-kernel-seconds, --max-events). This
// is where they are checked, so that the two front ends stop, mark the
// graph and word the remark alike.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_GRAPHBUILDBUDGET_H
#define TMEMCHECK_ANALYSIS_GRAPHBUILDBUDGET_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"

namespace tmemcheck {

/// The bounds of one graph under construction. Once one is hit it stays
/// hit: the graph is Truncated; out of time it is OutOfTime too (the driver
/// then drops the kernel with KernelBudget's remark), past the block or
/// event count it gets one remark naming the flag that raises it.
class GraphBuildBudget {
public:
  GraphBuildBudget(KernelGraph &G, double MaxKernelSeconds, unsigned MaxBlocks,
                   unsigned MaxEvents);

  /// True when nothing more may be added to the graph, \p Events being
  /// the number of events added so far. Cheap: the clock is polled.
  bool exhausted(unsigned Events);

private:
  KernelGraph &G;
  KernelBudget Time;
  DeadlinePoller Clock;
  unsigned MaxBlocks;
  unsigned MaxEvents;
  bool Reported = false;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_GRAPHBUILDBUDGET_H
