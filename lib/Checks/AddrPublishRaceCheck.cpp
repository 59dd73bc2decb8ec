//===- AddrPublishRaceCheck.cpp - tmem-addr-publish-race ------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a read of the alloc's shared-memory slot by threads outside the
/// allocating warp before any barrier orders it after the alloc: the store
/// tcgen05.alloc makes is weak (rule A3), so they may read garbage.
class AddrPublishRaceCheck : public Check {
public:
  AddrPublishRaceCheck() : Check("tmem-addr-publish-race", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    const ControlDependence &CD = Ctx.control();
    const EventIndex Index(G);
    for (unsigned B = 0; B < G.Blocks.size(); ++B) {
      for (const Event &E : G.Blocks[B].Events) {
        if (E.K != Event::Kind::SlotRead)
          continue;
        const Region *R = L.region(E.Slot);
        if (!R ||
            !(L.stateBefore(E).phases(E.Slot) & PhaseAllocatedUnpublished))
          continue;
        // The allocating warp reads its own store: only reads outside the
        // conditions that select that warp race.
        const Event *Alloc = R->Allocs.front();
        unsigned AllocBlock = Index.BlockOf[Alloc->Id];
        // An alloc every thread runs is another check's concern; a read
        // under the allocating warp's conditions (even in a second
        // `if (warp_idx == 0)`) reads that warp's own store.
        if (CD.allControllers(AllocBlock).empty() ||
            Ctx.threads().subsetOf(B, AllocBlock))
          continue;
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("'{}' is read by threads outside the allocating "
                        "warp before a barrier publishes the address "
                        "tcgen05.alloc stored there (rule A3)",
                        R->Name));
        F.Notes.push_back({locationSeenFrom(*Alloc, E),
                           "allocated here; put __syncthreads() (between "
                           "tcgen05.fence::before_thread_sync and "
                           "after_thread_sync) before the read"});
        Out.report(std::move(F));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> createAddrPublishRaceCheck() {
  return std::make_unique<AddrPublishRaceCheck>();
}

} // namespace tmemcheck
