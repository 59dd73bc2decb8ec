//===- KernelCheckRun.cpp - The checks of one kernel, within budget -------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Checks/KernelCheckRun.h"

#include "tmemcheck/Analysis/CorrelatedSplits.h"

namespace tmemcheck {

KernelCheckResult
runKernelChecks(AnalysisContext &Ctx,
                llvm::ArrayRef<std::unique_ptr<Check>> Checks,
                llvm::function_ref<void(AnalysisContext &)> AlsoCompute) {
  KernelCheckResult Result;
  KernelBudget &Budget = Ctx.budget();
  FindingSink Sink;
  auto RunChecks = [&](AnalysisContext &On) {
    for (const std::unique_ptr<Check> &C : Checks) {
      // A check that is cut short leaves the rest of the budget to nobody.
      if (On.budget().exhausted())
        break;
      C->checkKernel(On, Sink);
    }
  };
  // Conditions tested more than once on one value: once per assumption
  // about them, each run on the paths a thread can take under it.
  std::vector<std::string> Shared = sharedConditionValues(Ctx.graph());
  if (Shared.empty()) {
    RunChecks(Ctx);
  } else {
    for (unsigned A = 0; A < (1u << Shared.size()); ++A) {
      KernelGraph Assumed = assumeConditionValues(Ctx.graph(), Shared, A);
      AnalysisContext Split(Assumed, Budget);
      RunChecks(Split);
      if (Split.budget().wasExhausted()) {
        if (Split.budget().why() == KernelBudget::Exhaustion::Time)
          Budget.timeRanOut();
        else
          Budget.loopBoundReached();
        break;
      }
    }
  }
  if (AlsoCompute && !Budget.exhausted())
    AlsoCompute(Ctx);
  const KernelGraph &G = Ctx.graph();
  Result.Verdict = verdictOf(G);
  if (Budget.exhausted()) {
    Result.BudgetRemark = AnalysisRemark{G.Loc, Budget.remark(G.Name)};
    Result.BudgetRemark->MakesIncomplete = true;
    Result.OutOfTime = Budget.why() == KernelBudget::Exhaustion::Time;
    Result.Verdict.Reasons.push_back(
        {Result.BudgetRemark->Loc, Result.BudgetRemark->Message});
    return Result;
  }
  Result.Findings = Sink.takeSorted();
  return Result;
}

} // namespace tmemcheck
