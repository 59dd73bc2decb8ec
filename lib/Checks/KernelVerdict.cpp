//===- KernelVerdict.cpp - What a run can say about one kernel ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Checks/KernelVerdict.h"

#include "tmemcheck/Analysis/KernelGraph.h"

namespace tmemcheck {

llvm::StringRef verdictName(VerdictKind K) {
  switch (K) {
  case VerdictKind::Clean:
    return "clean";
  case VerdictKind::Findings:
    return "findings";
  case VerdictKind::Incomplete:
    return "incomplete";
  }
  return "incomplete";
}

std::string incompleteSummary(const KernelVerdict &V) {
  std::string Head = "kernel '" + V.Kernel + "' was not analysed completely";
  if (V.Reasons.empty())
    return Head;
  llvm::StringRef Reason = V.Reasons.front().Message;
  if (Reason.consume_front("kernel '" + V.Kernel + "' "))
    return Head + ": it " + Reason.str();
  return Head + ": " + Reason.str();
}

KernelVerdict verdictOf(const KernelGraph &G) {
  KernelVerdict V;
  V.Kernel = G.Name;
  V.Loc = G.Loc;
  for (const AnalysisRemark &R : G.Remarks)
    if (R.MakesIncomplete)
      V.Reasons.push_back({R.Loc, R.Message});
  // A graph cut short without a remark of its own is incomplete all the
  // same; the time budget's remark is worded by the kernel's budget
  // (runKernelChecks), which is then exhausted too.
  if (G.Truncated && !G.OutOfTime && V.Reasons.empty())
    V.Reasons.push_back(
        {G.Loc, "the analysis budget ran out while the graph was built"});
  return V;
}

} // namespace tmemcheck
