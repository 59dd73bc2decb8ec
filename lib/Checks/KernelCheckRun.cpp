//===- KernelCheckRun.cpp - The checks of one kernel, within budget -------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Checks/KernelCheckRun.h"

namespace tmemcheck {

KernelCheckResult
runKernelChecks(AnalysisContext &Ctx,
                llvm::ArrayRef<std::unique_ptr<Check>> Checks,
                llvm::function_ref<void(AnalysisContext &)> AlsoCompute) {
  KernelCheckResult Result;
  KernelBudget &Budget = Ctx.budget();
  FindingSink Sink;
  for (const std::unique_ptr<Check> &C : Checks) {
    // A check that is cut short leaves the rest of the budget to nobody.
    if (Budget.exhausted())
      break;
    C->checkKernel(Ctx, Sink);
  }
  if (AlsoCompute && !Budget.exhausted())
    AlsoCompute(Ctx);
  const KernelGraph &G = Ctx.graph();
  Result.Verdict = verdictOf(G);
  if (Budget.exhausted()) {
    Result.BudgetRemark = AnalysisRemark{G.Loc, Budget.remark(G.Name)};
    Result.BudgetRemark->MakesIncomplete = true;
    Result.Verdict.Reasons.push_back(
        {Result.BudgetRemark->Loc, Result.BudgetRemark->Message});
    return Result;
  }
  Result.Findings = Sink.takeSorted();
  return Result;
}

} // namespace tmemcheck
