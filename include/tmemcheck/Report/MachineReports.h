//===- MachineReports.h - JSON and SARIF output -----------------*- C++ -*-===//
//
// Part of tmemcheck. The machine-readable renderings of findings, one
// function per format (like clang-uml's one generator per output): plain
// JSON for scripts, SARIF 2.1.0 for code-scanning services.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_MACHINEREPORTS_H
#define TMEMCHECK_REPORT_MACHINEREPORTS_H

#include "tmemcheck/Checks/Check.h"
#include "tmemcheck/Checks/KernelVerdict.h"
#include "tmemcheck/Report/Finding.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace tmemcheck {

/// The findings and the kernel verdicts as one JSON object (format 2):
/// `{"version": 2,
///   "findings": [{"check", "severity", "file", "line", "column", "message",
///                 "kernel", "notes": [{"file", "line", "column", "message"}],
///                 "fixes": [{"file", "offset", "length", "replacement"}]}],
///   "kernels": [{"kernel", "file", "line", "verdict", "findings",
///                "reasons": [{"file", "line", "column", "message"}]}]}`,
/// where verdict is "clean", "findings" or "incomplete".
void writeJsonReport(llvm::raw_ostream &OS,
                     const std::vector<Finding> &Findings,
                     const std::vector<KernelVerdict> &Verdicts);

/// A problem of the run itself, for SARIF's toolExecutionNotifications: a
/// file that could not be analysed (level "error"), a kernel left
/// incomplete (level "warning").
struct SarifNotification {
  std::string Level;
  std::string Message;
  SourceLoc Loc;
};

/// What a SARIF log says about the run besides its results.
struct SarifRunInfo {
  /// Base URL of the documentation (`https://.../docs/`): each rule's
  /// helpUri is <base>checks/<check>.md, and its help links the check page
  /// and rules.md there. Empty: no helpUri, relative links.
  std::string HelpBase;
  /// The source root (%SRCROOT% of originalUriBaseIds): the artifact URIs
  /// of files under it are relative to it, the others absolute file URIs.
  /// Empty: every URI absolute, no originalUriBaseIds.
  std::string SrcRoot;
  /// False when some input could not be analysed (exit 2).
  bool ExecutionSuccessful = true;
  std::vector<SarifNotification> Notifications;
};

/// What GitHub code scanning accepts of one SARIF run ("SARIF support for
/// code scanning", its table of limits): beyond them an upload is rejected
/// (results, locations per result) or truncated for display (thread flow
/// locations, 1,000 shown of 10,000 accepted). The writer stays within
/// them and says in a notification what it left out.
struct SarifLimits {
  static constexpr size_t MaxResultsPerRun = 25000;
  /// The primary location and the related ones together.
  static constexpr size_t MaxLocationsPerResult = 1000;
  static constexpr size_t MaxThreadFlowLocations = 1000;
};

/// A SARIF 2.1.0 log with one run for code scanning: the rules (check name,
/// help text and markdown, helpUri under Info.HelpBase); one result per
/// finding whose region spans the code at its location (SourceExtent),
/// columns in UTF-16 code units (columnKind "utf16CodeUnits"), notes as
/// related locations with ids 1..N that the message text links as
/// `[note](N)`, the events the notes name that run before the finding, then
/// the finding, as one codeFlow, fix-its as `fixes`; artifact URIs
/// relative to %SRCROOT% (Info.SrcRoot) where they can be; the invocation
/// with executionSuccessful and the notifications.
void writeSarifReport(llvm::raw_ostream &OS,
                      const std::vector<Finding> &Findings,
                      const std::vector<CheckInfo> &Rules,
                      llvm::StringRef ToolVersion,
                      const SarifRunInfo &Info = SarifRunInfo());

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_MACHINEREPORTS_H
