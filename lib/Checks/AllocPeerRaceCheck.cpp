//===- AllocPeerRaceCheck.cpp - tmem-alloc-peer-race ----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/DeallocOrdering.h"
#include "tmemcheck/Analysis/PeerCollectives.h"

#include <fmt/format.h>

#include <set>

namespace tmemcheck {

namespace {

/// Flags the cta_group::2 collectives whose peer CTA nothing synchronised
/// with (rules A6, A9): a dealloc that can run before the peer's alloc
/// completed (CUTLASS #3435, Triton #8874 and
/// #9498), and a return on the CTA's own identity that makes one CTA of the
/// pair skip a collective its peer waits in. A dealloc whose peer-side
/// accesses are unordered is tmem-dealloc-race's, not reported twice.
class AllocPeerRaceCheck : public Check {
public:
  AllocPeerRaceCheck() : Check("tmem-alloc-peer-race", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const PeerCollectiveAnalysis &P = Ctx.peerCollectives();
    // A paired alloc that no cluster barrier precedes is not reported:
    // the cluster launch a cta_group::2 kernel needs (rule A13)
    // co-schedules the pair, so the peer is launched, and the early-exit
    // findings below cover a peer that could leave before it takes part
    // (rule A6; docs/checks/tmem-alloc-peer-race.md, "CUTLASS tutorials").
    std::set<const Event *> PeerRaced;
    if (!P.unorderedDeallocs().empty())
      for (const DeallocRace &R : Ctx.deallocOrdering().races())
        if (R.PeerCta)
          PeerRaced.insert(R.Dealloc);
    for (const UnorderedPairDealloc &D : P.unorderedDeallocs()) {
      if (PeerRaced.count(D.Dealloc))
        continue; // tmem-dealloc-race reports the unordered accesses
      Finding F = makeKernelLevelFinding(
          G, *D.Dealloc,
          "tcgen05.dealloc.cta_group::2 may run before the peer CTA's "
          "tcgen05.alloc completed: no cluster barrier or mbarrier wait "
          "lies between the alloc and the dealloc on any path; synchronise "
          "the pair before freeing (rule A9)");
      F.Notes.push_back({locationSeenFrom(*D.Alloc, *D.Dealloc),
                         "the pair's tcgen05.alloc.cta_group::2 is here"});
      addEventFlowStep(F, *D.Alloc, *D.Dealloc,
                       "the pair's tcgen05.alloc.cta_group::2; no cluster "
                       "barrier or mbarrier wait follows it before the "
                       "dealloc");
      Out.report(std::move(F));
    }
    for (const PeerEarlyExit &X : P.earlyExits()) {
      std::string Kind = kindName(X.Collective->Op->Kind).str();
      Finding F =
          X.Return
              ? makeFinding(
                    G, X.Return->userLoc(),
                    fmt::format("the kernel returns here under a condition "
                                "on the CTA's own identity, skipping the "
                                "tcgen05.{}.cta_group::2 that the other CTA "
                                "of the pair may reach: that CTA then waits "
                                "for this one forever (rules A6, A9)",
                                Kind))
              : makeFinding(
                    G, X.Condition,
                    fmt::format("this condition on the CTA's own identity "
                                "lets one CTA of the pair skip the "
                                "tcgen05.{}.cta_group::2 that the other may "
                                "reach: that CTA then waits for this one "
                                "forever (rules A6, A9)",
                                Kind));
      if (X.Return)
        F.Notes.push_back({X.Condition, "the condition reads blockIdx or the "
                                        "CTA's rank in the cluster"});
      F.Notes.push_back({X.Return ? locationSeenFrom(*X.Collective, *X.Return)
                                  : X.Collective->kernelLoc(),
                         fmt::format("the paired tcgen05.{} is here", Kind)});
      // The code flow: the condition (and the return it leads to), then the
      // collective the other CTA waits in.
      if (X.Return)
        addFlowStep(F, X.Condition,
                    "the CTAs of the pair may decide differently here");
      addFlowStep(F, F.Notes.back().Loc,
                  fmt::format("the other CTA of the pair reaches this "
                              "tcgen05.{} and waits for this one",
                              Kind),
                  /*AfterFinding=*/true);
      Out.report(std::move(F));
    }
  }

};

} // namespace

std::unique_ptr<Check> createAllocPeerRaceCheck() {
  return std::make_unique<AllocPeerRaceCheck>();
}

} // namespace tmemcheck
