//===- MissingFenceCheck.cpp - tmem-missing-fence -------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Fences.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Strict: thread synchronisation that is not bracketed by tcgen05 fences
/// (rules §5.3). The PTX memory model requires them, but CUTLASS omits them
/// and relies on commit + mbarrier and wait::ld (rules §5.4), so the check
/// is off by default.
class MissingFenceCheck : public Check {
public:
  MissingFenceCheck() : Check("tmem-missing-fence", Severity::Warning) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (const MissingFence &M :
         findMissingFences(G, Ctx.threads(), Ctx.budget())) {
      std::string Kind = kindName(M.Op->Op->Kind).str();
      if (M.After) {
        Finding F = makeKernelLevelFinding(
            G, *M.Op,
            fmt::format("tcgen05.{} follows thread synchronisation without "
                        "tcgen05.fence::after_thread_sync, so it is not "
                        "ordered after the other threads' tcgen05 work "
                        "(rules §5.3)",
                        Kind));
        F.Notes.push_back({locationSeenFrom(*M.Sync, *M.Op),
                           "the synchronisation is here; put "
                           "tcgen05.fence::after_thread_sync after it",
                           M.Sync->Id});
        Out.report(std::move(F));
      } else {
        Finding F = makeKernelLevelFinding(
            G, *M.Sync,
            fmt::format("this synchronisation hands tcgen05 work to other "
                        "threads without tcgen05.fence::before_thread_sync "
                        "after the tcgen05.{} (rules §5.3)",
                        Kind));
        F.Notes.push_back({locationSeenFrom(*M.Op, *M.Sync),
                           fmt::format("the tcgen05.{} is issued here", Kind),
                           M.Op->Id});
        Out.report(std::move(F));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> createMissingFenceCheck() {
  return std::make_unique<MissingFenceCheck>();
}

} // namespace tmemcheck
