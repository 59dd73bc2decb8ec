//===- BarrierRuns.cpp - mbarrier arrays carved from one buffer -----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BarrierRuns.h"

#include <set>

namespace tmemcheck {

namespace {

/// The mbarrier operand of an event: a sync event's, or a commit's.
AbstractValue *barrierOperand(Event &E) {
  int Index = -1;
  if (E.K == Event::Kind::Sync && E.Sync)
    Index = E.Sync->MbarOperand;
  else if (E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Commit)
    Index = E.Op->MbarOperand;
  if (Index < 0 || size_t(Index) >= E.Operands.size())
    return nullptr;
  AbstractValue &V = E.Operands[Index].Value;
  return V.isSlotAddress() && V.SlotArray ? &V : nullptr;
}

} // namespace

void separateBarrierRuns(KernelGraph &G, const BarrierRunOptions &Options) {
  if (Options.ExactOffsetsStartRuns)
    for (Block &B : G.Blocks)
      for (Event &E : B.Events)
        if (AbstractValue *V = barrierOperand(E); V && !V->SlotRunStart &&
                                                  !V->SlotRunStartByThread &&
                                                  V->SlotByteOffset)
          V->SlotRunStart = V->SlotByteOffset;
  // Variables some barrier operand reaches at an unknown constant part.
  // A run that depends on the thread (a role's own pipeline) is known in
  // each thread.
  // A barrier of an object each role picks (C++): the arrays of the
  // objects stay one run each, and the operand is on its thread's.
  for (Block &B : G.Blocks)
    for (Event &E : B.Events) {
      int Index = -1;
      if (E.K == Event::Kind::Sync && E.Sync)
        Index = E.Sync->MbarOperand;
      else if (E.K == Event::Kind::Tmem && E.Op &&
               E.Op->Kind == TmemOpKind::Commit)
        Index = E.Op->MbarOperand;
      if (Index < 0 || size_t(Index) >= E.Operands.size())
        continue;
      AbstractValue &V = E.Operands[Index].Value;
      if (V.isSlotAddress() && V.SlotArrayByThread)
        V.BarrierRunByThread = V.SlotArrayByThread;
    }
  // An init neither arrives nor waits: the loop that initialises every
  // barrier of an array by a run-time index (`barrier_ptr_[d * L + l].init`)
  // does not merge the runs.
  std::set<uint64_t> Flat;
  for (Block &B : G.Blocks)
    for (Event &E : B.Events)
      for (const OperandValue &O : E.Operands)
        if (O.Value.SlotArrayByThread)
          Flat.insert(O.Value.SlotArrayByThread->begin(),
                      O.Value.SlotArrayByThread->end());
  for (Block &B : G.Blocks)
    for (Event &E : B.Events)
      if (const AbstractValue *V = barrierOperand(E);
          V && !V->SlotRunStart && !V->SlotRunStartByThread &&
          !(E.K == Event::Kind::Sync && E.Sync &&
            E.Sync->Kind == SyncOpKind::MbarrierInit))
        Flat.insert(V->SlotArray);
  for (Block &B : G.Blocks)
    for (Event &E : B.Events) {
      AbstractValue *V = barrierOperand(E);
      if (!V || Flat.count(V->SlotArray) ||
          (!V->SlotRunStart && !V->SlotRunStartByThread))
        continue;
      if (V->SlotRunStart) {
        V->BarrierRun = Options.RunIdentity(V->SlotArray, *V->SlotRunStart);
        continue;
      }
      auto Runs = std::make_shared<std::vector<uint64_t>>();
      Runs->reserve(V->SlotRunStartByThread->size());
      for (int64_t Start : *V->SlotRunStartByThread)
        Runs->push_back(Options.RunIdentity(V->SlotArray, Start));
      V->BarrierRunByThread = std::move(Runs);
    }
}

} // namespace tmemcheck
