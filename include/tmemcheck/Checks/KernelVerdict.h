//===- KernelVerdict.h - What a run can say about one kernel ----*- C++ -*-===//
//
// Part of tmemcheck. Every analysed kernel ends in one of three verdicts:
// clean (analysed, nothing found), findings, or incomplete (part of it was
// not seen: a budget, values that did not settle, calls that may touch TMEM
// without a body, tcgen05 text that could not be read, an uninstantiated
// template). An incomplete kernel is never called clean, whatever it found
// in the part that was seen (design.md "Never silent"); the driver lists
// such kernels in every output format, and exit status 0 means every kernel
// was analysed and is clean.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_CHECKS_KERNELVERDICT_H
#define TMEMCHECK_CHECKS_KERNELVERDICT_H

#include "tmemcheck/Analysis/SourceLoc.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tmemcheck {

struct KernelGraph;

enum class VerdictKind { Clean, Findings, Incomplete };

/// "clean", "findings" or "incomplete", as every output format spells it.
llvm::StringRef verdictName(VerdictKind K);

/// One reason a kernel is incomplete: the remark that says what was not
/// seen, where.
struct IncompleteReason {
  SourceLoc Loc;
  std::string Message;
};

/// The verdict of one kernel and what it rests on.
struct KernelVerdict {
  std::string Kernel;
  SourceLoc Loc;
  /// Why the kernel is incomplete; empty when it was fully analysed.
  std::vector<IncompleteReason> Reasons;
  /// Findings reported for the kernel after suppressions (NOLINT,
  /// baseline): a suppressed finding does not make a kernel "findings".
  unsigned ReportedFindings = 0;

  bool incomplete() const { return !Reasons.empty(); }
  VerdictKind kind() const {
    if (incomplete())
      return VerdictKind::Incomplete;
    return ReportedFindings ? VerdictKind::Findings : VerdictKind::Clean;
  }
};

/// "kernel 'k' was not analysed completely: <the first reason>", as the
/// SARIF log and the editor say it. Reasons are remarks that usually name
/// the kernel themselves ("kernel 'k' calls ..."): the name is said once.
std::string incompleteSummary(const KernelVerdict &V);

/// The verdict of \p G before its findings are counted: the reasons of
/// every remark of the graph that made it incomplete.
KernelVerdict verdictOf(const KernelGraph &G);

} // namespace tmemcheck

#endif // TMEMCHECK_CHECKS_KERNELVERDICT_H
