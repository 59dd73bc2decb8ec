//===- Finding.cpp - What a check reports ---------------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <tuple>

namespace tmemcheck {

llvm::StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Remark:
    return "remark";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

bool operator<(const Finding &A, const Finding &B) {
  return std::tie(A.Loc, A.Order, A.CheckName, A.Message) <
         std::tie(B.Loc, B.Order, B.CheckName, B.Message);
}

void FindingSink::report(Finding F) {
  for (Finding &Existing : Findings) {
    if (Existing.CheckName != F.CheckName || !(Existing.Loc == F.Loc) ||
        Existing.Message != F.Message)
      continue;
    // The same finding reached again (another instantiation, another split
    // of the kernel) or the same hazard of a second operation (two loads
    // released by one arrive): keep the sites the first did not name (a
    // site it names through another instantiation's frames is the same).
    for (FindingNote &N : F.Notes)
      if (llvm::none_of(Existing.Notes,
                        [&](const FindingNote &E) { return E.Loc == N.Loc; }))
        Existing.Notes.push_back(std::move(N));
    return;
  }
  Findings.push_back(std::move(F));
}

std::vector<Finding> FindingSink::takeSorted() {
  std::vector<Finding> Out = std::move(Findings);
  Findings.clear();
  llvm::sort(Out);
  return Out;
}

} // namespace tmemcheck
