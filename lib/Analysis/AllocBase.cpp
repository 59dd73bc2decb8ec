//===- AllocBase.cpp - TMEM addresses known from the allocation base ------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/AllocBase.h"

#include <optional>

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
  for (Block &B : G.Blocks)
    for (Event &E : B.Events) {
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
