//===- PendingLoads.h - tcgen05.ld results used before wait::ld -*- C++ -*-===//
//
// Part of tmemcheck. Per-thread forward dataflow over the kernel event graph:
// which variables hold tcgen05.ld results whose load has not yet been waited
// for (rules §5.2), and where such a variable is read.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_PENDINGLOADS_H
#define TMEMCHECK_ANALYSIS_PENDINGLOADS_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"

#include <string>
#include <vector>

namespace tmemcheck {

/// A read of a variable that a tcgen05.ld wrote, on a path with no
/// tcgen05.wait::ld between the two.
struct ReadBeforeWaitLoad {
  const Event *Load = nullptr;
  const Event *Read = nullptr;
  std::string Variable;
};

/// All such reads of \p G, one per (load, variable, read site).
std::vector<ReadBeforeWaitLoad> findReadsBeforeWaitLoad(const KernelGraph &G,
                                                        KernelBudget &Budget);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_PENDINGLOADS_H
