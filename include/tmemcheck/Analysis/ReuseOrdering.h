//===- ReuseOrdering.h - Rewrites of columns others still use ---*- C++ -*-===//
//
// Part of tmemcheck. Warp-specialised kernels reuse TMEM columns over time:
// the MMA warp writes an accumulator stage again once the epilogue warps
// have read it, a producer refills a TMEM operand once the mma that read it
// has completed. The write is correct only if the earlier reader is ordered
// before it: the readers arrive on an "empty" mbarrier after their loads
// (or the mma's commit arrives on one), and the writer waits on it first
// (rules §5.2, §5.3, bug class 32). Roles run concurrently in arms of
// different branches, so this is not a dataflow along CFG paths: it pairs a
// write and a reader of overlapping columns in threads that cannot be the
// same, and asks whether the reader's release reaches the writer.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_REUSEORDERING_H
#define TMEMCHECK_ANALYSIS_REUSEORDERING_H

#include "tmemcheck/Analysis/BlockThreads.h"
#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <vector>

namespace tmemcheck {

/// A write of TMEM columns (tcgen05.st, an mma's D, tcgen05.cp or shift)
/// that can follow an earlier reader of those columns in other threads (a
/// tcgen05.ld, or an mma still running in the tensor core) with nothing
/// ordering the reader before it.
struct ReuseRace {
  const Event *Write = nullptr;
  const Event *Reader = nullptr;
  /// Where the writing threads hand the columns to the readers (the arrive
  /// or commit the readers wait on before reading), from where the write
  /// runs again.
  const Event *Handoff = nullptr;
  /// The first signal of the readers after the read (an mbarrier arrive, or
  /// for an mma reader its commit) that the writer never waits on; nullptr
  /// when the readers signal nothing after reading.
  const Event *Release = nullptr;
};

/// The reuse races of one kernel, one per block of writes.
class ReuseOrdering {
public:
  /// \p Reaching: the threads that may run each block of \p G.
  ReuseOrdering(const KernelGraph &G, ThreadConditions &Threads,
                BlockThreads &Reaching, KernelBudget &Budget);
  const std::vector<ReuseRace> &races() const { return Races; }

private:
  std::vector<ReuseRace> Races;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_REUSEORDERING_H
