//===- AllocBudgetCheck.cpp - tmem-alloc-budget ---------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.alloc that, with the regions certainly still allocated
/// in the CTA, asks for more than the 512 columns of TMEM (rule A4): the
/// allocation blocks until columns free up, which never happens.
class AllocBudgetCheck : public Check {
public:
  AllocBudgetCheck() : Check("tmem-alloc-budget", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Alloc)
        return;
      std::optional<int64_t> Cols = columnCount(E);
      if (!Cols)
        return;
      const CtaState &S = L.stateBefore(E);
      int64_t Live = 0;
      std::vector<FindingNote> Notes;
      for (const Region &R : L.regions()) {
        PhaseSet P = S.phases(R.Slot);
        // Only regions allocated on every path count.
        if (!R.Columns || !P || (P & ~PhaseAnyAllocated))
          continue;
        Live += *R.Columns;
        Notes.push_back({locationSeenFrom(*R.Allocs.front(), E),
                         fmt::format("'{}' holds {} columns, allocated here",
                                     R.Name, *R.Columns)});
      }
      if (Live == 0 || Live + *Cols <= 512)
        return;
      Finding F = makeKernelLevelFinding(
          G, E,
          fmt::format("tcgen05.alloc of {} columns while {} are still "
                      "allocated exceeds the 512 columns of TMEM; the alloc "
                      "blocks forever (rule A4)",
                      *Cols, Live));
      for (FindingNote &N : Notes)
        F.Notes.push_back(std::move(N));
      Out.report(std::move(F));
    });
  }
};

} // namespace

std::unique_ptr<Check> createAllocBudgetCheck() {
  return std::make_unique<AllocBudgetCheck>();
}

} // namespace tmemcheck
