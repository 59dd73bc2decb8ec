//===- AccumulatorReadBeforeCommitCheck.cpp -
// tmem-accumulator-read-before-commit ---===//
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

/// Flags a tcgen05.ld of columns an mma writes when, on some path of the
/// reading thread, no wait on an mbarrier that a tcgen05.commit of that mma
/// arrives on comes first (rules §5.2, bug class 20). MMAs complete only
/// through commit -> mbarrier; a plain barrier or arrive does not order
/// them. mbarriers are matched by their shared-memory array, so the stage
/// index of a pipeline does not matter.
class AccumulatorReadBeforeCommitCheck : public Check {
public:
  AccumulatorReadBeforeCommitCheck()
      : Check("tmem-accumulator-read-before-commit", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const UncommittedAccumulatorRead &R :
         Ctx.completion().accumulatorReads()) {
      const AbstractValue *V = tmemAddressOperand(*R.Load);
      std::string Name = V ? V->SlotName : "?";
      Finding F = makeKernelLevelFinding(
          G, *R.Load,
          fmt::format("tcgen05.ld reads the accumulator in '{}' before "
                      "waiting on an mbarrier that a tcgen05.commit of the "
                      "mma writing it arrives on; the mma may not have "
                      "finished (rules §5.2)",
                      Name));
      F.Notes.push_back({locationSeenFrom(*R.Mma, *R.Load),
                         R.NoCommitAtAll
                             ? "the mma writing it; no tcgen05.commit tracks "
                               "it"
                             : "the mma writing it; the commits that track "
                               "it arrive on mbarriers this path does not "
                               "wait on",
                         R.Mma->Id});
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createAccumulatorReadBeforeCommitCheck() {
  return std::make_unique<AccumulatorReadBeforeCommitCheck>();
}

} // namespace tmemcheck
