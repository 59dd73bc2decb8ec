//===- Fences.h - tcgen05 fences around thread synchronisation --*- C++ -*-===//
//
// Part of tmemcheck. tcgen05 async operations are ordered against thread
// synchronisation only through tcgen05.fence::before_thread_sync (before a
// hand-off) and tcgen05.fence::after_thread_sync (after a barrier or
// mbarrier wait); a commit implies the former (rules §5.3). This per-thread
// dataflow finds where one is missing.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_FENCES_H
#define TMEMCHECK_ANALYSIS_FENCES_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <vector>

namespace tmemcheck {

/// A missing fence: between \p Sync and \p Op (after_thread_sync missing,
/// the op follows the sync) or between \p Op and \p Sync (before_thread_sync
/// missing, the sync hands the op's work to other threads).
struct MissingFence {
  const Event *Sync = nullptr;
  const Event *Op = nullptr;
  bool After = true; ///< true: after_thread_sync missing
};

/// Every missing fence of a kernel, one per sync/op pair kind.
std::vector<MissingFence> findMissingFences(const KernelGraph &G,
                                            ThreadConditions &Threads,
                                            KernelBudget &Budget);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_FENCES_H
