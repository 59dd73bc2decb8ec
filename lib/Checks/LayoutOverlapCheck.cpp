//===- LayoutOverlapCheck.cpp - tmem-layout-overlap -----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/Layout.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

#include <set>
#include <tuple>

namespace tmemcheck {

namespace {

std::string columns(const TmemRange &R) {
  return fmt::format("{}..{}", *R.Column, *R.Column + *R.Width - 1);
}

std::string stageSuffix(const RoleUse &U) {
  return U.Stage ? fmt::format(" (stage {} of {})", *U.Stage, U.StageCount)
                 : std::string();
}

const char *operandName(TmemRole R) {
  switch (R) {
  case TmemRole::ScaleFactorA:
    return "the scale factors of A";
  case TmemRole::ScaleFactorB:
    return "the scale factors of B";
  default:
    return "the A operand";
  }
}

/// Flags TMEM columns an mma accumulates into that are also read as the
/// inputs of a block-scaled or A-from-TMEM mma (rule S7, §3.4, §6):
///  - the scale factors `[sfa]`/`[sfb]` (MN/32 columns each, rule S4) of
///    any mma, or the tcgen05.cp that fills them, against the accumulator
///    of any mma, every accumulator stage included: scale factors are live
///    through the whole mainloop, so the MMA either overwrites them or the
///    epilogue reads them as results;
///  - the A operand read from TMEM against the same mma's own D.
/// Accumulator stages overlapping each other are not flagged: that is
/// CUTLASS's deliberate, barrier-ordered reuse (rules §5.4), and neither is
/// an A operand laid over another mma's accumulator (P written over S in
/// attention kernels, ordered by their pipeline). Only constant column
/// ranges are judged; a stage index that is `tile % 2`-like counts as each
/// of its values.
class LayoutOverlapCheck : public Check {
public:
  LayoutOverlapCheck() : Check("tmem-layout-overlap", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    TmemLayout Layout(G);
    const std::vector<RoleUse> &Uses = Layout.uses();
    auto FirstAccumulatorOver = [&](const RoleUse &Y) -> const RoleUse * {
      for (const RoleUse &X : Uses)
        if (X.Role == TmemRole::Accumulator && overlaps(X.Range, Y.Range) &&
            (Y.Role != TmemRole::AOperand || X.Site == Y.Site))
          return &X;
      return nullptr;
    };
    auto IsMmaInput = [](const RoleUse &U) {
      return U.Site->Op->Kind == TmemOpKind::Mma &&
             (U.Role == TmemRole::ScaleFactorA ||
              U.Role == TmemRole::ScaleFactorB || U.Role == TmemRole::AOperand);
    };
    // One overlap is reported once: at the first mma reading the operand
    // columns, whichever stage overlaps (the k-loop's other mmas read the
    // same columns).
    std::set<std::pair<const Event *, TmemRole>> Reported;
    std::set<std::tuple<TmemRole, uint64_t, int64_t, int64_t>> ReportedRanges;
    for (const RoleUse &Y : Uses) {
      if (!IsMmaInput(Y) || Reported.count({Y.Site, Y.Role}))
        continue;
      const RoleUse *X = FirstAccumulatorOver(Y);
      if (!X)
        continue;
      Reported.insert({Y.Site, Y.Role});
      if (!ReportedRanges
               .insert({Y.Role, Y.Range.Slot, *Y.Range.Column, *Y.Range.Width})
               .second)
        continue;
      const Event &Mma = *Y.Site;
      const char *Verb = Y.Role == TmemRole::AOperand ? "overlaps" : "overlap";
      Finding F = makeKernelLevelFinding(
          G, Mma,
          fmt::format("{} (columns {}) {} the accumulator columns {}{} that "
                      "a tcgen05.mma writes (rule S7)",
                      operandName(Y.Role), columns(Y.Range), Verb,
                      columns(X->Range), stageSuffix(*X)));
      F.Notes.push_back(
          {X->Site == &Mma ? F.Loc : locationSeenFrom(*X->Site, Mma),
           X->Site == &Mma ? "this mma's own accumulator"
                           : "the mma accumulating there"});
      // Where the overlapping operand columns are filled.
      for (const RoleUse &Fill : Uses)
        if (Fill.Role == Y.Role && Fill.Site->Op->Kind != TmemOpKind::Mma &&
            overlaps(Fill.Range, Y.Range)) {
          F.Notes.push_back(
              {locationSeenFrom(*Fill.Site, Mma),
               fmt::format("{} are written into columns {} here",
                           Y.Role == TmemRole::AOperand ? "A operand columns"
                                                        : "scale factors",
                           columns(Fill.Range))});
          // The code flow, in program order: the alloc, the operand's
          // writer, the accumulator's, the mma that reads the operand.
          addEventFlowStep(F, *Fill.Site, Mma, F.Notes.back().Message);
          break;
        }
      addAllocFlowStep(Ctx.lifecycle(), Mma, Mma, F);
      if (X->Site != &Mma)
        addEventFlowStep(F, *X->Site, Mma,
                         fmt::format("a tcgen05.mma accumulates into "
                                     "columns {}",
                                     columns(X->Range)));
      Out.report(std::move(F));
    }
    // A tcgen05.cp of scale factors that spills into accumulator columns
    // the mma operands themselves do not reach.
    for (const RoleUse &Y : Uses) {
      if (Y.Site->Op->Kind != TmemOpKind::Copy ||
          (Y.Role != TmemRole::ScaleFactorA &&
           Y.Role != TmemRole::ScaleFactorB) ||
          Reported.count({Y.Site, Y.Role}))
        continue;
      const RoleUse *X = FirstAccumulatorOver(Y);
      if (!X || llvm::any_of(ReportedRanges, [&](const auto &R) {
            TmemRange Read;
            Read.Slot = std::get<1>(R);
            Read.Column = std::get<2>(R);
            Read.Width = std::get<3>(R);
            return overlaps(Read, Y.Range);
          }))
        continue;
      Reported.insert({Y.Site, Y.Role});
      Finding F = makeKernelLevelFinding(
          G, *Y.Site,
          fmt::format("tcgen05.cp writes {} into columns {}, which overlap "
                      "the accumulator columns {}{} that a tcgen05.mma "
                      "writes (rule S7)",
                      operandName(Y.Role) + 4, columns(Y.Range),
                      columns(X->Range), stageSuffix(*X)));
      F.Notes.push_back(
          {locationSeenFrom(*X->Site, *Y.Site), "the mma accumulating there"});
      // The code flow, in program order: the alloc, the cp (the finding)
      // and the mma's accumulation.
      addAllocFlowStep(Ctx.lifecycle(), *Y.Site, *Y.Site, F);
      addEventFlowStep(F, *X->Site, *Y.Site,
                       fmt::format("a tcgen05.mma accumulates into columns {}",
                                   columns(X->Range)));
      Out.report(std::move(F));
    }
  }
};

} // namespace

std::unique_ptr<Check> createLayoutOverlapCheck() {
  return std::make_unique<LayoutOverlapCheck>();
}

} // namespace tmemcheck
