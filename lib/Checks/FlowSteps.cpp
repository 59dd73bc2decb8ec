//===- FlowSteps.cpp - Timeline steps of a finding's code flow ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "FlowSteps.h"

namespace tmemcheck {

const Event *allocBefore(const LifecycleAnalysis &L, const Event &Op) {
  const AbstractValue *V = tmemAddressOperand(Op);
  if (!V || !V->isTmemAddress())
    return nullptr;
  const Region *R = L.region(V->Slot);
  if (!R)
    return nullptr;
  const Event *Alloc = nullptr;
  for (const Event *A : R->Allocs)
    if (A->Id < Op.Id)
      Alloc = A;
  return Alloc;
}

void addEventFlowStep(Finding &F, const Event &Step, const Event &At,
                      std::string Message) {
  FindingNote N{locationSeenFrom(Step, At), std::move(Message), Step.Id};
  N.AfterFinding = Step.Id > At.Id;
  F.FlowSteps.push_back(std::move(N));
}

void addAllocFlowStep(const LifecycleAnalysis &L, const Event &Op,
                      const Event &At, Finding &F) {
  if (const Event *Alloc = allocBefore(L, Op))
    addEventFlowStep(F, *Alloc, At, "TMEM allocated here");
}

void addFlowStep(Finding &F, SourceLoc Loc, std::string Message,
                 bool AfterFinding) {
  FindingNote N{std::move(Loc), std::move(Message),
                static_cast<unsigned>(F.FlowSteps.size()) + 1};
  N.AfterFinding = AfterFinding;
  F.FlowSteps.push_back(std::move(N));
}

} // namespace tmemcheck
