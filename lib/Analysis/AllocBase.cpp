//===- AllocBase.cpp - TMEM addresses known from the allocation base ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/AllocBase.h"
#include "tmemcheck/Analysis/ValueRange.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <vector>

namespace tmemcheck {

namespace {

/// TMEM has 512 columns: an allocation of all of them starts at column 0.
constexpr int64_t FullWidth = 512;

const AbstractValue *operandAt(const Event &E, int Index) {
  if (Index < 0 || size_t(Index) >= E.Operands.size())
    return nullptr;
  return &E.Operands[Index].Value;
}

bool isTmem(const Event &E, TmemOpKind K) {
  return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == K;
}

} // namespace

/// At most this many distinct columns per-thread addresses may name.
constexpr size_t MaxRoleColumns = 8;

void resolveConstantAddressesFromAllocBase(KernelGraph &G) {
  // The one slot every alloc writes, when every alloc takes 512 columns.
  std::optional<AbstractValue> SlotOf;
  bool Provable = true, AnyAlloc = false;
  G.forEachEvent([&](const Event &E) {
    if (!Provable || !isTmem(E, TmemOpKind::Alloc))
      return;
    AnyAlloc = true;
    const AbstractValue *Slot = operandAt(E, E.Op->SlotOperand);
    const AbstractValue *Cols = operandAt(E, E.Op->NColsOperand);
    if (!Slot || !Slot->isSlotAddress() || !Slot->Slot || !Cols ||
        Cols->Constant != FullWidth || (SlotOf && SlotOf->Slot != Slot->Slot)) {
      Provable = false;
      return;
    }
    SlotOf = *Slot;
  });
  if (!Provable || !AnyAlloc || !SlotOf)
    return;
  // Accesses: a constant, one of a few constants (a stage-indexed address),
  // or a per-thread value whose column field is the same in every thread
  // (only the lane field varies).
  auto Resolve = [&](OperandValue &O) {
    AbstractValue &V = O.Value;
    if (V.Address != AddressKind::None)
      return;
    std::optional<int64_t> Column, Lane;
    std::vector<int64_t> Columns; // one of these (a stage-indexed address)
    bool Known = false;
    if (V.Constant && *V.Constant >= 0 && *V.Constant <= INT64_C(0xFFFFFFFF)) {
      int64_t C = *V.Constant + O.AddressOffset;
      Column = C & 0xFFFF;
      Lane = C >> 16;
      Known = true;
    } else if (V.KnownLowHalf) {
      // The lane field varies (a lane quarter per warp), the column field
      // does not.
      Column = (*V.KnownLowHalf + O.AddressOffset) & 0xFFFF;
      Known = true;
    } else if (V.PerThread && V.PerThreadExact && !V.PerThread->empty()) {
      // Known thread by thread: one column, or one per role (a softmax
      // warpgroup's S0 or S1, `selp(0, 128, wg == 0) | lane_quarter`),
      // which PerThread keeps apart for the analyses.
      for (int64_t X : *V.PerThread)
        Columns.push_back(tmemColumnField(X + O.AddressOffset));
      Columns = normalizeChoices(std::move(Columns), MaxRoleColumns);
      if (Columns.size() == 1)
        Column = Columns.front();
      Known = true;
    } else if (!V.Choices.empty() && llvm::all_of(V.Choices, [](int64_t C) {
                 return C >= 0 && C <= INT64_C(0xFFFFFFFF);
               })) {
      // `base + (stage << 7)` with a stage of a few values.
      for (int64_t C : V.Choices)
        Columns.push_back(tmemColumnField(C + O.AddressOffset));
      Columns = normalizeChoices(std::move(Columns), V.Choices.size());
      if (Columns.size() == 1)
        Column = Columns.front();
      Known = true;
    }
    // Somewhere in a few columns (a CuTe TMEM tensor partitioned by
    // thread, whose lane field is unknown).
    std::optional<IntRange> Bounds;
    if (!Known)
      if (std::optional<IntRange> Low = lowHalfRange(V);
          Low && O.AddressOffset >= 0 && Low->Hi + O.AddressOffset <= 0xFFFF) {
        Bounds = IntRange{Low->Lo + O.AddressOffset, Low->Hi + O.AddressOffset};
        if (Bounds->Lo == Bounds->Hi)
          Column = Bounds->Lo, Bounds.reset();
        Known = true;
      }
    if (!Known || (!Column && Columns.size() < 2 && !Bounds))
      return;
    V.Address = AddressKind::TmemAddress;
    V.Slot = SlotOf->Slot;
    V.SlotArray = 0;
    V.SlotName = SlotOf->SlotName;
    V.LaneOffset = Lane;
    V.ColumnOffset = Column;
    if (!Column && !Bounds)
      V.ColumnChoices = std::move(Columns);
    V.ColumnRange = Bounds;
    if ((Bounds || Column) && V.ColumnSpanEnd) {
      *V.ColumnSpanEnd += O.AddressOffset;
      V.ColumnWindowByThread = shiftWindows(V.ColumnWindowByThread,
                                            O.AddressOffset, O.AddressOffset);
    } else {
      V.ColumnSpanEnd.reset();
      V.ColumnWindowByThread.reset();
    }
    V.Constant.reset();
    V.Choices.clear();
    V.Range.reset();
    V.LowHalfRange.reset();
    O.AddressOffset = 0;
  };
  for (Block &B : G.Blocks)
    for (Event &E : B.Events) {
      if (E.K == Event::Kind::Tmem && E.Op &&
          (E.Op->Kind == TmemOpKind::Load || E.Op->Kind == TmemOpKind::Store ||
           E.Op->Kind == TmemOpKind::Copy || E.Op->Kind == TmemOpKind::Shift ||
           E.Op->Kind == TmemOpKind::Mma)) {
        std::vector<int> Addresses = {E.Op->TmemAddrOperand};
        // An mma's TMEM inputs: A (`[a_tmem]`), scale factors, metadata.
        if (E.Op->Kind == TmemOpKind::Mma) {
          if (E.Op->ATmem)
            Addresses.push_back(E.Op->ADescOrTmemOperand);
          Addresses.insert(Addresses.end(), {E.Op->SfaOperand, E.Op->SfbOperand,
                                             E.Op->SparseMetaOperand});
        }
        for (int Index : Addresses)
          if (Index >= 0 && size_t(Index) < E.Operands.size())
            Resolve(E.Operands[Index]);
        continue;
      }
      if (!isTmem(E, TmemOpKind::Dealloc))
        continue;
      int Index = E.Op->TmemAddrOperand;
      if (Index < 0 || size_t(Index) >= E.Operands.size())
        continue;
      AbstractValue &V = E.Operands[Index].Value;
      if (!V.Constant || V.Address != AddressKind::None || V.Constant < 0 ||
          *V.Constant > INT64_C(0xFFFFFFFF))
        continue;
      int64_t C = *V.Constant + E.Operands[Index].AddressOffset;
      V.Address = AddressKind::TmemAddress;
      V.Slot = SlotOf->Slot;
      V.SlotArray = 0;
      V.SlotName = SlotOf->SlotName;
      V.LaneOffset = C >> 16;
      V.ColumnOffset = C & 0xFFFF;
      V.Constant.reset();
      E.Operands[Index].AddressOffset = 0;
    }
}

} // namespace tmemcheck
