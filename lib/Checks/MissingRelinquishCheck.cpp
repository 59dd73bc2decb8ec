//===- MissingRelinquishCheck.cpp - tmem-missing-relinquish ---------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Warns when a kernel allocates TMEM but never executes
/// tcgen05.relinquish_alloc_permit (rule A8). Legal, but the next CTA
/// scheduled on the SM (or a PDL successor) cannot allocate until this one
/// exits.
class MissingRelinquishCheck : public Check {
public:
  MissingRelinquishCheck()
      : Check("tmem-missing-relinquish", Severity::Warning) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    if (!L.relinquishes().empty())
      return;
    const Event *First = nullptr;
    G.forEachEvent([&](const Event &E) {
      if (E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Alloc &&
          (!First || E.Id < First->Id))
        First = &E;
    });
    if (!First)
      return;
    Finding F = makeKernelLevelFinding(
        G, *First,
        fmt::format("kernel '{}' allocates TMEM but never executes "
                    "tcgen05.relinquish_alloc_permit; the next CTA on this "
                    "SM cannot allocate until this one exits (rule A8)",
                    G.Name));
    F.Notes.push_back({First->kernelLoc(),
                       "relinquish the permit after the last alloc, in the "
                       "allocating warp"});
    Out.report(std::move(F));
  }
};

} // namespace

std::unique_ptr<Check> createMissingRelinquishCheck() {
  return std::make_unique<MissingRelinquishCheck>();
}

} // namespace tmemcheck
