//===- BlockReachability.cpp - Which blocks can follow which --------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BlockReachability.h"

#include <algorithm>
#include <utility>

namespace tmemcheck {

BlockReachability::BlockReachability(const KernelGraph &G) : G(G) {
  const unsigned N = G.Blocks.size();
  if (N > MaxClosureBlocks)
    return;
  // Tarjan's algorithm, iteratively: a component is complete only after
  // every component it reaches, so each one's reach is final when its
  // successors' are.
  constexpr unsigned None = ~0u;
  std::vector<unsigned> Index(N, None), Low(N, 0);
  std::vector<uint8_t> OnStack(N, 0);
  std::vector<unsigned> Stack;
  std::vector<std::pair<unsigned, size_t>> Calls; // block, next successor
  Component.assign(N, None);
  unsigned Counter = 0;
  auto Enter = [&](unsigned B) {
    Index[B] = Low[B] = Counter++;
    Stack.push_back(B);
    OnStack[B] = 1;
    Calls.push_back({B, 0});
  };
  for (unsigned Root = 0; Root < N; ++Root) {
    if (Index[Root] != None)
      continue;
    Enter(Root);
    while (!Calls.empty()) {
      const unsigned B = Calls.back().first;
      const auto &Succs = G.Blocks[B].Succs;
      if (Calls.back().second < Succs.size()) {
        unsigned S = Succs[Calls.back().second++];
        if (S >= N)
          continue;
        if (Index[S] == None)
          Enter(S);
        else if (OnStack[S])
          Low[B] = std::min(Low[B], Index[S]);
        continue;
      }
      Calls.pop_back();
      if (!Calls.empty())
        Low[Calls.back().first] = std::min(Low[Calls.back().first], Low[B]);
      if (Low[B] != Index[B])
        continue;
      const unsigned C = ComponentReach.size();
      ComponentReach.emplace_back(N);
      size_t First = Stack.size();
      do
        --First;
      while (Stack[First] != B);
      for (size_t I = First; I < Stack.size(); ++I) {
        Component[Stack[I]] = C;
        OnStack[Stack[I]] = 0;
      }
      llvm::BitVector &Reach = ComponentReach[C];
      bool Cyclic = Stack.size() - First > 1;
      for (size_t I = First; I < Stack.size(); ++I)
        for (unsigned S : G.Blocks[Stack[I]].Succs) {
          if (S >= N)
            continue;
          if (Component[S] == C) {
            Cyclic = true;
            continue;
          }
          Reach.set(S);
          Reach |= ComponentReach[Component[S]];
        }
      if (Cyclic)
        for (size_t I = First; I < Stack.size(); ++I)
          Reach.set(Stack[I]);
      Stack.resize(First);
    }
  }
}

const llvm::BitVector &BlockReachability::from(unsigned From) const {
  if (!Component.empty())
    return ComponentReach[Component[From]];
  auto [It, New] = Walked.try_emplace(From);
  if (New) {
    std::vector<uint8_t> Reached = G.reachableFrom(From);
    It->second.resize(Reached.size());
    for (size_t B = 0; B < Reached.size(); ++B)
      if (Reached[B])
        It->second.set(B);
  }
  return It->second;
}

} // namespace tmemcheck
