//===- BatchSummary.cpp - The closing report of a run ---------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "BatchSummary.h"

#include <fmt/format.h>

namespace tmemcheck {

void BatchSummary::addFinding(const Finding &F) {
  (F.Level == Severity::Error ? Errors : Warnings) += 1;
  ++ByCheck[F.CheckName];
}

void BatchSummary::printClosingLine(llvm::raw_ostream &OS) const {
  OS << fmt::format("tmemcheck: {} file(s), {} kernel(s): {} error(s), {} "
                    "warning(s)\n",
                    Files, Kernels, Errors, Warnings);
}

void BatchSummary::printSummary(llvm::raw_ostream &OS,
                                double WallSeconds) const {
  OS << "tmemcheck: summary\n";
  OS << fmt::format("  files:    {} ({} analysed, {} failed)\n", Files,
                    Files - Failed.size(), Failed.size());
  OS << fmt::format("  kernels:  {}\n", Kernels);
  OS << fmt::format("  findings: {} ({} error(s), {} warning(s))\n",
                    Errors + Warnings, Errors, Warnings);
  for (const auto &[Check, Count] : ByCheck)
    OS << fmt::format("    {:<36} {:>5}\n", Check, Count);
  if (!Failed.empty()) {
    OS << "  failed files:\n";
    for (const auto &[File, Reason] : Failed)
      OS << fmt::format("    {}: {}\n", File, Reason);
  }
  if (UsesBaseline)
    OS << fmt::format("  suppressed by baseline: {}\n", BaselineSuppressed);
  OS << fmt::format("  wall time: {:.2f} s\n", WallSeconds);
  printClosingLine(OS);
}

} // namespace tmemcheck
