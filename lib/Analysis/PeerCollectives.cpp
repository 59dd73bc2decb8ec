//===- PeerCollectives.cpp - cta_group::2 alloc/dealloc and the peer ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/PeerCollectives.h"

#include "tmemcheck/Analysis/ForwardDataflow.h"
#include "tmemcheck/Analysis/SortedSet.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

namespace tmemcheck {

namespace {

/// One thread's paths (every branch an alternative). Both facts are
/// may-facts, so that a synchronisation on some path only (`if
/// (cluster_size > 1) cute::cluster_wait();`) keeps the check silent: it
/// reports only what no path can have ordered.
struct PairState {
  /// cta_group::2 allocs on some path here (flat sets of event ids: the
  /// state is copied at every block of the fixpoint).
  SortedSet<unsigned> Allocs;
  /// Of those, the ones some path ordered by a synchronisation that can
  /// involve the peer after the alloc.
  SortedSet<unsigned> OrderedAllocs;
  friend bool operator==(const PairState &A, const PairState &B) {
    return A.Allocs == B.Allocs && A.OrderedAllocs == B.OrderedAllocs;
  }
};

bool isTmemKind(const Event &E, TmemOpKind K) {
  return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == K &&
         E.Op->Group == CtaGroup::Two;
}

bool isClusterWait(const Event &E) {
  return E.K == Event::Kind::Sync && E.Sync &&
         E.Sync->Kind == SyncOpKind::ClusterBarrier && !E.Sync->IsArrive;
}

/// Synchronisation through which the peer CTA can have signalled: a
/// cluster barrier, or an mbarrier wait (the peer may arrive on it
/// remotely, as CUTLASS's tmem_deallocation_result_barrier and Triton's
/// 2-CTA dealloc barrier do).
bool mayOrderPeer(const Event &E) {
  if (E.K == Event::Kind::OpaqueCall || isClusterWait(E))
    return true;
  return E.K == Event::Kind::Sync && E.Sync &&
         E.Sync->Kind == SyncOpKind::MbarrierWait;
}

} // namespace

bool isPairedCollective(const Event &E) {
  return isTmemKind(E, TmemOpKind::Alloc) ||
         isTmemKind(E, TmemOpKind::Dealloc) ||
         isTmemKind(E, TmemOpKind::RelinquishAllocPermit);
}

PeerCollectiveAnalysis::PeerCollectiveAnalysis(const KernelGraph &G,
                                               const ControlDependence &CD,
                                               KernelBudget &Budget) {
  bool AnyPaired = false;
  G.forEachEvent([&](const Event &E) { AnyPaired |= isPairedCollective(E); });
  if (!AnyPaired || G.Blocks.empty())
    return;

  EventIndex Index(G);
  bool Report = false;
  std::set<unsigned> SeenDealloc;
  auto Transfer = [&](const Event &E, PairState &S) {
    if (mayOrderPeer(E)) {
      S.OrderedAllocs.unionWith(S.Allocs);
      return;
    }
    if (isTmemKind(E, TmemOpKind::Alloc)) {
      S.Allocs.insert(E.Id);
      S.OrderedAllocs.erase(E.Id);
      return;
    }
    if (isTmemKind(E, TmemOpKind::Dealloc) && Report) {
      for (unsigned A : S.Allocs)
        if (!S.OrderedAllocs.count(A) && SeenDealloc.insert(E.Id).second)
          Deallocs.push_back({&E, Index.ById[A]});
    }
  };
  ForwardSolution<PairState> Sol = solveForward<PairState>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<PairState> &Outs) {
        PairState S;
        for (unsigned P : G.Blocks[B].Preds)
          if (Reached[P]) {
            S.Allocs.unionWith(Outs[P].Allocs);
            S.OrderedAllocs.unionWith(Outs[P].OrderedAllocs);
          }
        return S;
      },
      Transfer);
  if (!Sol.Complete)
    return;
  Report = true;
  replayForward(G, Sol, Transfer, [](const Event &, const PairState &) {});

  // Early exits: a branch on the CTA's identity from one arm of which a
  // paired collective is reachable and from the other not: the CTAs taking
  // the second arm (a `return`, or a skipped block) never join it.
  const unsigned N = G.Blocks.size();
  std::vector<std::vector<uint8_t>> ReachCache(N);
  auto ReachFrom = [&](unsigned B) -> const std::vector<uint8_t> & {
    if (ReachCache[B].empty())
      ReachCache[B] = G.reachableFrom(B);
    return ReachCache[B];
  };
  auto Reaches = [&](unsigned From, unsigned To) {
    return From == To || ReachFrom(From)[To];
  };
  std::vector<std::pair<unsigned, const Event *>> Collectives;
  for (unsigned B = 0; B < N; ++B)
    for (const Event &E : G.Blocks[B].Events)
      if (isTmemKind(E, TmemOpKind::Alloc) ||
          isTmemKind(E, TmemOpKind::Dealloc))
        Collectives.push_back({B, &E});
  DeadlinePoller Poll;
  std::vector<uint8_t> Reached(N, 0);
  for (unsigned B : G.reversePostOrder())
    Reached[B] = 1;
  for (unsigned C = 0; C < N; ++C) {
    const Block &Br = G.Blocks[C];
    if (!Reached[C] || !Br.BranchReadsCtaId || Br.BranchIsLoop ||
        Br.Succs.size() != 2 || Br.Succs[0] == Br.Succs[1] ||
        Poll.expired(Budget))
      continue;
    for (unsigned Arm = 0; Arm < 2; ++Arm) {
      unsigned Take = Br.Succs[Arm], Skip = Br.Succs[1 - Arm];
      const Event *Skipped = nullptr;
      unsigned SkippedBlock = 0;
      for (const auto &[CB, X] : Collectives)
        if (Reaches(Take, CB) && !Reaches(Skip, CB) &&
            (!Skipped || X->Id < Skipped->Id)) {
          Skipped = X;
          SkippedBlock = CB;
        }
      if (!Skipped)
        continue;
      // Report at the return the skipping CTAs leave through, when one is
      // theirs alone (the PTX front end's shared `ret` is not).
      const Event *Return = nullptr;
      for (unsigned R = 0; R < N && !Return; ++R)
        if (Reaches(Skip, R) && !Reaches(SkippedBlock, R))
          for (const Event &E : G.Blocks[R].Events)
            if (E.K == Event::Kind::Return) {
              Return = &E;
              break;
            }
      Exits.push_back({Return, Br.BranchLoc, Skipped});
      break;
    }
  }
}

} // namespace tmemcheck
