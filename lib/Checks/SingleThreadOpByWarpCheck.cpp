//===- SingleThreadOpByWarpCheck.cpp - tmem-single-thread-op-by-warp ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags mma, cp, shift and commit that every thread reaching them issues:
/// each is a single-thread operation, so a whole warp launches 32 of them
/// (rules §2 issue granularity, EXP-7: ptxas wraps them in a per-thread
/// ELECT loop). An elect.sync / lane test around them, or a `@p` guard in
/// the asm, is what is missing.
class SingleThreadOpByWarpCheck : public Check {
public:
  SingleThreadOpByWarpCheck()
      : Check("tmem-single-thread-op-by-warp", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const ControlDependence &CD = Ctx.control();
    for (unsigned B = 0; B < G.Blocks.size(); ++B) {
      for (const Event &E : G.Blocks[B].Events) {
        if (E.K != Event::Kind::Tmem || !E.Op || !E.Op->isSingleThread() ||
            E.Guarded)
          continue;
        // Any lane-dependent (or unknown) condition may be the election.
        bool MaybeElected = false;
        for (unsigned C : CD.allControllers(B)) {
          std::optional<Uniformity> U = G.Blocks[C].BranchUniformity;
          if (!U || *U == Uniformity::ThreadVariant ||
              *U == Uniformity::Unknown) {
            MaybeElected = true;
            break;
          }
        }
        if (MaybeElected)
          continue;
        Out.report(makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.{} is a single-thread operation, but every "
                        "thread that reaches it issues one (32 per warp); "
                        "elect one thread, e.g. with elect.sync",
                        kindName(E.Op->Kind).str())));
      }
    }
  }
};

} // namespace

std::unique_ptr<Check> createSingleThreadOpByWarpCheck() {
  return std::make_unique<SingleThreadOpByWarpCheck>();
}

} // namespace tmemcheck
