//===- ControlDependence.cpp - Which branches decide a block --------------===//
//
// Part of tmemcheck. Post-dominators by the Cooper-Harvey-Kennedy iteration
// on the reversed graph, with a virtual exit joining the kernel exit and
// every dead end.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ControlDependence.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>

namespace tmemcheck {

ControlDependence::ControlDependence(const KernelGraph &G)
    : IPDom(G.Blocks.size(), -1), Controllers(G.Blocks.size()),
      Arms(G.Blocks.size()), DivergentJoins(G.Blocks.size()),
      AllControllers(G.Blocks.size()), AllControllersDone(G.Blocks.size(), 0) {
  const unsigned N = G.Blocks.size();
  if (N == 0)
    return;
  const unsigned Virtual = N;

  // Reverse-graph successors of the virtual exit: the exit and dead ends.
  std::vector<unsigned> Roots;
  for (unsigned B = 0; B < N; ++B)
    if (B == G.Exit || G.Blocks[B].Succs.empty())
      Roots.push_back(B);

  // Post-order of the reversed graph from the virtual exit (iterative).
  std::vector<int> PostNum(N + 1, -1);
  std::vector<unsigned> Order; // post-order
  std::vector<uint8_t> Seen(N + 1, 0);
  std::vector<std::pair<unsigned, unsigned>> Stack;
  auto RevSuccs = [&](unsigned B) -> llvm::ArrayRef<unsigned> {
    if (B == Virtual)
      return Roots;
    return G.Blocks[B].Preds;
  };
  Stack.push_back({Virtual, 0});
  Seen[Virtual] = 1;
  while (!Stack.empty()) {
    auto &[B, I] = Stack.back();
    llvm::ArrayRef<unsigned> S = RevSuccs(B);
    if (I < S.size()) {
      unsigned Next = S[I++];
      if (!Seen[Next]) {
        Seen[Next] = 1;
        Stack.push_back({Next, 0});
      }
      continue;
    }
    PostNum[B] = Order.size();
    Order.push_back(B);
    Stack.pop_back();
  }

  // Dominators of the reversed graph = post-dominators.
  std::vector<int> Dom(N + 1, -1);
  Dom[Virtual] = Virtual;
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (PostNum[A] < PostNum[B])
        A = Dom[A];
      while (PostNum[B] < PostNum[A])
        B = Dom[B];
    }
    return A;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto It = Order.rbegin(); It != Order.rend(); ++It) {
      unsigned B = *It;
      if (B == Virtual)
        continue;
      // Predecessors in the reversed graph: successors in G (and the virtual
      // exit for roots).
      int NewDom = -1;
      auto Consider = [&](unsigned P) {
        if (Dom[P] == -1)
          return;
        NewDom = NewDom == -1 ? static_cast<int>(P) : Intersect(P, NewDom);
      };
      if (B == G.Exit || G.Blocks[B].Succs.empty())
        Consider(Virtual);
      for (unsigned S : G.Blocks[B].Succs)
        Consider(S);
      if (NewDom != -1 && Dom[B] != NewDom) {
        Dom[B] = NewDom;
        Changed = true;
      }
    }
  }
  for (unsigned B = 0; B < N; ++B)
    IPDom[B] =
        (Dom[B] == -1 || Dom[B] == static_cast<int>(Virtual)) ? -1 : Dom[B];

  // Control dependence: for a branch A and successor S that S does not
  // post-dominate A, every block from S up the post-dominator tree to
  // ipdom(A) (exclusive) runs only if A goes that way.
  for (unsigned A = 0; A < N; ++A) {
    const Block &Blk = G.Blocks[A];
    if (Blk.Succs.size() < 2 || Dom[A] == -1)
      continue;
    if (Blk.BranchUniformity &&
        *Blk.BranchUniformity != Uniformity::CtaUniform && IPDom[A] >= 0)
      DivergentJoins[IPDom[A]].push_back(A);
    for (unsigned SI = 0; SI < Blk.Succs.size(); ++SI) {
      int Runner = Blk.Succs[SI];
      unsigned Steps = 0;
      while (Runner >= 0 && Runner != IPDom[A] && Steps++ < N) {
        auto &C = Controllers[Runner];
        if (std::find(C.begin(), C.end(), A) == C.end()) {
          C.push_back(A);
          Arms[Runner].push_back({A, SI});
        }
        Runner = IPDom[Runner];
      }
    }
  }
  orderDivergentJoins();
}

void ControlDependence::orderDivergentJoins() {
  // Innermost first: a branch nested in another has more controllers.
  for (std::vector<unsigned> &Joins : DivergentJoins)
    std::stable_sort(Joins.begin(), Joins.end(), [&](unsigned A, unsigned B) {
      return allControllers(A).size() > allControllers(B).size();
    });
}

const std::vector<unsigned> &
ControlDependence::allControllers(unsigned B) const {
  if (AllControllersDone[B])
    return AllControllers[B];
  std::vector<unsigned> Result;
  std::vector<unsigned> Work(Controllers[B].begin(), Controllers[B].end());
  llvm::SmallDenseSet<unsigned, 16> Seen;
  while (!Work.empty()) {
    unsigned C = Work.back();
    Work.pop_back();
    if (!Seen.insert(C).second)
      continue;
    Result.push_back(C);
    for (unsigned P : Controllers[C])
      Work.push_back(P);
  }
  std::sort(Result.begin(), Result.end());
  AllControllersDone[B] = 1;
  AllControllers[B] = std::move(Result);
  return AllControllers[B];
}

} // namespace tmemcheck
