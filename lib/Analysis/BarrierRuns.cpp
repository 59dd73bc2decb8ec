//===- BarrierRuns.cpp - mbarrier arrays carved from one buffer -----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BarrierRuns.h"

#include <set>

namespace tmemcheck {

namespace {

/// The mbarrier address operand of an event, a sync event's or a
/// commit's, whatever its array; null when it has none.
AbstractValue *mbarrierAddress(Event &E) {
  int Index = -1;
  if (E.K == Event::Kind::Sync && E.Sync)
    Index = E.Sync->MbarOperand;
  else if (E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Commit)
    Index = E.Op->MbarOperand;
  if (Index < 0 || size_t(Index) >= E.Operands.size())
    return nullptr;
  AbstractValue &V = E.Operands[Index].Value;
  return V.isSlotAddress() ? &V : nullptr;
}

/// The mbarrier operand of an event in a known array. An init is left
/// out: it hands nothing over, and the loop that initialises every stage
/// (`for (i...) mbarrier.init(&full[i])`) would make the array one run.
AbstractValue *barrierOperand(Event &E) {
  if (E.K == Event::Kind::Sync && E.Sync &&
      E.Sync->Kind == SyncOpKind::MbarrierInit)
    return nullptr;
  AbstractValue *V = mbarrierAddress(E);
  return V && V->SlotArray ? V : nullptr;
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
  // each thread. A barrier of an object each role picks (C++) is in its
  // thread's object's array; those arrays stay one run each.
  std::set<uint64_t> Flat;
  for (Block &B : G.Blocks)
    for (Event &E : B.Events)
      if (AbstractValue *V = mbarrierAddress(E); V && V->SlotArrayByThread) {
        V->BarrierRunByThread = V->SlotArrayByThread;
        Flat.insert(V->SlotArrayByThread->begin(), V->SlotArrayByThread->end());
      }
  for (Block &B : G.Blocks)
    for (Event &E : B.Events)
      if (const AbstractValue *V = barrierOperand(E);
          V && !V->SlotRunStart && !V->SlotRunStartByThread)
        Flat.insert(V->SlotArray);
  for (Block &B : G.Blocks)
    for (Event &E : B.Events) {
      AbstractValue *V = barrierOperand(E);
      if (!V || Flat.count(V->SlotArray))
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
