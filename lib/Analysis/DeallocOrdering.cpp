//===- DeallocOrdering.cpp - Is a dealloc ordered after all accesses ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/DeallocOrdering.h"

#include "tmemcheck/Analysis/Completion.h"

#include <algorithm>
#include <deque>
#include <map>

namespace tmemcheck {

namespace {

/// Accesses per region not yet ordered by a barrier: by any CTA barrier,
/// and (for the peer CTA of a pair) by a cluster barrier.
struct Unordered {
  std::map<uint64_t, std::set<unsigned>> Cta, Cluster;
  friend bool operator==(const Unordered &A, const Unordered &B) {
    return A.Cta == B.Cta && A.Cluster == B.Cluster;
  }
};

void unionInto(std::map<uint64_t, std::set<unsigned>> &R,
               const std::map<uint64_t, std::set<unsigned>> &P) {
  for (const auto &[Slot, Ids] : P)
    R[Slot].insert(Ids.begin(), Ids.end());
}

bool orders(const Event &E, bool &Cluster) {
  Cluster = false;
  if (E.K != Event::Kind::Sync || !E.Sync)
    return false;
  switch (E.Sync->Kind) {
  case SyncOpKind::BarrierSync:
  case SyncOpKind::MbarrierWait:
    return true;
  case SyncOpKind::ClusterBarrier:
    Cluster = !E.Sync->IsArrive;
    return Cluster;
  default:
    return false;
  }
}

bool isAccess(const Event &E) {
  if (E.K != Event::Kind::Tmem || !E.Op)
    return false;
  switch (E.Op->Kind) {
  case TmemOpKind::Load:
  case TmemOpKind::Store:
  case TmemOpKind::Mma:
  case TmemOpKind::Copy:
  case TmemOpKind::Shift:
    return true;
  default:
    return false;
  }
}

} // namespace

DeallocOrdering::DeallocOrdering(const KernelGraph &G,
                                 ThreadConditions &Threads) {
  const unsigned N = G.Blocks.size();
  if (N == 0)
    return;
  std::vector<unsigned> BlockOf;
  std::vector<const Event *> ById;
  for (unsigned B = 0; B < N; ++B)
    for (const Event &E : G.Blocks[B].Events) {
      if (ById.size() <= E.Id) {
        ById.resize(E.Id + 1, nullptr);
        BlockOf.resize(E.Id + 1, 0);
      }
      ById[E.Id] = &E;
      BlockOf[E.Id] = B;
    }

  auto Transfer = [&](const Event &E, Unordered &S) {
    bool Cluster = false;
    if (orders(E, Cluster)) {
      S.Cta.clear();
      if (Cluster)
        S.Cluster.clear();
      return;
    }
    if (isAccess(E))
      if (auto R = accessRange(E)) {
        S.Cta[R->Slot].insert(E.Id);
        S.Cluster[R->Slot].insert(E.Id);
      }
  };

  std::vector<Unordered> In(N), Out(N);
  std::vector<uint8_t> Done(N, 0), Queued(N, 0);
  std::deque<unsigned> Work;
  for (unsigned B : G.reversePostOrder()) {
    Work.push_back(B);
    Queued[B] = 1;
  }
  while (!Work.empty()) {
    unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = 0;
    Unordered S;
    bool Any = B == G.Entry;
    for (unsigned P : G.Blocks[B].Preds)
      if (Done[P]) {
        Any = true;
        unionInto(S.Cta, Out[P].Cta);
        unionInto(S.Cluster, Out[P].Cluster);
      }
    if (!Any)
      continue;
    In[B] = S;
    for (const Event &E : G.Blocks[B].Events)
      Transfer(E, S);
    if (Done[B] && S == Out[B])
      continue;
    Out[B] = std::move(S);
    Done[B] = 1;
    for (unsigned Succ : G.Blocks[B].Succs)
      if (!Queued[Succ]) {
        Queued[Succ] = 1;
        Work.push_back(Succ);
      }
  }

  std::set<std::pair<unsigned, unsigned>> Seen;
  for (unsigned B : G.reversePostOrder()) {
    if (!Done[B])
      continue;
    Unordered S = In[B];
    for (const Event &E : G.Blocks[B].Events) {
      if (E.K == Event::Kind::Tmem && E.Op &&
          E.Op->Kind == TmemOpKind::Dealloc)
        if (auto R = accessRange(E)) {
          bool Pair = E.Op->Group == CtaGroup::Two;
          const auto &Pending = Pair ? S.Cluster : S.Cta;
          auto It = Pending.find(R->Slot);
          if (It != Pending.end()) {
            for (unsigned Id : It->second) {
              // An access made only by the deallocating threads is ordered
              // by their own program order (and checked per thread).
              if (Threads.subsetOf(BlockOf[Id], B))
                continue;
              if (!Seen.insert({E.Id, 0}).second)
                continue;
              // Ordered in this CTA but not across the pair: the peer CTA
              // may still be using the columns.
              auto Local = S.Cta.find(R->Slot);
              bool PeerOnly = Pair && (Local == S.Cta.end() ||
                                       !Local->second.count(Id));
              Races.push_back({&E, ById[Id], PeerOnly});
              break;
            }
          }
        }
      Transfer(E, S);
    }
  }
}

} // namespace tmemcheck
