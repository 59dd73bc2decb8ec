//===- CorrelatedBranches.cpp - Paths that no thread can take -------------===//
//
// Part of tmemcheck. A must-analysis of decided conditions (key, arm) over
// the kernel graph, then edge retargeting. Keys are immutable values, so a
// fact, once established, is never killed; the meet is intersection.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/CorrelatedBranches.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <optional>

namespace tmemcheck {

namespace {

/// A decided condition: key id * 2 + arm, kept sorted.
using Facts = std::vector<uint32_t>;

/// The interned keys of the branches the pass may use, per block; -1 when
/// the block's branch is not one.
std::vector<int> internKeys(const KernelGraph &G) {
  llvm::StringMap<int> Ids;
  std::vector<int> KeyOf(G.Blocks.size(), -1);
  for (unsigned B = 0; B < G.Blocks.size(); ++B) {
    const Block &Blk = G.Blocks[B];
    if (Blk.Succs.size() != 2 || !Blk.BranchKeyIsValue ||
        Blk.BranchKey.empty() ||
        Blk.BranchUniformity != Uniformity::CtaUniform)
      continue;
    KeyOf[B] = Ids.try_emplace(Blk.BranchKey, int(Ids.size())).first->second;
  }
  return KeyOf;
}

/// Facts on the edge leaving \p From through arm \p Arm.
Facts edgeFacts(const Facts &Out, int Key, unsigned Arm) {
  Facts F = Out;
  if (Key >= 0) {
    uint32_t Fact = uint32_t(Key) * 2 + Arm;
    F.insert(std::lower_bound(F.begin(), F.end(), Fact), Fact);
  }
  return F;
}

/// The decided conditions on entry to every block (nullopt: unreached).
std::vector<std::optional<Facts>> decidedConditions(const KernelGraph &G,
                                                    const std::vector<int> &KeyOf) {
  std::vector<unsigned> Order = G.reversePostOrder();
  std::vector<std::optional<Facts>> In(G.Blocks.size());
  In[G.Entry] = Facts();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B : Order) {
      std::optional<Facts> New;
      if (B == G.Entry)
        New = Facts();
      for (unsigned P : G.Blocks[B].Preds) {
        if (!In[P])
          continue;
        const Block &PB = G.Blocks[P];
        for (unsigned Arm = 0; Arm < PB.Succs.size(); ++Arm) {
          if (PB.Succs[Arm] != B)
            continue;
          Facts E = edgeFacts(*In[P], PB.Succs.size() == 2 ? KeyOf[P] : -1,
                              Arm);
          if (!New) {
            New = std::move(E);
            continue;
          }
          Facts Both;
          std::set_intersection(New->begin(), New->end(), E.begin(), E.end(),
                                std::back_inserter(Both));
          New = std::move(Both);
        }
      }
      if (New && New != In[B]) {
        In[B] = std::move(New);
        Changed = true;
      }
    }
  }
  return In;
}

/// One round of retargeting; returns the number of edges moved.
unsigned threadOnce(KernelGraph &G) {
  std::vector<int> KeyOf = internKeys(G);
  if (std::all_of(KeyOf.begin(), KeyOf.end(), [](int K) { return K < 0; }))
    return 0;
  std::vector<std::optional<Facts>> In = decidedConditions(G, KeyOf);
  unsigned Moved = 0;
  for (unsigned B = 0; B < G.Blocks.size(); ++B) {
    const Block &Blk = G.Blocks[B];
    if (KeyOf[B] < 0 || !Blk.Events.empty() || B == G.Entry || !In[B])
      continue;
    llvm::SmallVector<unsigned, 4> Preds(Blk.Preds.begin(), Blk.Preds.end());
    std::sort(Preds.begin(), Preds.end());
    Preds.erase(std::unique(Preds.begin(), Preds.end()), Preds.end());
    for (unsigned P : Preds) {
      if (!In[P] || P == B)
        continue;
      Block &PB = G.Blocks[P];
      for (unsigned Arm = 0; Arm < PB.Succs.size(); ++Arm) {
        if (PB.Succs[Arm] != B)
          continue;
        Facts E =
            edgeFacts(*In[P], PB.Succs.size() == 2 ? KeyOf[P] : -1, Arm);
        for (unsigned Decided = 0; Decided < 2; ++Decided) {
          uint32_t Fact = uint32_t(KeyOf[B]) * 2 + Decided;
          unsigned To = G.Blocks[B].Succs[Decided];
          if (To == B || !std::binary_search(E.begin(), E.end(), Fact))
            continue;
          PB.Succs[Arm] = To;
          ++Moved;
          break;
        }
      }
      // Both arms now lead to one block: the branch decides nothing.
      if (PB.Succs.size() == 2 && PB.Succs[0] == PB.Succs[1])
        PB.Succs.pop_back();
    }
  }
  if (Moved)
    G.rebuildPredecessors();
  return Moved;
}

} // namespace

unsigned threadCorrelatedBranches(KernelGraph &G) {
  unsigned Total = 0;
  // Each round may expose another decided block behind the new target.
  for (unsigned Round = 0; Round < 8; ++Round) {
    unsigned Moved = threadOnce(G);
    Total += Moved;
    if (!Moved)
      break;
  }
  if (!Total)
    return 0;
  // Empty blocks no path reaches any more are detached, so that analyses
  // that walk predecessors without asking about reachability do not see
  // edges from them.
  std::vector<uint8_t> Reached(G.Blocks.size(), 0);
  for (unsigned B : G.reversePostOrder())
    Reached[B] = 1;
  bool Detached = false;
  for (unsigned B = 0; B < G.Blocks.size(); ++B)
    if (!Reached[B] && G.Blocks[B].Events.empty() && B != G.Exit &&
        !G.Blocks[B].Succs.empty()) {
      G.Blocks[B].Succs.clear();
      G.Blocks[B].BranchUniformity.reset();
      G.Blocks[B].BranchKey.clear();
      Detached = true;
    }
  if (Detached)
    G.rebuildPredecessors();
  return Total;
}

} // namespace tmemcheck
