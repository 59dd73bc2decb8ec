//===- Fences.cpp - tcgen05 fences around thread synchronisation ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/Fences.h"

#include "tmemcheck/Analysis/ForwardDataflow.h"
#include "tmemcheck/Analysis/SortedSet.h"

#include <set>

namespace tmemcheck {

namespace {

/// What one thread owes a fence for, over its paths. Flat sets of event
/// ids: the state is copied at every block of the fixpoint.
struct FenceState {
  SortedSet<unsigned> SyncsAwaitingAfter; ///< syncs not yet followed by after
  SortedSet<unsigned> UnfencedOps; ///< async ops not yet followed by before
  friend bool operator==(const FenceState &A, const FenceState &B) {
    return A.SyncsAwaitingAfter == B.SyncsAwaitingAfter &&
           A.UnfencedOps == B.UnfencedOps;
  }
};

/// Synchronisation that lets other threads act on this thread's work.
bool handsOff(const SyncOp &S) {
  return S.Kind == SyncOpKind::BarrierSync ||
         S.Kind == SyncOpKind::BarrierArrive ||
         S.Kind == SyncOpKind::MbarrierArrive ||
         (S.Kind == SyncOpKind::ClusterBarrier && S.IsArrive);
}

} // namespace

std::vector<MissingFence> findMissingFences(const KernelGraph &G,
                                            ThreadConditions &Threads,
                                            KernelBudget &Budget) {
  EventIndex Index(G);
  const std::vector<const Event *> &ById = Index.ById;
  const std::vector<unsigned> &BlockOf = Index.BlockOf;
  // A wait in `if (warp == 2)` and an ld in `if (warp >= 4)` are no single
  // thread's sequence.
  auto SameThread = [&](unsigned A, unsigned B) {
    return Threads.compatible(BlockOf[A], BlockOf[B]);
  };
  std::vector<MissingFence> Out;
  std::set<unsigned> ReportedSync, ReportedOp;
  bool Report = false;

  auto Transfer = [&](const Event &E, FenceState &S) {
    if (E.K == Event::Kind::Sync && E.Sync) {
      if (handsOff(*E.Sync)) {
        if (Report && !ReportedSync.count(E.Id))
          for (unsigned Op : S.UnfencedOps)
            if (SameThread(Op, E.Id)) {
              ReportedSync.insert(E.Id);
              Out.push_back({&E, ById[Op], /*After=*/false});
              break;
            }
        S.UnfencedOps.clear();
      }
      if (E.acquires())
        S.SyncsAwaitingAfter = {E.Id};
      return;
    }
    if (E.K != Event::Kind::Tmem || !E.Op)
      return;
    switch (E.Op->Kind) {
    case TmemOpKind::FenceAfterThreadSync:
      S.SyncsAwaitingAfter.clear();
      return;
    case TmemOpKind::FenceBeforeThreadSync:
    case TmemOpKind::Commit: // implies before_thread_sync (rules §5.3)
      S.UnfencedOps.clear();
      return;
    default:
      break;
    }
    if (!E.isAsyncTmemAccess())
      return;
    if (Report && !ReportedOp.count(E.Id))
      for (unsigned Sync : S.SyncsAwaitingAfter)
        if (SameThread(Sync, E.Id)) {
          ReportedOp.insert(E.Id);
          Out.push_back({ById[Sync], &E, /*After=*/true});
          break;
        }
    S.SyncsAwaitingAfter.clear();
    S.UnfencedOps.insert(E.Id);
  };

  ForwardSolution<FenceState> Sol = solveForward<FenceState>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<FenceState> &Outs) {
        FenceState S;
        for (unsigned P : G.Blocks[B].Preds)
          if (Reached[P]) {
            S.SyncsAwaitingAfter.unionWith(Outs[P].SyncsAwaitingAfter);
            S.UnfencedOps.unionWith(Outs[P].UnfencedOps);
          }
        return S;
      },
      Transfer);
  Report = true;
  replayForward(G, Sol, Transfer, [](const Event &, const FenceState &) {});
  return Out;
}

} // namespace tmemcheck
