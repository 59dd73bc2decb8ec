//===- CorrelatedSplits.cpp - A graph per assumption on a condition -------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/CorrelatedSplits.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>

namespace tmemcheck {

namespace {

bool isSplitBranch(const Block &B) {
  return B.Succs.size() == 2 && B.Succs[0] != B.Succs[1] &&
         B.BranchUniformity == Uniformity::CtaUniform && !B.ValueKey.empty();
}

} // namespace

std::vector<std::string> sharedConditionValues(const KernelGraph &G) {
  llvm::StringMap<unsigned> Tests;
  for (unsigned B : G.reversePostOrder())
    if (isSplitBranch(G.Blocks[B]))
      ++Tests[G.Blocks[B].ValueKey];
  std::vector<std::string> Shared;
  for (const auto &[Key, Count] : Tests)
    if (Count > 1)
      Shared.push_back(Key.str());
  if (Shared.size() > MaxCorrelatedSplits)
    return {};
  std::sort(Shared.begin(), Shared.end());
  return Shared;
}

KernelGraph assumeConditionValues(const KernelGraph &G,
                                  const std::vector<std::string> &Values,
                                  unsigned Assumption) {
  KernelGraph Out = G;
  for (Block &B : Out.Blocks) {
    if (!isSplitBranch(B))
      continue;
    auto It = std::find(Values.begin(), Values.end(), B.ValueKey);
    if (It == Values.end())
      continue;
    bool Holds = (Assumption >> (It - Values.begin())) & 1;
    B.Succs = {B.Succs[Holds ? 0 : 1]};
    B.BranchUniformity.reset();
  }
  std::vector<uint8_t> Reached(Out.Blocks.size(), 0);
  for (unsigned B : Out.reversePostOrder())
    Reached[B] = 1;
  for (unsigned B = 0; B < Out.Blocks.size(); ++B)
    if (!Reached[B] && B != Out.Exit) {
      Out.Blocks[B].Events.clear();
      Out.Blocks[B].Succs.clear();
      Out.Blocks[B].BranchUniformity.reset();
    }
  Out.rebuildPredecessors();
  return Out;
}

} // namespace tmemcheck
