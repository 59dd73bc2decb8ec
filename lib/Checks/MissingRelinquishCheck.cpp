//===- MissingRelinquishCheck.cpp - tmem-missing-relinquish ---------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "StatementInsertion.h"

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
    // A call that could not be followed (a wrapper declared without a
    // body, the depth bound) may relinquish; so may the part of a kernel
    // past a budget cut.
    if (!L.relinquishes().empty() || !L.isComplete())
      return;
    const Event *First = nullptr, *Last = nullptr;
    G.forEachEvent([&](const Event &E) {
      if (!isAlloc(E))
        return;
      if (!First || E.Id < First->Id)
        First = &E;
      if (!Last || E.Id > Last->Id)
        Last = &E;
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
    if (std::optional<FixIt> Fix = relinquishAfter(Ctx, *Last))
      F.Fixes.push_back(std::move(*Fix));
    Out.report(std::move(F));
  }

private:
  static bool isAlloc(const Event &E) {
    return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Alloc;
  }

  /// The relinquish on its own line after the statement of \p Last, the
  /// alloc last in program order. Certainly right only when that statement
  /// is the alloc itself, written in the kernel body (the new line then
  /// runs in the allocating warp, right after it); no alloc, nor a call
  /// that might allocate, can follow it (an alloc after the relinquish is
  /// illegal, rule A8); and every other alloc comes before it.
  static std::optional<FixIt> relinquishAfter(AnalysisContext &Ctx,
                                              const Event &Last) {
    const KernelGraph &G = Ctx.graph();
    const KernelStatement *S = G.statementOf(Last);
    if (!S || G.Truncated || !(Last.userLoc() == Last.kernelLoc()) ||
        (Last.Op->Group != CtaGroup::One && Last.Op->Group != CtaGroup::Two))
      return std::nullopt;
    EventIndex Index(G);
    const unsigned LastBlock = Index.BlockOf[Last.Id];
    if (!isWarpConverged(Ctx, Last, LastBlock))
      return std::nullopt;
    auto MayAllocate = [](const Event &E) {
      return isAlloc(E) || E.K == Event::Kind::OpaqueCall;
    };
    std::vector<uint8_t> After = G.reachableFrom(LastBlock);
    std::vector<uint8_t> Before = G.reaching(LastBlock);
    for (unsigned B = 0; B < G.Blocks.size(); ++B)
      for (const Event &E : G.Blocks[B].Events) {
        bool Later = After[B] || (B == LastBlock && E.Id > Last.Id);
        if (Later && MayAllocate(E))
          return std::nullopt;
        if (isAlloc(E) && B != LastBlock && !Before[B])
          return std::nullopt;
      }
    // CCCL's tcgen05_alloc.h, which the alloc came from, declares the
    // relinquish wrapper too.
    bool ThroughCccl = !Last.Stack.empty() &&
                       Last.Stack.front().Callee == "cuda::ptx::tcgen05_alloc";
    return insertLineAfter(*S,
                           relinquishStatement(Last.Op->Group, ThroughCccl));
  }
};

} // namespace

std::unique_ptr<Check> createMissingRelinquishCheck() {
  return std::make_unique<MissingRelinquishCheck>();
}

} // namespace tmemcheck
