//===- LdUseBeforeWaitCheck.cpp - tmem-ld-use-before-wait -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/PendingLoads.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Strict house rule: a register written by tcgen05.ld is read before the
/// thread's tcgen05.wait::ld. PTX makes this legal through the register
/// dependency (rules §5.2, P91 §9.7.16.6.4.5), so the check is off by
/// default; teams that want every load visibly waited for turn it on.
class LdUseBeforeWaitCheck : public Check {
public:
  LdUseBeforeWaitCheck()
      : Check("tmem-ld-use-before-wait", Severity::Warning) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const ReadBeforeWaitLoad &R :
         findReadsBeforeWaitLoad(G, Ctx.budget())) {
      Finding F = makeFinding(
          G, R.Read->userLoc(),
          fmt::format("'{}' is read before tcgen05.wait::ld; the value is "
                      "defined by the register dependency, but the columns "
                      "stay in flight",
                      R.Variable));
      F.Notes.push_back(
          {locationSeenFrom(*R.Load, *R.Read),
           fmt::format("tcgen05.ld writes '{}' here", R.Variable)});
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createLdUseBeforeWaitCheck() {
  return std::make_unique<LdUseBeforeWaitCheck>();
}

} // namespace tmemcheck
