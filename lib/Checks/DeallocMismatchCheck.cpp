//===- DeallocMismatchCheck.cpp - tmem-dealloc-mismatch -------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.dealloc whose column count differs from the count the
/// region was allocated with (rule A10): fewer columns leak the rest,
/// more trap in ptxas' guardrail.
class DeallocMismatchCheck : public Check {
public:
  DeallocMismatchCheck() : Check("tmem-dealloc-mismatch", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const Region &R : Ctx.lifecycle().regions()) {
      if (!R.Columns)
        continue;
      for (const Event *D : R.Deallocs) {
        std::optional<int64_t> Freed = columnCount(*D);
        if (!Freed || *Freed == *R.Columns)
          continue;
        Finding F = makeKernelLevelFinding(
            G, *D,
            fmt::format("tcgen05.dealloc frees {} columns of '{}', which "
                        "was allocated with {} columns (rule A10)",
                        *Freed, R.Name, *R.Columns));
        F.Notes.push_back(
            {locationSeenFrom(*R.Allocs.front(), *D),
             fmt::format("allocated here with {} columns", *R.Columns),
             R.Allocs.front()->Id});
        Out.report(std::move(F));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> createDeallocMismatchCheck() {
  return std::make_unique<DeallocMismatchCheck>();
}

} // namespace tmemcheck
