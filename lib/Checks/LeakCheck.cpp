//===- LeakCheck.cpp - tmem-leak ------------------------------------------===//
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

/// Flags a region that is still allocated when the kernel exits on some
/// CTA-uniform path: an early return after the alloc, a branch that skips
/// the dealloc, or no dealloc at all (rule A9). Later CTAs on the SM may then
/// wait forever for the columns.
class LeakCheck : public Check {
public:
  LeakCheck() : Check("tmem-leak", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    // A graph cut by the event budget has no exit worth judging.
    if (G.Truncated)
      return;
    for (const Region &R : L.regions()) {
      if (!(L.exitState().phases(R.Slot) & PhaseAnyAllocated))
        continue;
      const Event &Alloc = *R.Allocs.front();
      std::string Cols =
          R.Columns ? fmt::format(" ({} columns)", *R.Columns) : "";
      Finding F = makeKernelLevelFinding(
          G, Alloc,
          fmt::format("TMEM allocated into '{}'{} is still allocated when "
                      "the kernel exits on some path; free it with "
                      "tcgen05.dealloc before every exit (rule A9)",
                      R.Name, Cols));
      // The code flow: the alloc (the finding), then the first exit that
      // leaves the columns allocated.
      if (R.Deallocs.empty()) {
        F.Notes.push_back({G.EndLoc, "no tcgen05.dealloc frees this region "
                                     "before the kernel ends"});
        addFlowStep(F, G.EndLoc,
                    "the kernel ends here with the columns allocated",
                    /*AfterFinding=*/true);
      } else {
        for (const SourceLoc &Exit : L.leakingExits(R.Slot)) {
          if (F.FlowSteps.empty())
            addFlowStep(F, Exit,
                        "the kernel exits here with the columns allocated",
                        /*AfterFinding=*/true);
          F.Notes.push_back(
              {Exit, "the kernel can exit here with the columns allocated"});
        }
      }
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createLeakCheck() {
  return std::make_unique<LeakCheck>();
}

} // namespace tmemcheck
