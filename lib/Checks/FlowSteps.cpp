//===- FlowSteps.cpp - Timeline steps of ordering findings ----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "FlowSteps.h"

namespace tmemcheck {

void addAllocFlowStep(const LifecycleAnalysis &L, const Event &Op,
                      const Event &At, Finding &F) {
  const AbstractValue *V = tmemAddressOperand(Op);
  if (!V || !V->isTmemAddress())
    return;
  const Region *R = L.region(V->Slot);
  if (!R)
    return;
  // The latest alloc of the region before the access, in program order.
  const Event *Alloc = nullptr;
  for (const Event *A : R->Allocs)
    if (A->Id < Op.Id)
      Alloc = A;
  if (Alloc)
    F.FlowSteps.push_back(
        {locationSeenFrom(*Alloc, At), "TMEM allocated here", Alloc->Id});
}

} // namespace tmemcheck
