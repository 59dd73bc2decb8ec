//===- DeallocRaceCheck.cpp - tmem-dealloc-race ---------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/DeallocOrdering.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.dealloc that is not ordered after every other thread's
/// access to the region by a barrier (or, for cta_group::2, a cluster
/// barrier), and a dealloc while an mma/cp/shift of the deallocating thread
/// may still be running (rules A9, A11). The most common TMEM bug in public
/// kernels: freeing while epilogue warps still read.
class DeallocRaceCheck : public Check {
public:
  DeallocRaceCheck() : Check("tmem-dealloc-race", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const DeallocRace &R : Ctx.deallocOrdering().races()) {
      const AbstractValue *V = tmemAddressOperand(*R.Dealloc);
      std::string Name = V ? V->SlotName : "?";
      std::string Kind = kindName(R.Access->Op->Kind).str();
      Finding F = makeKernelLevelFinding(
          G, *R.Dealloc,
          R.PeerCta
              ? fmt::format("tcgen05.dealloc.cta_group::2 of '{}' is not "
                            "ordered after the peer CTA's tcgen05.{}: "
                            "synchronise the pair with a cluster barrier "
                            "first (rule A9)",
                            Name, Kind)
              : fmt::format("tcgen05.dealloc of '{}' is not ordered after "
                            "the tcgen05.{} of other threads: no barrier "
                            "between them (rule A11)",
                            Name, Kind));
      F.Notes.push_back(
          {locationSeenFrom(*R.Access, *R.Dealloc),
           fmt::format("tcgen05.{} accesses the region here", Kind)});
      Out.report(std::move(F));
    }
    for (const InFlightAtDealloc &I : Ctx.completion().inFlightAtDealloc()) {
      const AbstractValue *V = tmemAddressOperand(*I.Dealloc);
      std::string Kind = kindName(I.Op->Op->Kind).str();
      Finding F = makeKernelLevelFinding(
          G, *I.Dealloc,
          fmt::format("tcgen05.dealloc of '{}' while the tcgen05.{} issued "
                      "by this thread may still be running: commit it and "
                      "wait on the mbarrier first (rule A11)",
                      V ? V->SlotName : "?", Kind));
      F.Notes.push_back({locationSeenFrom(*I.Op, *I.Dealloc),
                         fmt::format("tcgen05.{} issued here", Kind),
                         I.Op->Id});
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createDeallocRaceCheck() {
  return std::make_unique<DeallocRaceCheck>();
}

} // namespace tmemcheck
