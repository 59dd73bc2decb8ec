//===- AllocAfterRelinquishCheck.cpp - tmem-alloc-after-relinquish --------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.alloc that can run after the CTA executed
/// tcgen05.relinquish_alloc_permit (rule A8). ptxas' default guardrail traps
/// on it at run time (EXP-7).
class AllocAfterRelinquishCheck : public Check {
public:
  AllocAfterRelinquishCheck()
      : Check("tmem-alloc-after-relinquish", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    if (L.relinquishes().empty())
      return;
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op ||
          E.Op->Kind != TmemOpKind::Alloc ||
          !L.stateBefore(E).mayBeRelinquished())
        return;
      Finding F = makeKernelLevelFinding(
          G, E,
          "tcgen05.alloc after tcgen05.relinquish_alloc_permit: the CTA "
          "has given up its right to allocate (rule A8)");
      F.Notes.push_back({locationSeenFrom(*L.relinquishes().front(), E),
                         "the permit is relinquished here",
                         L.relinquishes().front()->Id});
      Out.report(std::move(F));
    });
  }
};

} // namespace

std::unique_ptr<Check> createAllocAfterRelinquishCheck() {
  return std::make_unique<AllocAfterRelinquishCheck>();
}

} // namespace tmemcheck
