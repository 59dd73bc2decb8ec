//===- GraphBuildBudget.cpp - Bounds of building one kernel graph ---------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/GraphBuildBudget.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {
AnalysisLimits timeOnly(double MaxKernelSeconds) {
  AnalysisLimits L;
  L.MaxKernelSeconds = MaxKernelSeconds;
  return L;
}
} // namespace

GraphBuildBudget::GraphBuildBudget(KernelGraph &G, double MaxKernelSeconds,
                                   unsigned MaxBlocks, unsigned MaxEvents)
    : G(G), Time(timeOnly(MaxKernelSeconds), /*AlreadySpent=*/0),
      MaxBlocks(MaxBlocks), MaxEvents(MaxEvents) {}

bool GraphBuildBudget::exhausted(unsigned Events) {
  if (G.OutOfTime)
    return true;
  if (Clock.expired(Time)) {
    // The driver reports the kernel from its budget (KernelBudget::remark).
    G.Truncated = G.OutOfTime = true;
    return true;
  }
  if (G.Blocks.size() <= MaxBlocks && Events <= MaxEvents)
    return false;
  G.Truncated = true;
  if (!Reported) {
    Reported = true;
    G.markIncomplete(G.Loc,
                     fmt::format("analysis budget reached in kernel '{}' ({} "
                                 "blocks / {} events); the rest of the kernel "
                                 "was not analysed (raise --max-events)",
                                 G.Name, MaxBlocks, MaxEvents));
  }
  return true;
}

} // namespace tmemcheck
