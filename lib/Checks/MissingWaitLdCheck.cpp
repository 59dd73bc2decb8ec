//===- MissingWaitLdCheck.cpp - tmem-missing-wait-ld ----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"
#include "StatementInsertion.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/ConsumedLoads.h"
#include "tmemcheck/Analysis/DeallocOrdering.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

#include <set>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.ld that is still outstanding (no tcgen05.wait::ld of the
/// same thread yet) when its columns are overwritten by the thread, handed
/// back to other threads through an mbarrier arrive, or freed (rules §5.2,
/// A11). Using the loaded registers before the wait is legal and is not
/// this check's business (see tmem-ld-use-before-wait).
class MissingWaitLdCheck : public Check {
public:
  MissingWaitLdCheck() : Check("tmem-missing-wait-ld", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    std::optional<EventIndex> Index;
    std::set<int> Fixed; // statements that already got the wait
    std::optional<ConsumedLoads> Consumed;
    for (const CompletionHazard &H : Ctx.completion().loadHazards()) {
      // Severity by evidence: a dealloc after this thread read every
      // register of the load cannot free columns the load still reads (the
      // registers are defined only once the data arrived). That is the
      // spec-strict form, reported by tmem-ld-use-before-wait; a release to
      // other threads (which may write the columns) stays an error here.
      if (H.K == CompletionHazard::Freed) {
        if (!Consumed)
          Consumed.emplace(G, Ctx.budget());
        if (Consumed->allRegistersReadBefore(*H.Op, *H.At))
          continue;
      }
      std::string What;
      // PTX ISA 9.4 pipelines ld -> st of the same warp (rules §5.1); PTX
      // 9.1, the CUDA 13.0 baseline, does not. Correct under the newer
      // rules only: a warning, not an error.
      bool OrderedSincePtx94 = false;
      switch (H.K) {
      case CompletionHazard::Overwritten:
        OrderedSincePtx94 =
            !H.OrderedSincePtx94 && H.At->Op->Kind == TmemOpKind::Store;
        What = fmt::format("tcgen05.{} overwrites columns that an earlier "
                           "tcgen05.ld of this thread may still be reading",
                           kindName(H.At->Op->Kind).str());
        break;
      case CompletionHazard::Released:
        What = "this mbarrier arrive lets other threads reuse columns that "
               "a tcgen05.ld of this thread may still be reading";
        break;
      case CompletionHazard::Freed:
        What = "tcgen05.dealloc frees columns that a tcgen05.ld of this "
               "thread may still be reading";
        break;
      case CompletionHazard::ReadByMma:
        continue;
      }
      // The ld was followed by a st of this thread that a wait::st
      // completed: complete under PTX 9.4's ld -> st pipelining only.
      if (H.OrderedSincePtx94)
        What += "; PTX ISA 9.4 orders it before the later tcgen05.st of "
                "this warp that a tcgen05.wait::st completed, earlier "
                "versions (9.1, CUDA 13.0) do not: wait for the load with "
                "tcgen05.wait::ld first to be correct under both (rules "
                "§5.1, §5.2)";
      Finding F = makePairFinding(
          G, *H.At, *H.Op,
          H.OrderedSincePtx94 ? What
          : OrderedSincePtx94
              ? What + "; PTX ISA 9.4 orders an ld before a later st of the "
                       "same warp, earlier versions (9.1, CUDA 13.0) do not: "
                       "wait for the load with tcgen05.wait::ld first to be "
                       "correct under both (rules §5.1, §5.2)"
              : What + "; wait for the load with tcgen05.wait::ld first "
                       "(rules §5.2)");
      if (OrderedSincePtx94 || H.OrderedSincePtx94)
        F.Level = Severity::Warning;
      F.Notes.push_back({locationSeenFrom(*H.Op, *H.At),
                         "the tcgen05.ld is issued here", H.Op->Id});
      addAllocFlowStep(Ctx.lifecycle(), *H.Op, *H.At, F);
      if (!Index)
        Index.emplace(G);
      // One fix-it per statement: two findings at one release share it.
      if (!Fixed.count(H.At->Statement))
        if (std::optional<FixIt> Fix = waitBefore(Ctx, *Index, H)) {
          Fixed.insert(H.At->Statement);
          F.Fixes.push_back(std::move(*Fix));
        }
      Out.report(std::move(F));
    }
  }

private:
  /// A tcgen05.wait::ld on its own line before the statement of the kernel
  /// body that releases the columns. Certainly right only when the load is
  /// issued outside that statement (the wait then comes after it on every
  /// path into the statement) and all lanes of the warp reach the
  /// statement together (the wait is `.sync.aligned`).
  static std::optional<FixIt> waitBefore(AnalysisContext &Ctx,
                                         const EventIndex &Index,
                                         const CompletionHazard &H) {
    const KernelStatement *S = Ctx.graph().statementOf(*H.At);
    if (!S || S->contains(H.Op->kernelLoc()) ||
        !isWarpConverged(Ctx, *H.At, Index.BlockOf[H.At->Id]))
      return std::nullopt;
    return insertLineBefore(*S, waitLdStatement(Ctx.graph()));
  }
};

} // namespace

std::unique_ptr<Check> createMissingWaitLdCheck() {
  return std::make_unique<MissingWaitLdCheck>();
}

} // namespace tmemcheck
