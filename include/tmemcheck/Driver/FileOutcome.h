//===- FileOutcome.h - Everything one file's analysis produced --*- C++ -*-===//
//
// Part of tmemcheck. What the CLI keeps of one input file between analysing
// it (possibly on a worker thread) and reporting it in input order: the
// front end's result, the findings before suppressions, the resource
// reports, the kernels' remarks and verdicts. It is also what the result
// cache stores (ResultCache.h), so its JSON form below must keep every
// field the reports read: a file served from the cache is reported exactly
// as if it had been analysed.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_DRIVER_FILEOUTCOME_H
#define TMEMCHECK_DRIVER_FILEOUTCOME_H

#include "tmemcheck/Checks/KernelVerdict.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Report/Finding.h"
#include "tmemcheck/Report/ResourceReport.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tmemcheck {

/// One input file's results, as the driver reports them.
struct FileOutcome {
  bool Survived = true;
  TranslationUnitResult TU;
  /// Findings as the kernels are checked; kept here rather than on the
  /// stack of the crash-isolated code, which a crash leaves without
  /// running destructors.
  FindingSink Sink;
  /// Sorted, before NOLINT, the baseline and CheckSeverity.
  std::vector<Finding> Findings;
  std::vector<KernelReport> Reports;
  /// The kernels' remarks (budgets, patterns), in kernel order.
  std::vector<AnalysisRemark> KernelRemarks;
  /// One per kernel, in kernel order; findings are counted in later.
  std::vector<KernelVerdict> Verdicts;
  unsigned KernelCount = 0;
  std::string EventDump; ///< --dump-events
  double ChecksSeconds = 0;
  /// False when running the analysis again could give another result: a
  /// kernel's wall-time budget ran out. Such an outcome is not cached.
  bool Repeatable = true;
  /// Served from the result cache rather than analysed in this run.
  bool FromCache = false;
};

/// The outcome as JSON: every field the reports use (not the event dump,
/// nor the sink, which is empty once the file is done).
llvm::json::Value outcomeToJson(const FileOutcome &O);

/// Reads what outcomeToJson wrote; false (and \p O unspecified) when \p V
/// is not such a value.
bool outcomeFromJson(const llvm::json::Value &V, FileOutcome &O);

} // namespace tmemcheck

#endif // TMEMCHECK_DRIVER_FILEOUTCOME_H
