//===- LaneQuarterCheck.cpp - tmem-lane-quarter ---------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a tcgen05.ld / tcgen05.st whose lanes lie outside the quarter of
/// TMEM its warp may access: warp w reaches lanes 32*(w%4) .. 32*(w%4)+31
/// only (rule M6). It fires only when both are known: the lane offset is a
/// constant and comparisons of `threadIdx.x / 32` with constants pin the
/// block to one warp. `(warp_idx % 4) * 32 << 16` is not a constant, so the
/// usual warpgroup epilogue is never judged.
class LaneQuarterCheck : public Check {
public:
  LaneQuarterCheck() : Check("tmem-lane-quarter", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    for (unsigned B = 0; B < G.Blocks.size(); ++B)
      for (const Event &E : G.Blocks[B].Events) {
        if (E.K != Event::Kind::Tmem || !E.Op ||
            (E.Op->Kind != TmemOpKind::Load &&
             E.Op->Kind != TmemOpKind::Store) ||
            !E.Op->Access.Lanes)
          continue;
        const AbstractValue *V = tmemAddressOperand(E);
        if (!V || !V->isTmemAddress() || !V->LaneOffset || *V->LaneOffset < 0)
          continue;
        auto Warps = Ctx.threads().warpRange(B);
        if (!Warps || Warps->first != Warps->second || Warps->first < 0)
          continue;
        int64_t Warp = Warps->first, Quarter = Warp % 4;
        int64_t First = *V->LaneOffset, Last = First + E.Op->Access.Lanes - 1;
        if (First >= 32 * Quarter && Last <= 32 * Quarter + 31)
          continue;
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.{} of warp {} touches lanes {}..{}, but a "
                        "warp may only access the lanes of its quarter, "
                        "{}..{} for warp {} (rule M6)",
                        kindName(E.Op->Kind).str(), Warp, First, Last,
                        32 * Quarter, 32 * Quarter + 31, Warp));
        Out.report(std::move(F));
      }
  }
};

} // namespace

std::unique_ptr<Check> createLaneQuarterCheck() {
  return std::make_unique<LaneQuarterCheck>();
}

} // namespace tmemcheck
