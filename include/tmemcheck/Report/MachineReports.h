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

/// A SARIF 2.1.0 log with one run: the rules of \p Rules (check name, help
/// text, docs page) and one result per finding, notes as related locations,
/// fix-its as `fixes` (artifactChanges with replacements).
void writeSarifReport(llvm::raw_ostream &OS,
                      const std::vector<Finding> &Findings,
                      const std::vector<CheckInfo> &Rules,
                      llvm::StringRef ToolVersion);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_MACHINEREPORTS_H
