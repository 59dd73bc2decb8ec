//===- LayoutOverlapCheck.cpp - tmem-layout-overlap -----------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Model/Footprint.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags a block-scaled mma whose scale-factor columns (`[sfa]`, `[sfb]`:
/// MN/32 columns each, rules S4) overlap the columns some mma of the kernel
/// accumulates into (rule S7, §3.4). Within one instruction the mma would
/// overwrite inputs it still reads; across accumulator stages the epilogue
/// reads scale factors as results, or the MMA reads a stage as scale
/// factors. Accumulator stages overlapping each other are not flagged: that
/// is CUTLASS's deliberate, barrier-ordered reuse (rules §5.4). Only ranges
/// that are all constants are judged.
class LayoutOverlapCheck : public Check {
public:
  LayoutOverlapCheck() : Check("tmem-layout-overlap", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    std::vector<std::pair<TmemRange, const Event *>> Accumulators;
    G.forEachEvent([&](const Event &E) {
      if (E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Mma)
        if (auto R = accessRange(E); R && R->Column && R->Width)
          Accumulators.push_back({*R, &E});
    });
    G.forEachEvent([&](const Event &E) {
      if (E.K != Event::Kind::Tmem || !E.Op ||
          E.Op->Kind != TmemOpKind::Mma || !E.Op->BlockScale || !E.Op->Mma)
        return;
      const AbstractValue *Idesc =
          E.Op->IdescOperand >= 0 &&
                  static_cast<size_t>(E.Op->IdescOperand) < E.Operands.size()
              ? &E.Operands[E.Op->IdescOperand].Value
              : nullptr;
      if (!Idesc || !Idesc->Constant)
        return;
      std::optional<MmaShape> Shape = decodeInstructionDescriptor(
          *E.Op->Mma, static_cast<uint32_t>(*Idesc->Constant));
      if (!Shape)
        return;
      struct SfOperand {
        int Index;
        const char *Name;
        unsigned Rows;
      };
      for (SfOperand SF : {SfOperand{E.Op->SfaOperand, "scale factors of A",
                                     Shape->M},
                           SfOperand{E.Op->SfbOperand, "scale factors of B",
                                     Shape->N}}) {
        if (SF.Index < 0 || static_cast<size_t>(SF.Index) >= E.Operands.size())
          continue;
        const AbstractValue &V = E.Operands[SF.Index].Value;
        if (!V.isTmemAddress() || !V.ColumnOffset)
          continue;
        TmemRange Sf;
        Sf.Slot = V.Slot;
        Sf.Column = *V.ColumnOffset + E.Operands[SF.Index].AddressOffset;
        Sf.Width = std::max<int64_t>(1, SF.Rows / 32);
        for (const auto &[Acc, Mma] : Accumulators) {
          if (!mayOverlap(Acc, Sf))
            continue;
          Finding F = makeKernelLevelFinding(
              G, E,
              fmt::format("the {} (columns {}..{}) overlap the accumulator "
                          "columns {}..{} that a tcgen05.mma writes (rule "
                          "S7)",
                          SF.Name, *Sf.Column, *Sf.Column + *Sf.Width - 1,
                          *Acc.Column, *Acc.Column + *Acc.Width - 1));
          F.Notes.push_back({Mma == &E ? F.Loc : locationSeenFrom(*Mma, E),
                             Mma == &E ? "this mma's own accumulator"
                                       : "the mma accumulating there"});
          Out.report(std::move(F));
          break;
        }
      }
    });
  }
};

} // namespace

std::unique_ptr<Check> createLayoutOverlapCheck() {
  return std::make_unique<LayoutOverlapCheck>();
}

} // namespace tmemcheck
