//===- BatchSummary.h - The closing report of a run -------------*- C++ -*-===//
//
// Part of tmemcheck. Counts what a run did, file by file in input order, and
// prints it at the end: the one closing line of every run, and for a run
// over many files (or --summary) a table before it: files analysed and
// failed, kernels, findings per check, baseline suppressions, wall time.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_BATCHSUMMARY_H
#define TMEMCHECK_TOOLS_BATCHSUMMARY_H

#include "tmemcheck/Checks/KernelVerdict.h"
#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tmemcheck {

/// The counters behind the closing line and the batch summary. The
/// driver feeds it in input order, so what it prints does not depend on -j.
class BatchSummary {
public:
  void addFile() { ++Files; }
  void addKernels(unsigned N) { Kernels += N; }
  /// \p File could not be (fully) analysed; \p Reason says why, briefly.
  void fileFailed(llvm::StringRef File, llvm::StringRef Reason) {
    Failed.emplace_back(File.str(), Reason.str());
  }
  /// A finding that is reported (after NOLINT and the baseline).
  void addFinding(const Finding &F);
  /// The verdict of one kernel; \p Gates is false when the kernel's
  /// configuration accepts it incomplete (RequireComplete: false).
  void addVerdict(const KernelVerdict &V, bool Gates);
  /// The run uses the result cache; addCachedFile counts the files it
  /// served.
  void useCache() { UsesCache = true; }
  void addCachedFile() { ++Cached; }
  void setBaselineSuppressed(unsigned N) {
    BaselineSuppressed = N;
    UsesBaseline = true;
  }

  unsigned errors() const { return Errors; }
  unsigned warnings() const { return Warnings; }
  /// Incomplete kernels whose configuration requires complete analysis:
  /// they keep the run from exiting 0.
  unsigned gatingIncomplete() const { return GatingIncomplete; }

  /// `tmemcheck: F file(s), K kernel(s): E error(s), W warning(s)`, then
  /// `; N kernel(s) incomplete` when some were, and `; C of F file(s) from
  /// the result cache` when the run uses it.
  void printClosingLine(llvm::raw_ostream &OS) const;
  /// The table, then the closing line.
  void printSummary(llvm::raw_ostream &OS, double WallSeconds) const;

private:
  unsigned Files = 0, Kernels = 0, Errors = 0, Warnings = 0;
  unsigned BaselineSuppressed = 0;
  unsigned Clean = 0, WithFindings = 0, GatingIncomplete = 0;
  /// Incomplete kernels: "file:line: kernel 'k': first reason".
  std::vector<std::string> Incomplete;
  bool UsesBaseline = false;
  bool UsesCache = false;
  unsigned Cached = 0;
  std::map<std::string, unsigned> ByCheck;
  std::vector<std::pair<std::string, std::string>> Failed;
};

} // namespace tmemcheck

#endif // TMEMCHECK_TOOLS_BATCHSUMMARY_H
