//===- DoubleDeallocCheck.cpp - tmem-double-dealloc -----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

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
        Finding F = makeKernelLevelFinding(G, *D,
            fmt::format("'{}' is freed twice: this tcgen05.dealloc runs "
                        "after the region was already freed on some path "
                        "(rule A9)",
                        R.Name));
        for (const Event *Other : R.Deallocs)
          if (Other != D) {
            F.Notes.push_back({Other->kernelLoc(), "also freed here"});
            break;
          }
        Out.report(std::move(F));
      }
  }
};

} // namespace

std::unique_ptr<Check> createDoubleDeallocCheck() {
  return std::make_unique<DoubleDeallocCheck>();
}

} // namespace tmemcheck
