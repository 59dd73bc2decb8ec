//===- DivergentCollectiveCheck.cpp - tmem-divergent-collective -----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a warp-collective (`.sync.aligned`) tcgen05 instruction that runs
/// under a condition that differs between the lanes of a warp: alloc inside
/// `if (threadIdx.x == 0)`, ld after some lanes returned (rule A2, rules §2).
/// Loop conditions are exempt: lanes leave a loop together in the idioms
/// kernels use, and tmemcheck cannot prove otherwise.
class DivergentCollectiveCheck : public Check {
public:
  DivergentCollectiveCheck()
      : Check("tmem-divergent-collective", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const ControlDependence &CD = Ctx.control();
    for (unsigned B = 0; B < G.Blocks.size(); ++B) {
      const Block &Blk = G.Blocks[B];
      for (const Event &E : Blk.Events) {
        if (E.K != Event::Kind::Tmem || !E.Op || !E.Op->isWarpCollective())
          continue;
        const Block *Divergent = nullptr;
        for (unsigned C : CD.allControllers(B)) {
          const Block &Cond = G.Blocks[C];
          // `if (warp_idx == 1 && elect_one_sync()) ... else if (warp_idx ==
          // 2) alloc`: the lanes the election splits never reach the alloc,
          // so that split does not divide the allocating warp.
          if (Cond.BranchUniformity == Uniformity::ThreadVariant &&
              !Cond.BranchIsLoop && Ctx.threads().splitReaches(C, B)) {
            Divergent = &Cond;
            break;
          }
        }
        if (!Divergent)
          continue;
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.{} is warp-collective (.sync.aligned) but "
                        "runs under a condition that differs between the "
                        "lanes of a warp (rule A2)",
                        kindName(E.Op->Kind).str()));
        F.Notes.push_back(
            {Divergent->BranchLoc,
             "this condition depends on the lane; branch on a warp-uniform "
             "value such as threadIdx.x / 32 instead"});
        Out.report(std::move(F));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> createDivergentCollectiveCheck() {
  return std::make_unique<DivergentCollectiveCheck>();
}

} // namespace tmemcheck
