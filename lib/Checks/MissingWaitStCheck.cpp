//===- MissingWaitStCheck.cpp - tmem-missing-wait-st ----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/DeallocOrdering.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.st that is still outstanding (no tcgen05.wait::st of the
/// same thread yet) when an mma of the thread reads its columns, other
/// threads are told to go ahead through an mbarrier arrive, or the region is
/// freed (rules §5.1, §5.2; PTX 9.1 does not pipeline st -> mma).
class MissingWaitStCheck : public Check {
public:
  MissingWaitStCheck() : Check("tmem-missing-wait-st", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const CompletionHazard &H : Ctx.completion().storeHazards()) {
      std::string What;
      switch (H.K) {
      case CompletionHazard::ReadByMma:
        What = "tcgen05.mma reads TMEM columns that an earlier tcgen05.st of "
               "this thread may still be writing";
        break;
      case CompletionHazard::Released:
        What = "this mbarrier arrive lets other threads read columns that a "
               "tcgen05.st of this thread may still be writing";
        break;
      case CompletionHazard::Freed:
        What = "tcgen05.dealloc frees columns that a tcgen05.st of this "
               "thread may still be writing";
        break;
      case CompletionHazard::Overwritten:
        continue;
      }
      Finding F = makePairFinding(
          G, *H.At, *H.Op,
          What + "; complete the store with tcgen05.wait::st first (rules "
                 "§5.2)");
      F.Notes.push_back({locationSeenFrom(*H.Op, *H.At),
                         "the tcgen05.st is issued here", H.Op->Id});
      addAllocFlowStep(Ctx.lifecycle(), *H.Op, *H.At, F);
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createMissingWaitStCheck() {
  return std::make_unique<MissingWaitStCheck>();
}

} // namespace tmemcheck
