//===- Completion.h - Per-thread completion of async tcgen05 ops -*- C++
//-*-===//
//
// Part of tmemcheck. tcgen05.ld/st/mma/cp/shift are asynchronous (rules
// §5.2): ld completes at the thread's tcgen05.wait::ld, st at wait::st, and
// mma/cp/shift through tcgen05.commit to an mbarrier that a reader waits on.
// This forward dataflow follows one thread's paths (every branch is an
// alternative) and records where an operation is still outstanding when its
// columns are overwritten, released, freed or read.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_COMPLETION_H
#define TMEMCHECK_ANALYSIS_COMPLETION_H

#include "tmemcheck/Analysis/BlockThreads.h"
#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace tmemcheck {

/// The TMEM columns an access touches, relative to the base stored in its
/// region's slot. Unknown column or width means "could be any".
struct TmemRange {
  uint64_t Slot = 0;
  std::optional<int64_t> Column;
  std::optional<int64_t> Width;
  /// When Column is unknown: columns [Span.Lo, Span.Hi] hold every column
  /// the access may touch (AbstractValue::ColumnRange and the width).
  std::optional<IntRange> Span;
};

/// True unless both ranges are known and disjoint (or in other regions);
/// a range whose column is unknown but bounded (TmemRange::Span) counts
/// as its span.
bool mayOverlap(const TmemRange &A, const TmemRange &B);

/// The range written (or read) by an event's TMEM address operand, if the
/// operand resolves to a region.
std::optional<TmemRange> accessRange(const Event &E);

/// The TMEM ranges an mma reads other than D: A from TMEM, scale factors,
/// sparse metadata (empty for other events).
std::vector<TmemRange> mmaInputRanges(const Event &E);

/// An ld (st) that is still outstanding where it must be complete.
struct CompletionHazard {
  enum Kind {
    Overwritten, ///< a later st/mma/cp/shift of this thread writes its columns
    Released,    ///< an mbarrier arrive tells other threads to go ahead
    Freed,       ///< a dealloc of its region
    ReadByMma,   ///< (st only) an mma of this thread reads the columns
  };
  const Event *Op = nullptr;
  const Event *At = nullptr;
  Kind K = Released;
  /// (ld only) Complete at \p At under PTX ISA 9.4, not 9.1: a tcgen05.st
  /// of the thread followed the ld and a wait::st completed that st (9.4
  /// pipelines ld -> st of one warp, rules §5.1).
  bool OrderedSincePtx94 = false;
};

/// A tcgen05.ld of an mma accumulator not preceded, on some path of the
/// reading thread, by a wait on an mbarrier a commit of that mma arrives on.
struct UncommittedAccumulatorRead {
  const Event *Load = nullptr;
  const Event *Mma = nullptr; ///< an mma that writes the region
  bool NoCommitAtAll = false; ///< no commit covers any mma of the region
};

/// An mma/cp/shift of the deallocating thread that may still be running.
struct InFlightAtDealloc {
  const Event *Op = nullptr;
  const Event *Dealloc = nullptr;
};

/// The per-thread completion facts of one kernel.
class CompletionAnalysis {
public:
  /// \p Reaching: the threads that may run each block of \p G.
  CompletionAnalysis(const KernelGraph &G, ThreadConditions &Threads,
                     BlockThreads &Reaching, KernelBudget &Budget);

  const std::vector<CompletionHazard> &loadHazards() const { return Loads; }
  const std::vector<CompletionHazard> &storeHazards() const { return Stores; }
  const std::vector<UncommittedAccumulatorRead> &accumulatorReads() const {
    return AccReads;
  }
  const std::vector<InFlightAtDealloc> &inFlightAtDealloc() const {
    return InFlight;
  }

private:
  std::vector<CompletionHazard> Loads, Stores;
  std::vector<UncommittedAccumulatorRead> AccReads;
  std::vector<InFlightAtDealloc> InFlight;
};

/// The mbarrier an operand names: the array it is an element of, so the
/// stages of a pipeline match (design.md "Semantics" §6).
uint64_t mbarrierIdentity(const AbstractValue &V);

/// The barrier runs (BarrierRuns.h) mbarrier operand \p V may name in the
/// threads of \p Threads (null: every thread): a role's own run per thread,
/// or its one run; 0 among them when which run is not known.
std::set<uint64_t> barrierRunsIn(const AbstractValue &V,
                                 const ThreadMask &Threads);

/// The threads of \p Among (null: every thread) whose own columns of access
/// \p E (a role's window or per-thread address, as a hand-off sees them)
/// may overlap \p R; \p Among when the columns do not depend on the thread.
ThreadMask threadsMeeting(const Event &E, const TmemRange &R,
                          const ThreadMask &Among);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_COMPLETION_H
