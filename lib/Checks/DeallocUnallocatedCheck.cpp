//===- DeallocUnallocatedCheck.cpp - tmem-dealloc-unallocated -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.dealloc whose address is not the start of an
/// allocation: a constant, an offset into a region, a slot no alloc writes,
/// or a path on which the region was never allocated (rule A9).
class DeallocUnallocatedCheck : public Check {
public:
  DeallocUnallocatedCheck()
      : Check("tmem-dealloc-unallocated", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    // Findings about region identity need every alloc resolved and the
    // whole kernel seen.
    bool Complete = L.isComplete();
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op ||
          E.Op->Kind != TmemOpKind::Dealloc)
        return;
      const AbstractValue *V = tmemAddressOperand(E);
      if (!V)
        return;
      if (V->Constant && !V->isTmemAddress()) {
        if (Complete)
          Out.report(makeKernelLevelFinding(
              G, E,
              fmt::format("tcgen05.dealloc of the constant address {}, "
                          "which is not a value tcgen05.alloc returned; "
                          "free the address the alloc stored in its "
                          "shared-memory slot (rule A9)",
                          *V->Constant)));
        return;
      }
      if (!V->isTmemAddress())
        return;
      const Region *R = L.region(V->Slot);
      if (!R) {
        if (Complete && !L.regions().empty())
          Out.report(makeKernelLevelFinding(
              G, E,
              fmt::format("tcgen05.dealloc frees the address read from '{}', "
                          "but no tcgen05.alloc in this kernel writes that "
                          "slot (rule A9)",
                          V->SlotName)));
        return;
      }
      if ((V->ColumnOffset && *V->ColumnOffset != 0) ||
          (V->LaneOffset && *V->LaneOffset != 0)) {
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.dealloc frees '{}' at an offset of {} "
                        "lane(s) and {} column(s): only the start of an "
                        "allocation can be freed (rule A9)",
                        R->Name, V->LaneOffset.value_or(0),
                        V->ColumnOffset.value_or(0)));
        F.Notes.push_back({R->Allocs.front()->kernelLoc(), "allocated here",
                           R->Allocs.front()->Id});
        Out.report(std::move(F));
        return;
      }
      PhaseSet Before = L.stateBefore(E).phases(R->Slot);
      // A dealloc in another warp role than the alloc's frees what that
      // role allocated (in the CTA both run); whether it reads the slot
      // after the alloc wrote it is tmem-addr-publish-race's question.
      if ((Before & PhaseUnallocated) && Complete &&
          !L.allocatedByAnotherRole(E)) {
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.dealloc frees '{}' on a path where it was "
                        "never allocated (rule A9)",
                        R->Name));
        F.Notes.push_back({R->Allocs.front()->kernelLoc(),
                           "allocated here, but not on every path to the "
                           "dealloc"});
        Out.report(std::move(F));
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> createDeallocUnallocatedCheck() {
  return std::make_unique<DeallocUnallocatedCheck>();
}

} // namespace tmemcheck
