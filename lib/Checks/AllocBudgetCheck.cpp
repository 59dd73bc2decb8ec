//===- AllocBudgetCheck.cpp - tmem-alloc-budget ---------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Model/Footprint.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.alloc that, with the regions certainly still allocated
/// in the CTA, asks for more than the 512 columns of TMEM (rule A4): the
/// allocation blocks until columns free up, which never happens. Also warns
/// when the CTAs a launch keeps resident on one SM (`__launch_bounds__`
/// min blocks, or --assume-ctas-per-sm) need more than 512 columns at their
/// peaks together: the extra CTAs wait in tcgen05.alloc until another CTA
/// frees its columns (A4), so that occupancy is never reached.
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
      int64_t Live = 0;
      std::vector<FindingNote> Notes;
      // Only regions allocated on every path count.
      for (const Region *R : regionsCertainlyHeldBefore(L, E)) {
        Live += *R->Columns;
        Notes.push_back({locationSeenFrom(*R->Allocs.front(), E),
                         fmt::format("'{}' holds {} columns, allocated here",
                                     R->Name, *R->Columns)});
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
    checkCoResidentCtas(G, L, Out);
  }

private:
  void checkCoResidentCtas(const KernelGraph &G, const LifecycleAnalysis &L,
                           FindingSink &Out) const {
    if (G.CoResidentCtas < 2)
      return;
    const Event *PeakAlloc = nullptr;
    std::optional<int64_t> Peak = peakAllocatedColumns(G, L, &PeakAlloc);
    if (!Peak || *Peak <= 0 || *Peak * G.CoResidentCtas <= TmemColumns)
      return;
    int64_t Fit = TmemColumns / *Peak;
    Finding F = makeFinding(
        G, G.CoResidentCtas ? G.CoResidentCtasLoc : G.Loc,
        fmt::format("{} {} co-resident CTAs per SM, and each holds {} TMEM "
                    "columns at its peak: {} columns are needed but an SM has "
                    "512; only {} of them can hold their columns at once, the "
                    "others wait in tcgen05.alloc until one frees them (rule "
                    "A4)",
                    G.CoResidentCtasAssumed
                        ? std::string("the launch is assumed to keep")
                        : G.CoResidentCtasOrigin + " asks for",
                    G.CoResidentCtas, *Peak, *Peak * G.CoResidentCtas, Fit));
    F.Level = Severity::Warning;
    if (PeakAlloc)
      F.Notes.push_back({PeakAlloc->kernelLoc(),
                         fmt::format("the CTA holds {} columns after this "
                                     "allocation",
                                     *Peak)});
    Out.report(std::move(F));
  }
};

} // namespace

std::unique_ptr<Check> createAllocBudgetCheck() {
  return std::make_unique<AllocBudgetCheck>();
}

} // namespace tmemcheck
