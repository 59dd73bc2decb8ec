//===- KernelCheckRun.h - Checks of one kernel, within budget ---*- C++ -*-===//
//
// Part of tmemcheck. Runs the enabled checks on one kernel and applies the
// kernel's budget in one place: if it ran out at any point (graph
// construction, an analysis, a check), the facts are incomplete and every
// finding of the kernel is dropped in favour of one remark. A missed bug is
// better than a false one (design.md "Never silent").
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_CHECKS_KERNELCHECKRUN_H
#define TMEMCHECK_CHECKS_KERNELCHECKRUN_H

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Checks/KernelVerdict.h"
#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <vector>

namespace tmemcheck {

/// What the checks report for one kernel.
struct KernelCheckResult {
  /// Unique and sorted; empty when the budget ran out.
  std::vector<Finding> Findings;
  /// Set when the kernel's budget ran out (KernelBudget::remark).
  std::optional<AnalysisRemark> BudgetRemark;
  /// The budget that ran out was wall time (building the graph or
  /// checking): another run may get further.
  bool OutOfTime = false;
  /// Incomplete when the graph says so or the budget ran out; the driver
  /// counts the findings it reports into it.
  KernelVerdict Verdict;
};

/// Runs \p Checks on the kernel of \p Ctx. \p AlsoCompute, when given, runs
/// after the checks on the same analyses (the resource report); what it
/// computes must be dropped too when the result has a BudgetRemark.
KernelCheckResult
runKernelChecks(AnalysisContext &Ctx,
                llvm::ArrayRef<std::unique_ptr<Check>> Checks,
                llvm::function_ref<void(AnalysisContext &)> AlsoCompute = {});

} // namespace tmemcheck

#endif // TMEMCHECK_CHECKS_KERNELCHECKRUN_H
