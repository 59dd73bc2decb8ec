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

void BatchSummary::addVerdict(const KernelVerdict &V, bool Gates) {
  switch (V.kind()) {
  case VerdictKind::Clean:
    ++Clean;
    return;
  case VerdictKind::Findings:
    ++WithFindings;
    return;
  case VerdictKind::Incomplete:
    GatingIncomplete += Gates;
    Incomplete.push_back(fmt::format(
        "{}:{}: kernel '{}'{}: {}", V.Loc.File, V.Loc.Line, V.Kernel,
        Gates ? "" : " (accepted: RequireComplete is false)",
        V.Reasons.front().Message));
    return;
  }
}

void BatchSummary::printClosingLine(llvm::raw_ostream &OS) const {
  OS << fmt::format("tmemcheck: {} file(s), {} kernel(s): {} error(s), {} "
                    "warning(s)",
                    Files, Kernels, Errors, Warnings);
  if (!Incomplete.empty())
    OS << fmt::format("; {} kernel(s) incomplete", Incomplete.size());
  if (UsesCache)
    OS << fmt::format("; {} of {} file(s) from the result cache", Cached,
                      Files);
  OS << '\n';
}

void BatchSummary::printSummary(llvm::raw_ostream &OS,
                                double WallSeconds) const {
  OS << "tmemcheck: summary\n";
  OS << fmt::format("  files:    {} ({} analysed, {} failed)\n", Files,
                    Files - Failed.size(), Failed.size());
  OS << fmt::format("  kernels:  {} ({} clean, {} with findings, {} "
                    "incomplete)\n",
                    Kernels, Clean, WithFindings, Incomplete.size());
  OS << fmt::format("  findings: {} ({} error(s), {} warning(s))\n",
                    Errors + Warnings, Errors, Warnings);
  for (const auto &[Check, Count] : ByCheck)
    OS << fmt::format("    {:<36} {:>5}\n", Check, Count);
  if (!Failed.empty()) {
    OS << "  failed files:\n";
    for (const auto &[File, Reason] : Failed)
      OS << fmt::format("    {}: {}\n", File, Reason);
  }
  if (!Incomplete.empty()) {
    OS << "  incomplete kernels (not analysed in full, so not clean):\n";
    for (const std::string &K : Incomplete)
      OS << "    " << K << '\n';
  }
  if (UsesCache)
    OS << fmt::format("  result cache: {} of {} file(s) served\n", Cached,
                      Files);
  if (UsesBaseline)
    OS << fmt::format("  suppressed by baseline: {}\n", BaselineSuppressed);
  OS << fmt::format("  wall time: {:.2f} s\n", WallSeconds);
  printClosingLine(OS);
}

} // namespace tmemcheck
