//===- KernelAnalysis.cpp - One kernel checked with its file's settings ---===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Driver/KernelAnalysis.h"

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Analysis/KernelBudget.h"

#include <chrono>

namespace tmemcheck {

std::vector<std::unique_ptr<Check>> enabledChecks(const FileSettings &S) {
  std::vector<std::unique_ptr<Check>> Checks;
  for (const CheckInfo &C : CheckRegistry::all())
    if (S.Enabled.isEnabled(C.Name))
      Checks.push_back(C.Create());
  return Checks;
}

KernelOutcome analyseKernel(KernelGraph &G, const FileSettings &S,
                            llvm::ArrayRef<std::unique_ptr<Check>> Checks,
                            bool WithReport) {
  auto Start = std::chrono::steady_clock::now();
  KernelOutcome K;
  K.Remarks = G.Remarks;
  if (!G.CoResidentCtas && S.AssumedCtasPerSm) {
    G.CoResidentCtas = S.AssumedCtasPerSm;
    G.CoResidentCtasLoc = G.Loc;
    G.CoResidentCtasAssumed = true;
  }
  // The kernel's time budget started with its graph construction.
  AnalysisContext Ctx(G, KernelBudget(S.Analysis, G.BuildSeconds));
  K.Result = runKernelChecks(Ctx, Checks, [&](AnalysisContext &A) {
    if (WithReport && usesTmem(A.graph()))
      K.Report = buildResourceReport(A);
  });
  if (K.Result.BudgetRemark)
    K.Report.reset();
  K.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return K;
}

} // namespace tmemcheck
