//===- ThreadConditions.cpp - Which threads run a block -------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ThreadConditions.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace tmemcheck {

namespace {

/// `lhs==C` taken with arm 0 (true) or `lhs!=C` with arm 1: the thread has
/// lhs equal to C.
bool equalityAtom(const std::pair<std::string, unsigned> &Cond,
                  std::string &Lhs, long long &Value) {
  llvm::StringRef Text = Cond.first;
  bool Eq;
  size_t Pos = Text.find("==");
  if (Pos != llvm::StringRef::npos) {
    Eq = Cond.second == 0;
  } else {
    Pos = Text.find("!=");
    if (Pos == llvm::StringRef::npos)
      return false;
    Eq = Cond.second == 1;
  }
  if (!Eq)
    return false;
  llvm::StringRef L = Text.take_front(Pos).trim("() ");
  llvm::StringRef R = Text.drop_front(Pos + 2).trim("() ");
  if (R.getAsInteger(0, Value))
    return false;
  Lhs = L.str();
  return true;
}

} // namespace

ThreadConditions::ThreadConditions(const KernelGraph &G,
                                   const ControlDependence &CD)
    : G(G), CD(CD), Cache(G.Blocks.size()), Done(G.Blocks.size(), 0) {}

const ThreadConditions::Conditions &ThreadConditions::of(unsigned B) {
  if (Done[B])
    return Cache[B];
  Done[B] = 1; // breaks cycles through loop conditions
  Conditions C;
  for (auto [Branch, Arm] : CD.controllingArms(B)) {
    const Block &Br = G.Blocks[Branch];
    if (Br.BranchUniformity && *Br.BranchUniformity != Uniformity::CtaUniform &&
        !Br.BranchKey.empty())
      C.insert({Br.BranchKey, Arm});
    const Conditions &Outer = of(Branch);
    C.insert(Outer.begin(), Outer.end());
  }
  Cache[B] = std::move(C);
  return Cache[B];
}

bool ThreadConditions::compatible(unsigned A, unsigned B) {
  const Conditions &CA = of(A);
  const Conditions &CB = of(B);
  for (const auto &X : CA)
    for (const auto &Y : CB) {
      if (X.first == Y.first && X.second != Y.second)
        return false;
      std::string LX, LY;
      long long VX, VY;
      if (equalityAtom(X, LX, VX) && equalityAtom(Y, LY, VY) && LX == LY &&
          VX != VY)
        return false;
    }
  return true;
}

bool ThreadConditions::subsetOf(unsigned A, unsigned B) {
  const Conditions &CA = of(A);
  const Conditions &CB = of(B);
  return std::includes(CA.begin(), CA.end(), CB.begin(), CB.end());
}

} // namespace tmemcheck
