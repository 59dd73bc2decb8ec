//===- BarrierGates.cpp - Accesses ordered by a later hand-off ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "BarrierGates.h"

#include "tmemcheck/Analysis/ThreadConditions.h"

#include <algorithm>

namespace tmemcheck {

BarrierGates::BarrierGates(
    const KernelGraph &G, const EventIndex &Index, ThreadConditions &Threads,
    llvm::function_ref<uint64_t(const Event &)> Identity,
    llvm::function_ref<const std::vector<uint8_t> &(unsigned)> Reach)
    : G(G), Index(Index), Threads(Threads), Reach(Reach) {
  G.forEachEvent([&](const Event &E) {
    if (E.K != Event::Kind::Sync || !E.Sync)
      return;
    uint64_t Id = Identity(E);
    if (!Id)
      return;
    if (E.Sync->Kind == SyncOpKind::MbarrierArrive)
      Arrives[Id].push_back(&E);
    else if (E.Sync->Kind == SyncOpKind::MbarrierWait)
      Waits[Id][Index.BlockOf[E.Id]].push_back(E.Id);
  });
  for (auto &[Id, ByBlock] : Waits)
    for (auto &[B, Ids] : ByBlock)
      std::sort(Ids.begin(), Ids.end());
}

bool BarrierGates::waitIn(uint64_t M2, unsigned B, unsigned From,
                          unsigned To) const {
  auto It = Waits.find(M2);
  if (It == Waits.end())
    return false;
  auto InBlock = It->second.find(B);
  if (InBlock == It->second.end())
    return false;
  const std::vector<unsigned> &Ids = InBlock->second;
  auto First = std::lower_bound(Ids.begin(), Ids.end(), From);
  return First != Ids.end() && *First < To;
}

bool BarrierGates::behindWaitOn(uint64_t M2, const Event &Wait,
                                const Event &Access) {
  const unsigned WB = Index.BlockOf[Wait.Id], XB = Index.BlockOf[Access.Id];
  constexpr unsigned End = ~0u;
  // The access later in the wait's own block: the path between them.
  if (XB == WB && Access.Id > Wait.Id)
    return waitIn(M2, WB, Wait.Id + 1, Access.Id);
  // Every path out of the wait's block, or into the access, passes a wait
  // on M2.
  if (waitIn(M2, WB, Wait.Id + 1, End) || waitIn(M2, XB, 0, Access.Id))
    return true;
  auto [It, New] = Avoiding.try_emplace({WB, M2});
  if (New)
    It->second =
        G.reachableFrom(WB, [&](unsigned B) { return !waitIn(M2, B, 0, End); });
  return !It->second[XB];
}

bool BarrierGates::alwaysBehindWaitOn(uint64_t M2, const Event &Access) {
  const unsigned XB = Index.BlockOf[Access.Id];
  constexpr unsigned End = ~0u;
  // Both kinds of path enter the access's block at its start.
  if (waitIn(M2, XB, 0, Access.Id))
    return true;
  auto Avoid = [&](unsigned From) -> const std::vector<uint8_t> & {
    auto [It, New] = Avoiding.try_emplace({From, M2});
    if (New)
      It->second = G.reachableFrom(
          From, [&](unsigned B) { return !waitIn(M2, B, 0, End); });
    return It->second;
  };
  // From the entry: through a wait in the entry block itself, or not
  // reaching the access's block without one.
  if (XB == G.Entry)
    return false;
  if (!waitIn(M2, G.Entry, 0, End) && Avoid(G.Entry)[XB])
    return false;
  // Round a loop: a wait after the access in its block, or none of the
  // paths back avoids one.
  return waitIn(M2, XB, Access.Id + 1, End) || !Avoid(XB)[XB];
}

std::vector<uint64_t> BarrierGates::waitedBarriers() const {
  std::vector<uint64_t> Out;
  for (const auto &[Id, ByBlock] : Waits)
    Out.push_back(Id);
  return Out;
}

bool BarrierGates::gatedByLaterHandOff(const Event &Arrive, uint64_t M,
                                       const Event &Wait, const Event &Access) {
  const unsigned EB = Index.BlockOf[Arrive.Id];
  const std::vector<uint8_t> &FromArrive = Reach(EB);
  for (const auto &[M2, Others] : Arrives) {
    if (M2 == M)
      continue;
    bool Later = std::any_of(Others.begin(), Others.end(), [&](const Event *A) {
      unsigned AB = Index.BlockOf[A->Id];
      return (FromArrive[AB] || (AB == EB && A->Id > Arrive.Id)) &&
             Threads.compatible(EB, AB);
    });
    if (Later && behindWaitOn(M2, Wait, Access))
      return true;
  }
  return false;
}

} // namespace tmemcheck
