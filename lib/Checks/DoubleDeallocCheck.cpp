//===- DoubleDeallocCheck.cpp - tmem-double-dealloc -----------------------===//
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

/// Flags a tcgen05.dealloc of a region that is already freed on some path
/// (rule A9): a second dealloc in another warp, a dealloc inside a loop
/// whose alloc is outside it. ptxas' default guardrail traps on it at run
/// time (EXP-7); this says so before the kernel runs.
class DoubleDeallocCheck : public Check {
public:
  DoubleDeallocCheck() : Check("tmem-double-dealloc", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    for (const Region &R : L.regions())
      for (const Event *D : R.Deallocs) {
        if (!(L.stateBefore(*D).phases(R.Slot) & PhaseFreed))
          continue;
        Finding F = makeKernelLevelFinding(
            G, *D,
            fmt::format("'{}' is freed twice: this tcgen05.dealloc runs "
                        "after the region was already freed on some path "
                        "(rule A9)",
                        R.Name));
        const Event *Other = nullptr;
        for (const Event *X : R.Deallocs)
          if (X != D && (!Other || X->Id < D->Id))
            Other = X;
        if (Other)
          F.Notes.push_back(
              {locationSeenFrom(*Other, *D), "also freed here", Other->Id});
        else
          F.Notes.push_back({F.Loc, "this dealloc runs again, on a later "
                                    "iteration of a loop, without a new "
                                    "alloc in between"});
        addAllocFlowStep(L, *D, *D, F);
        Out.report(std::move(F));
      }
  }
};

} // namespace

std::unique_ptr<Check> createDoubleDeallocCheck() {
  return std::make_unique<DoubleDeallocCheck>();
}

} // namespace tmemcheck
