//===- LdUseBeforeWaitCheck.cpp - tmem-ld-use-before-wait -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "StatementInsertion.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/ConsumedLoads.h"
#include "tmemcheck/Analysis/PendingLoads.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

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
    std::vector<ReadBeforeWaitLoad> Reads =
        findReadsBeforeWaitLoad(G, Ctx.budget());
    // The wait goes before the first read of each load (in program order):
    // one wait completes all of the load's registers.
    std::map<unsigned, unsigned> FirstReadOf;
    for (const ReadBeforeWaitLoad &R : Reads) {
      auto [It, New] = FirstReadOf.try_emplace(R.Load->Id, R.Read->Id);
      if (!New)
        It->second = std::min(It->second, R.Read->Id);
    }
    std::optional<EventIndex> Index;
    std::set<int> Fixed; // statements that already got the wait
    // One finding per read position and load position: copies of a load
    // and of its reads that the compiler made (an unrolled loop in PTX)
    // are one finding, as in the source.
    std::set<std::pair<SourceLoc, SourceLoc>> Reported;
    for (const ReadBeforeWaitLoad &R : Reads) {
      if (!Reported.insert({R.Read->userLoc(), R.Load->userLoc()}).second)
        continue;
      Finding F = makeFinding(
          G, R.Read->userLoc(),
          fmt::format("'{}' is read before tcgen05.wait::ld; the value is "
                      "defined by the register dependency, but the columns "
                      "stay in flight",
                      R.Variable));
      F.Notes.push_back({locationSeenFrom(*R.Load, *R.Read),
                         fmt::format("tcgen05.ld writes '{}' here", R.Variable),
                         R.Load->Id});
      if (!Index)
        Index.emplace(G);
      if (FirstReadOf[R.Load->Id] == R.Read->Id &&
          !Fixed.count(R.Read->Statement))
        if (std::optional<FixIt> Fix = waitBefore(Ctx, *Index, R)) {
          Fixed.insert(R.Read->Statement);
          F.Fixes.push_back(std::move(*Fix));
        }
      Out.report(std::move(F));
    }
    reportFreesAfterConsumedLoads(Ctx, Out);
  }

private:
  /// The spec-strict form of tmem-missing-wait-ld: a dealloc, without
  /// tcgen05.wait::ld, of columns whose load this thread has read every
  /// register of. The read has completed (register dependencies), but PTX
  /// orders the columns' release only after wait::ld (rules §5.2).
  void reportFreesAfterConsumedLoads(AnalysisContext &Ctx, FindingSink &Out) {
    const KernelGraph &G = Ctx.graph();
    std::optional<ConsumedLoads> Consumed;
    std::set<std::pair<SourceLoc, SourceLoc>> Reported;
    for (const CompletionHazard &H : Ctx.completion().loadHazards()) {
      if (H.K != CompletionHazard::Freed)
        continue;
      if (!Consumed)
        Consumed.emplace(G, Ctx.budget());
      if (!Consumed->allRegistersReadBefore(*H.Op, *H.At) ||
          !Reported.insert({H.At->userLoc(), H.Op->userLoc()}).second)
        continue;
      Finding F = makeKernelLevelFinding(
          G, *H.At,
          "tcgen05.dealloc frees columns of a tcgen05.ld that was never "
          "followed by tcgen05.wait::ld; every register of the load was read "
          "first, so the read has completed, but PTX orders the release of "
          "loaded columns only after tcgen05.wait::ld (rules §5.2)");
      F.Notes.push_back(
          {locationSeenFrom(*H.Op, *H.At), "the tcgen05.ld is issued here"});
      Out.report(std::move(F));
    }
  }

  /// A tcgen05.wait::ld on its own line before the statement that reads
  /// the register: certainly right when the load is issued outside that
  /// statement and all lanes of the warp reach it together.
  static std::optional<FixIt> waitBefore(AnalysisContext &Ctx,
                                         const EventIndex &Index,
                                         const ReadBeforeWaitLoad &R) {
    const KernelStatement *S = Ctx.graph().statementOf(*R.Read);
    if (!S || S->contains(R.Load->kernelLoc()) ||
        !isWarpConverged(Ctx, *R.Read, Index.BlockOf[R.Read->Id]))
      return std::nullopt;
    return insertLineBefore(*S, waitLdStatement(Ctx.graph()));
  }
};

} // namespace

std::unique_ptr<Check> createLdUseBeforeWaitCheck() {
  return std::make_unique<LdUseBeforeWaitCheck>();
}

} // namespace tmemcheck
