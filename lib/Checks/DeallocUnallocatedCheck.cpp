//===- DeallocUnallocatedCheck.cpp - tmem-dealloc-unallocated -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.dealloc whose address is not the start of an
/// allocation: a constant, an offset into a region, a slot no alloc writes,
/// or a path on which the region was never allocated (rule A9).
class DeallocUnallocatedCheck : public Check {
  /// True if the dealloc's threads are among those of an alloc that runs
  /// under warp-role conditions alone (`if (warp == 12) alloc; ... if (warp
  /// == 12) dealloc` with other roles' code between): the paths on which
  /// the region is unallocated are other roles' paths, which never reach
  /// the dealloc. An alloc under a CTA-uniform condition too (`&& flag`)
  /// does not count: warp 12 may then skip it.
  static bool allocatedByOwnRole(AnalysisContext &Ctx, const Region &R,
                                 const Event &Dealloc) {
    const KernelGraph &G = Ctx.graph();
    const std::vector<unsigned> BlockOf = EventIndex(G).BlockOf;
    const unsigned DB = BlockOf[Dealloc.Id];
    for (const Event *A : R.Allocs) {
      const unsigned AB = BlockOf[A->Id];
      const std::vector<unsigned> &Ctl = Ctx.control().allControllers(AB);
      bool RoleOnly = !Ctl.empty();
      for (unsigned C : Ctl) {
        const Block &Br = G.Blocks[C];
        RoleOnly &= Br.BranchUniformity &&
                    (*Br.BranchUniformity == Uniformity::WarpUniform ||
                     *Br.BranchUniformity == Uniformity::ThreadVariant) &&
                    !Br.BranchKey.empty();
      }
      if (RoleOnly && Ctx.threads().subsetOf(DB, AB))
        return true;
    }
    return false;
  }

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
          !L.allocatedByAnotherRole(E) && !allocatedByOwnRole(Ctx, *R, E)) {
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
