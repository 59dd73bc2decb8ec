//===- BarrierGates.h - Accesses ordered by a later hand-off ----*- C++ -*-===//
//
// Part of tmemcheck. Private to lib/Analysis (CompletionAnalysis).
//
// A producer often releases one pipeline before it has finished the data of
// another: the CuTe DSL Mamba2 SSD stores Q to TMEM, releases the
// accumulator it read (`intra1_acc_pipeline.consumer_release`), and only
// then waits for its stores and commits Q (`fence_view_async_tmem_store`,
// `intra2_q_pipeline.producer_commit`). The MMA warp waits on both
// barriers; its read of Q comes after the wait on the second one. The first
// arrive does not hand Q to that read: the second does, and whether the
// store was complete there is that arrive's own question.
//
// BarrierGates answers: is an access that follows a wait on barrier M also
// behind a wait on another barrier M2 that the releasing thread arrives on
// after its release on M?
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_ANALYSIS_BARRIERGATES_H
#define TMEMCHECK_LIB_ANALYSIS_BARRIERGATES_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace tmemcheck {

class ThreadConditions;

/// The mbarrier waits and arrives of a kernel by barrier identity, and the
/// question above.
class BarrierGates {
public:
  /// \p Identity: the barrier an mbarrier wait or arrive is on (0 when
  /// unknown). \p Reach: the blocks reachable from a block.
  BarrierGates(
      const KernelGraph &G, const EventIndex &Index, ThreadConditions &Threads,
      llvm::function_ref<uint64_t(const Event &)> Identity,
      llvm::function_ref<const std::vector<uint8_t> &(unsigned)> Reach);

  /// True if \p Access, which follows \p Wait (on barrier \p M), is behind
  /// a wait on another barrier that the thread of \p Arrive (on \p M) also
  /// arrives on after \p Arrive.
  bool gatedByLaterHandOff(const Event &Arrive, uint64_t M, const Event &Wait,
                           const Event &Access);

  /// True if every path from the kernel's entry to \p Access, and every
  /// path from \p Access round a loop back to it, passes a wait on \p M2:
  /// each execution of \p Access follows a wait on M2 of its own.
  bool alwaysBehindWaitOn(uint64_t M2, const Event &Access);

  /// The barriers some mbarrier wait is on (0, unknown, excluded).
  std::vector<uint64_t> waitedBarriers() const;

private:
  /// True if every path from \p Wait to \p Access passes a wait on \p M2.
  bool behindWaitOn(uint64_t M2, const Event &Wait, const Event &Access);
  /// True if block \p B has a wait on \p M2 with an event id in
  /// [\p From, \p To).
  bool waitIn(uint64_t M2, unsigned B, unsigned From, unsigned To) const;

  const KernelGraph &G;
  const EventIndex &Index;
  ThreadConditions &Threads;
  llvm::function_ref<const std::vector<uint8_t> &(unsigned)> Reach;
  /// Barrier -> its arrives; barrier -> block -> ids of its waits there.
  std::map<uint64_t, std::vector<const Event *>> Arrives;
  std::map<uint64_t, std::map<unsigned, std::vector<unsigned>>> Waits;
  /// (block, barrier) -> the blocks reachable from the block without
  /// passing a wait on the barrier.
  std::map<std::pair<unsigned, uint64_t>, std::vector<uint8_t>> Avoiding;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_ANALYSIS_BARRIERGATES_H
