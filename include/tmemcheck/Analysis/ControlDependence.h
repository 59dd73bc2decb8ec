//===- ControlDependence.h - Which branches decide a block ------*- C++ -*-===//
//
// Part of tmemcheck. Post-dominators and control dependence over a
// KernelGraph. They answer the two questions of design.md "Semantics" §3:
// is this instruction under a lane-divergent condition (some lanes skip
// it), and where do the lanes of a divergent branch meet again.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_CONTROLDEPENDENCE_H
#define TMEMCHECK_ANALYSIS_CONTROLDEPENDENCE_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace tmemcheck {

/// Post-dominator tree and control dependence of one kernel graph.
class ControlDependence {
public:
  explicit ControlDependence(const KernelGraph &G);

  /// Immediate post-dominator of \p B, or -1 for the virtual exit (also for
  /// blocks that never reach the kernel exit).
  int ipdom(unsigned B) const { return IPDom[B]; }

  /// Branch blocks that \p B is directly control dependent on.
  llvm::ArrayRef<unsigned> controllers(unsigned B) const {
    return Controllers[B];
  }

  /// The arms (branch block, successor index) that \p B is directly
  /// control dependent on: B runs only if that branch takes that successor.
  llvm::ArrayRef<std::pair<unsigned, unsigned>>
  controllingArms(unsigned B) const {
    return Arms[B];
  }

  /// Every branch block that decides, directly or through an enclosing
  /// branch, whether \p B runs.
  const std::vector<unsigned> &allControllers(unsigned B) const;

  /// Calls \p Visit on every arm that \p B is control dependent on,
  /// directly or through enclosing branches, each branch once; the walk
  /// goes on above a branch only if \p Visit returns true for it.
  template <typename Fn> void forEachControllingArm(unsigned B, Fn Visit) const {
    std::vector<uint8_t> Seen(Arms.size(), 0);
    Seen[B] = 1;
    std::vector<unsigned> Work{B};
    while (!Work.empty()) {
      unsigned X = Work.back();
      Work.pop_back();
      for (auto [C, K] : Arms[X])
        if (Visit(C, K) && !Seen[C]) {
          Seen[C] = 1;
          Work.push_back(C);
        }
    }
  }

  /// Branches whose condition is not CTA-uniform and whose arms meet again
  /// at \p B (B is their immediate post-dominator), innermost first.
  llvm::ArrayRef<unsigned> divergentBranchesJoiningAt(unsigned B) const {
    return DivergentJoins[B];
  }

private:
  void orderDivergentJoins();

  std::vector<int> IPDom;
  std::vector<std::vector<unsigned>> Controllers;
  std::vector<std::vector<std::pair<unsigned, unsigned>>> Arms;
  std::vector<std::vector<unsigned>> DivergentJoins;
  mutable std::vector<std::vector<unsigned>> AllControllers;
  mutable std::vector<uint8_t> AllControllersDone;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_CONTROLDEPENDENCE_H
