//===- UseAfterDeallocCheck.cpp - tmem-use-after-dealloc ------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05 access (ld, st, cp, shift, mma operands) to a region
/// after it was freed on some path (rule A9): the columns may already belong
/// to another CTA.
class UseAfterDeallocCheck : public Check {
public:
  UseAfterDeallocCheck() : Check("tmem-use-after-dealloc", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    G.forEachEvent([&](const Event &E) {
      for (const AbstractValue *V : tmemAccessOperands(E)) {
        if (!V->isTmemAddress())
          continue;
        const Region *R = L.region(V->Slot);
        if (!R || !(L.stateBefore(E).phases(R->Slot) & PhaseFreed))
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
