//===- DeallocOrdering.cpp - Is a dealloc ordered after all accesses ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/DeallocOrdering.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/ForwardDataflow.h"
#include "tmemcheck/Analysis/SortedSet.h"

#include <algorithm>
#include <map>

namespace tmemcheck {

namespace {

/// Event ids per region (or mbarrier, or event): sorted vectors, since the
/// states are copied at every block and join (SortedSet.h).
using IdSet = SortedSet<unsigned, 4>;
template <typename K> using IdsBy = SortedMap<K, IdSet>;

/// Accesses per region not yet ordered by a barrier: by any CTA barrier,
/// and (for the peer CTA of a pair) by a cluster barrier.
struct Unordered {
  IdsBy<uint64_t> Cta, Cluster;
  /// Per mbarrier: accesses already ordered in this CTA when this thread
  /// arrived on the peer CTA's copy of that mbarrier (through mapa). A
  /// later wait on this CTA's copy completes the pair handshake CuTe DSL
  /// writes before a cta_group::2 dealloc: the peer ran the same code.
  IdsBy<uint64_t> Published;
  /// Named barriers (`bar.sync id, count`) seen after each access: they
  /// order it only for the threads that take part in them.
  IdsBy<unsigned> PartialAfter;
  friend bool operator==(const Unordered &A, const Unordered &B) {
    return A.Cta == B.Cta && A.Cluster == B.Cluster &&
           A.PartialAfter == B.PartialAfter && A.Published == B.Published;
  }
};

/// `bar.sync id, count`: only `count` threads take part.
bool isPartialBarrier(const Event &E) {
  return E.K == Event::Kind::Sync && E.Sync &&
         E.Sync->Kind == SyncOpKind::BarrierSync &&
         E.Sync->ThreadCountOperand >= 0;
}

template <typename K> void unionInto(IdsBy<K> &R, const IdsBy<K> &P) {
  for (const auto &[Slot, Ids] : P)
    R[Slot].unionWith(Ids);
}

} // namespace

DeallocOrdering::DeallocOrdering(const KernelGraph &G,
                                 ThreadConditions &Threads,
                                 KernelBudget &Budget) {
  const unsigned N = G.Blocks.size();
  if (N == 0)
    return;
  EventIndex Index(G);
  const std::vector<const Event *> &ById = Index.ById;
  const std::vector<unsigned> &BlockOf = Index.BlockOf;

  // A commit with .multicast::cluster arrives on the mbarrier of every CTA
  // of the mask once the mma ops before it (in its thread) completed, in
  // both CTAs of a pair. A thread that waits on that mbarrier has those mma
  // ops ordered before it across the pair too (learn-cuda matmul_v5: CTA 0
  // commits to both CTAs' barriers, each CTA waits, then frees).
  std::map<uint64_t, std::set<unsigned>> MulticastCovers;
  {
    std::vector<const Event *> Mmas;
    G.forEachEvent([&](const Event &E) {
      if (E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Mma)
        Mmas.push_back(&E);
    });
    std::map<unsigned, std::vector<uint8_t>> Reach;
    G.forEachEvent([&](const Event &C) {
      if (C.K != Event::Kind::Tmem || !C.Op ||
          C.Op->Kind != TmemOpKind::Commit || !C.Op->CommitMulticast ||
          C.Op->MbarOperand < 0 ||
          size_t(C.Op->MbarOperand) >= C.Operands.size())
        return;
      uint64_t M = mbarrierIdentity(C.Operands[C.Op->MbarOperand].Value);
      if (!M)
        return;
      for (const Event *X : Mmas) {
        unsigned XB = BlockOf[X->Id], CB = BlockOf[C.Id];
        auto It = Reach.find(XB);
        if (It == Reach.end())
          It = Reach.emplace(XB, G.reachableFrom(XB)).first;
        bool Before =
            (XB == CB && X->Id < C.Id) || (XB != CB && It->second[CB]);
        if (Before && Threads.compatible(XB, CB))
          MulticastCovers[M].insert(X->Id);
      }
    });
  }

  // A named barrier after access \p X that the threads of block \p B can
  // take part in orders it before them (ThunderKittens ends its consumer
  // warpgroup with `bar.sync 1, 128` before the pair handshake).
  auto orderedByNamedBarrier = [&](const Unordered &S, unsigned X, unsigned B) {
    auto P = S.PartialAfter.find(X);
    if (P == S.PartialAfter.end())
      return false;
    for (unsigned Bar : P->second)
      if (Threads.compatible(BlockOf[Bar], B))
        return true;
    return false;
  };
  auto BarrierOf = [](const Event &E) -> const AbstractValue * {
    if (E.K != Event::Kind::Sync || !E.Sync || E.Sync->MbarOperand < 0 ||
        size_t(E.Sync->MbarOperand) >= E.Operands.size())
      return nullptr;
    return &E.Operands[E.Sync->MbarOperand].Value;
  };
  auto Transfer = [&](const Event &E, Unordered &S) {
    if (const AbstractValue *M = BarrierOf(E)) {
      uint64_t Id = mbarrierIdentity(*M);
      if (Id && E.Sync->Kind == SyncOpKind::MbarrierArrive &&
          M->ClusterMapped) {
        IdSet &P = S.Published[Id];
        for (const auto &[Slot, Ids] : S.Cluster) {
          auto Local = S.Cta.find(Slot);
          for (unsigned X : Ids)
            if (Local == S.Cta.end() || !Local->second.count(X) ||
                orderedByNamedBarrier(S, X, BlockOf[E.Id]))
              P.insert(X);
        }
      } else if (Id && E.Sync->Kind == SyncOpKind::MbarrierWait &&
                 !M->ClusterMapped) {
        if (auto P = S.Published.find(Id); P != S.Published.end())
          for (auto &[Slot, Ids] : S.Cluster)
            for (unsigned X : P->second)
              Ids.erase(X);
      }
    }
    if (!MulticastCovers.empty() && E.K == Event::Kind::Sync && E.Sync &&
        E.Sync->Kind == SyncOpKind::MbarrierWait && E.Sync->MbarOperand >= 0 &&
        size_t(E.Sync->MbarOperand) < E.Operands.size())
      if (auto It = MulticastCovers.find(
              mbarrierIdentity(E.Operands[E.Sync->MbarOperand].Value));
          It != MulticastCovers.end())
        for (auto &[Slot, Ids] : S.Cluster)
          for (unsigned Id : It->second)
            Ids.erase(Id);
    if (isPartialBarrier(E)) {
      for (const auto &[Slot, Ids] : S.Cta)
        for (unsigned Id : Ids)
          S.PartialAfter[Id].insert(E.Id);
      return;
    }
    if (E.acquires()) {
      S.Cta.clear();
      S.PartialAfter.clear();
      if (E.Sync->Kind == SyncOpKind::ClusterBarrier)
        S.Cluster.clear();
      return;
    }
    if (E.isAsyncTmemAccess())
      if (auto R = accessRange(E)) {
        S.Cta[R->Slot].insert(E.Id);
        S.Cluster[R->Slot].insert(E.Id);
      }
  };

  ForwardSolution<Unordered> Sol = solveForward<Unordered>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<Unordered> &Outs) {
        Unordered S;
        for (unsigned P : G.Blocks[B].Preds)
          if (Reached[P]) {
            unionInto(S.Cta, Outs[P].Cta);
            unionInto(S.Cluster, Outs[P].Cluster);
            unionInto(S.Published, Outs[P].Published);
            unionInto(S.PartialAfter, Outs[P].PartialAfter);
          }
        return S;
      },
      Transfer);

  std::set<unsigned> Seen;
  replayForward(G, Sol, Transfer, [&](const Event &E, const Unordered &S) {
    if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Dealloc)
      return;
    std::optional<TmemRange> R = accessRange(E);
    if (!R)
      return;
    bool Pair = E.Op->Group == CtaGroup::Two;
    const auto &Pending = Pair ? S.Cluster : S.Cta;
    auto It = Pending.find(R->Slot);
    if (It == Pending.end())
      return;
    for (unsigned Id : It->second) {
      // An access made only by the deallocating threads is ordered by
      // their own program order (and checked per thread).
      if (Threads.subsetOf(BlockOf[Id], BlockOf[E.Id]))
        continue;
      // A named barrier after the access that the deallocating threads
      // can take part in orders it in this CTA (not the peer's copy of it).
      const bool OrderedByNamed = orderedByNamedBarrier(S, Id, BlockOf[E.Id]);
      if ((OrderedByNamed && !Pair) || !Seen.insert(E.Id).second)
        continue;
      // Ordered in this CTA but not across the pair: the peer CTA may still
      // be using the columns.
      auto Local = S.Cta.find(R->Slot);
      bool PeerOnly = Pair && (Local == S.Cta.end() ||
                               !Local->second.count(Id) || OrderedByNamed);
      Races.push_back({&E, ById[Id], PeerOnly});
      break;
    }
  });
}

} // namespace tmemcheck
