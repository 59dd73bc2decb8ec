//===- KernelAnalysis.h - One kernel checked with its file's settings -*- C++
//-*-===//
//
// Part of tmemcheck. What the CLI and the language server do with each
// kernel graph the front end hands them: apply the file's launch
// assumption, run the enabled checks within the kernel's budget, and build
// the resource report when asked. One place, so that both report the same.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_DRIVER_KERNELANALYSIS_H
#define TMEMCHECK_DRIVER_KERNELANALYSIS_H

#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Checks/KernelCheckRun.h"
#include "tmemcheck/Driver/FileSettings.h"
#include "tmemcheck/Report/ResourceReport.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <optional>
#include <vector>

namespace tmemcheck {

/// What checking one kernel produced.
struct KernelOutcome {
  /// The graph's own remarks (patterns, roots, call depth).
  std::vector<AnalysisRemark> Remarks;
  KernelCheckResult Result;
  /// The resource report, when asked for and the kernel uses TMEM (and
  /// its budget held).
  std::optional<KernelReport> Report;
  double Seconds = 0; ///< wall time of the checks and the report
};

/// The checks \p S enables, one instance each.
std::vector<std::unique_ptr<Check>> enabledChecks(const FileSettings &S);

/// Checks \p G with \p Checks under the settings of its file \p S;
/// \p WithReport builds the resource report too.
KernelOutcome analyseKernel(KernelGraph &G, const FileSettings &S,
                            llvm::ArrayRef<std::unique_ptr<Check>> Checks,
                            bool WithReport);

} // namespace tmemcheck

#endif // TMEMCHECK_DRIVER_KERNELANALYSIS_H
