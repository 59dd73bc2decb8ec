//===- UseAfterDeallocCheck.cpp - tmem-use-after-dealloc ------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <algorithm>

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// A rendezvous of all the CTA's threads: what orders an access by one
/// warp after a dealloc by another. A named barrier with a thread count
/// (`bar.sync 1, 128`, one warpgroup's) need not include the freeing warp.
bool isRendezvous(const Event &E) {
  if (E.K != Event::Kind::Sync || !E.Sync)
    return false;
  if (E.Sync->Kind == SyncOpKind::BarrierSync)
    return E.Sync->ThreadCountOperand < 0 ||
           size_t(E.Sync->ThreadCountOperand) >= E.Operands.size();
  return E.Sync->Kind == SyncOpKind::ClusterBarrier && !E.Sync->IsArrive;
}

/// True if the thread that runs \p Use can run it after dealloc \p D in
/// its own program order, or after a rendezvous that follows \p D: the
/// CTA-level state says "freed" at \p Use also when another warp role's
/// arm freed and the roles run side by side (CuTe DSL writes its roles as
/// consecutive `if (warp in role)` blocks, so every role's code comes after
/// the MMA warp's dealloc in the graph). Those are tmem-dealloc-race's.
bool freedBefore(const KernelGraph &G, const EventIndex &Index,
                 ThreadConditions &Threads, const Event &D, const Event &Use) {
  unsigned BD = Index.BlockOf[D.Id], BU = Index.BlockOf[Use.Id];
  if (!Threads.exclusive(BD, BU))
    return true;
  // Is there a path from D to Use without a rendezvous? Then the two are
  // not ordered: not this check's finding.
  auto RendezvousIn = [&](unsigned B, unsigned From, unsigned To) {
    const std::vector<Event> &Es = G.Blocks[B].Events;
    for (unsigned I = From; I < To && I < Es.size(); ++I)
      if (isRendezvous(Es[I]))
        return true;
    return false;
  };
  auto Position = [&](unsigned B, const Event &E) {
    const std::vector<Event> &Es = G.Blocks[B].Events;
    for (unsigned I = 0; I < Es.size(); ++I)
      if (Es[I].Id == E.Id)
        return I;
    return unsigned(Es.size());
  };
  unsigned PD = Position(BD, D), PU = Position(BU, Use);
  if (BD == BU && PD < PU)
    return RendezvousIn(BD, PD + 1, PU);
  if (RendezvousIn(BD, PD + 1, G.Blocks[BD].Events.size()))
    return true;
  std::vector<uint8_t> Reached = G.reachableFrom(BD, [&](unsigned B) {
    return !RendezvousIn(B, 0, G.Blocks[B].Events.size());
  });
  if (Reached[BU] && !RendezvousIn(BU, 0, PU))
    return false; // reached without a rendezvous
  return true;
}

/// Flags a tcgen05 access (ld, st, cp, shift, mma operands) to a region
/// after it was freed on some path (rule A9): the columns may already belong
/// to another CTA.
class UseAfterDeallocCheck : public Check {
public:
  UseAfterDeallocCheck() : Check("tmem-use-after-dealloc", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    const EventIndex Index(G);
    G.forEachEvent([&](const Event &E) {
      for (const AbstractValue *V : tmemAccessOperands(E)) {
        if (!V->isTmemAddress())
          continue;
        const Region *R = L.region(V->Slot);
        if (!R || !(L.stateBefore(E).phases(R->Slot) & PhaseFreed))
          continue;
        if (std::none_of(R->Deallocs.begin(), R->Deallocs.end(),
                         [&](const Event *D) {
                           return freedBefore(G, Index, Ctx.threads(), *D, E);
                         }))
          continue;
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.{} accesses '{}' after it was freed "
                        "(rule A9)",
                        kindName(E.Op->Kind).str(), R->Name));
        for (const Event *D : R->Deallocs)
          if (D->Id < E.Id || D == R->Deallocs.back()) {
            F.Notes.push_back({locationSeenFrom(*D, E), "freed here", D->Id});
            break;
          }
        addAllocFlowStep(L, E, E, F);
        Out.report(std::move(F));
        return;
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> createUseAfterDeallocCheck() {
  return std::make_unique<UseAfterDeallocCheck>();
}

} // namespace tmemcheck
