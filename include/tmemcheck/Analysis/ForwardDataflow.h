//===- ForwardDataflow.h - Worklist solver over a KernelGraph ---*- C++ -*-===//
//
// Part of tmemcheck. Every analysis of a kernel is a forward dataflow over
// its blocks; they differ in the state, how states meet and what an event
// does to a state. This solver owns the worklist so each analysis states
// only those three things.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_FORWARDDATAFLOW_H
#define TMEMCHECK_ANALYSIS_FORWARDDATAFLOW_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"

#include <deque>
#include <optional>
#include <vector>

namespace tmemcheck {

/// The fixpoint: the state at the start of every block that has events and
/// of the exit, at the end of every block, and which blocks the entry
/// reaches.
template <typename State> struct ForwardSolution {
  std::vector<State> In, Out;
  std::vector<uint8_t> Reached;
  /// False when the kernel's budget stopped the iteration short of the
  /// fixpoint.
  bool Complete = true;
};

/// Solves a forward dataflow to its fixpoint. \p Join(Block, Reached, Out)
/// computes the state entering a block from its reached predecessors (it is
/// called only when at least one is reached, or for the entry);
/// \p Transfer(Event, State&) applies one event. States must be comparable
/// with ==, and Join/Transfer monotone over a finite lattice, so that the
/// iteration ends.
///
/// The iteration is bounded all the same: a block visited more often than
/// \p Budget's loop-iteration bound, or the kernel's time running out, stops
/// it and leaves \p Budget exhausted. The solution is then partial, and the
/// caller's results must not be reported (the driver drops the kernel's
/// findings).
template <typename State, typename JoinFn, typename TransferFn>
ForwardSolution<State> solveForward(const KernelGraph &G, KernelBudget &Budget,
                                    JoinFn Join, TransferFn Transfer) {
  ForwardSolution<State> S;
  const unsigned N = G.Blocks.size();
  S.In.assign(N, State());
  S.Out.assign(N, State());
  S.Reached.assign(N, 0);
  if (N == 0)
    return S;
  std::vector<uint8_t> Queued(N, 0);
  std::vector<unsigned> Visits(N, 0);
  DeadlinePoller Clock;
  std::deque<unsigned> Work;
  for (unsigned B : G.reversePostOrder()) {
    Work.push_back(B);
    Queued[B] = 1;
  }
  while (!Work.empty()) {
    unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = 0;
    bool AnyPred = B == G.Entry;
    for (unsigned P : G.Blocks[B].Preds)
      AnyPred |= S.Reached[P] != 0;
    if (!AnyPred)
      continue;
    if (Clock.expired(Budget)) {
      S.Complete = false;
      break;
    }
    if (++Visits[B] > Budget.maxLoopIterations()) {
      Budget.loopBoundReached();
      S.Complete = false;
      break;
    }
    State Cur = Join(B, S.Reached, S.Out);
    // Only a block with events is replayed from its entry state; the exit's
    // is the analyses' summary. Other blocks (wait-loop heads, branch
    // blocks: most of them) pass their state on without keeping a copy.
    if (!G.Blocks[B].Events.empty() || B == G.Exit)
      S.In[B] = Cur;
    for (const Event &E : G.Blocks[B].Events)
      Transfer(E, Cur);
    if (S.Reached[B] && Cur == S.Out[B])
      continue;
    S.Out[B] = std::move(Cur);
    S.Reached[B] = 1;
    for (unsigned Succ : G.Blocks[B].Succs)
      if (!Queued[Succ]) {
        Queued[Succ] = 1;
        Work.push_back(Succ);
      }
  }
  return S;
}

/// Replays the fixpoint once, in program order, calling
/// \p Visit(Event, StateBefore) for every event of every reached block.
/// A partial solution is not replayed: nothing computed from it counts.
template <typename State, typename TransferFn, typename VisitFn>
void replayForward(const KernelGraph &G, const ForwardSolution<State> &S,
                   TransferFn Transfer, VisitFn Visit) {
  if (!S.Complete)
    return;
  for (unsigned B : G.reversePostOrder()) {
    if (!S.Reached[B])
      continue;
    State Cur = S.In[B];
    for (const Event &E : G.Blocks[B].Events) {
      Visit(E, Cur);
      Transfer(E, Cur);
    }
  }
}

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_FORWARDDATAFLOW_H
