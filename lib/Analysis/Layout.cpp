//===- Layout.cpp - TMEM regions, roles and stages ------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/Layout.h"

#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace tmemcheck {

namespace {

const OperandValue *operandAt(const Event &E, int I) {
  if (I < 0 || static_cast<size_t>(I) >= E.Operands.size())
    return nullptr;
  return &E.Operands[I];
}

/// The ranges of operand \p I with width \p Width: exact, or one per column
/// choice.
std::vector<TmemRange> rangesOfOperand(const Event &E, int I,
                                       std::optional<int64_t> Width) {
  const OperandValue *O = operandAt(E, I);
  if (!O || !Width || *Width <= 0 || !O->Value.isTmemAddress() ||
      !O->Value.Slot)
    return {};
  TmemRange R;
  R.Slot = O->Value.Slot;
  R.Width = Width;
  std::vector<TmemRange> Out;
  if (O->Value.ColumnOffset) {
    R.Column = *O->Value.ColumnOffset + O->AddressOffset;
    Out.push_back(R);
    return Out;
  }
  for (int64_t C : O->Value.ColumnChoices) {
    R.Column = C + O->AddressOffset;
    Out.push_back(R);
  }
  return Out;
}

std::optional<MmaShape> constantMmaShape(const Event &E) {
  const TmemOp &Op = *E.Op;
  const OperandValue *Idesc = operandAt(E, Op.IdescOperand);
  if (!Op.Mma || !Idesc || !Idesc->Value.Constant)
    return std::nullopt;
  return decodeInstructionDescriptor(
      *Op.Mma, static_cast<uint32_t>(*Idesc->Value.Constant));
}

bool isMma(const Event &E) {
  return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Mma;
}

} // namespace

llvm::StringRef roleName(TmemRole R) {
  switch (R) {
  case TmemRole::Accumulator:
    return "accumulator";
  case TmemRole::ScaleFactorA:
    return "scale-factor-a";
  case TmemRole::ScaleFactorB:
    return "scale-factor-b";
  case TmemRole::AOperand:
    return "a-operand";
  case TmemRole::Staging:
    return "staging";
  case TmemRole::Copy:
    return "copy";
  case TmemRole::Store:
    return "store";
  case TmemRole::Load:
    return "load";
  case TmemRole::Shift:
    return "shift";
  }
  return "other";
}

std::vector<TmemRange> possibleAccessRanges(const Event &E) {
  std::optional<TmemRange> R = accessRange(E);
  if (!R || !R->Width || *R->Width <= 0)
    return {};
  if (R->Column)
    return {*R};
  return rangesOfOperand(E, E.Op->TmemAddrOperand, R->Width);
}

std::vector<TmemRange> scaleFactorRanges(const Event &E, bool OfB) {
  if (!isMma(E) || !E.Op->BlockScale)
    return {};
  std::optional<MmaShape> Shape = constantMmaShape(E);
  if (!Shape)
    return {};
  unsigned Rows = OfB ? Shape->N : Shape->M;
  return rangesOfOperand(E, OfB ? E.Op->SfbOperand : E.Op->SfaOperand,
                         std::max<int64_t>(1, Rows / 32));
}

std::vector<TmemRange> aOperandRanges(const Event &E) {
  if (!isMma(E) || !E.Op->ATmem)
    return {};
  // 256 bits of K per row per instruction: 8 columns, half for sparse A.
  return rangesOfOperand(E, E.Op->ADescOrTmemOperand,
                         std::optional<int64_t>(E.Op->Sparse ? 4 : 8));
}

bool overlaps(const TmemRange &A, const TmemRange &B) {
  return A.Slot == B.Slot && A.Column && B.Column && A.Width && B.Width &&
         *A.Column < *B.Column + *B.Width && *B.Column < *A.Column + *A.Width;
}

bool RoleUse::writes() const {
  switch (Site->Op->Kind) {
  case TmemOpKind::Mma:
    return Role == TmemRole::Accumulator;
  case TmemOpKind::Load:
    return false;
  default:
    return true;
  }
}

TmemLayout::TmemLayout(const KernelGraph &G) {
  auto Add = [&](TmemRole Role, const Event &E,
                 const std::vector<TmemRange> &Ranges) {
    for (size_t I = 0; I < Ranges.size(); ++I) {
      RoleUse U{Role, Ranges[I], &E, std::nullopt, 1};
      if (Ranges.size() > 1) {
        U.Stage = I;
        U.StageCount = Ranges.size();
      }
      Uses.push_back(U);
    }
  };
  // First what mmas say about columns: D, scale factors, A.
  std::vector<const Event *> Others;
  G.forEachEvent([&](const Event &E) {
    if (E.K != Event::Kind::Tmem || !E.Op)
      return;
    switch (E.Op->Kind) {
    case TmemOpKind::Mma:
      Add(TmemRole::Accumulator, E, possibleAccessRanges(E));
      Add(TmemRole::ScaleFactorA, E, scaleFactorRanges(E, false));
      Add(TmemRole::ScaleFactorB, E, scaleFactorRanges(E, true));
      Add(TmemRole::AOperand, E, aOperandRanges(E));
      break;
    case TmemOpKind::Load:
    case TmemOpKind::Store:
    case TmemOpKind::Copy:
    case TmemOpKind::Shift:
      Others.push_back(&E);
      break;
    default:
      break;
    }
  });
  const size_t MmaUses = Uses.size();
  auto OverlapsRole = [&](const TmemRange &R, TmemRole Role) {
    for (size_t I = 0; I < MmaUses; ++I)
      if (Uses[I].Role == Role && overlaps(Uses[I].Range, R))
        return true;
    return false;
  };
  // Stores some ld reads back are staging.
  std::vector<TmemRange> LoadRanges;
  for (const Event *E : Others)
    if (E->Op->Kind == TmemOpKind::Load)
      for (const TmemRange &R : possibleAccessRanges(*E))
        LoadRanges.push_back(R);
  // Then the copies, stores, loads and shifts, named by the mma roles their
  // columns have.
  for (const Event *E : Others) {
    std::vector<TmemRange> Ranges = possibleAccessRanges(*E);
    if (Ranges.empty()) {
      if (std::optional<TmemRange> R = accessRange(*E))
        Unknown[R->Slot].push_back(E);
      continue;
    }
    TmemRole Role = TmemRole::Load;
    const TmemRange &R = Ranges.front();
    switch (E->Op->Kind) {
    case TmemOpKind::Copy:
      Role = OverlapsRole(R, TmemRole::ScaleFactorA)   ? TmemRole::ScaleFactorA
             : OverlapsRole(R, TmemRole::ScaleFactorB) ? TmemRole::ScaleFactorB
             : OverlapsRole(R, TmemRole::AOperand)     ? TmemRole::AOperand
                                                       : TmemRole::Copy;
      break;
    case TmemOpKind::Store:
      Role = OverlapsRole(R, TmemRole::AOperand) ? TmemRole::AOperand
             : std::any_of(LoadRanges.begin(), LoadRanges.end(),
                           [&](const TmemRange &L) { return overlaps(L, R); })
                 ? TmemRole::Staging
                 : TmemRole::Store;
      break;
    case TmemOpKind::Shift:
      Role = TmemRole::Shift;
      break;
    default:
      // A load reads an accumulator or staging columns: it adds no role.
      if (OverlapsRole(R, TmemRole::Accumulator))
        continue;
      Role = TmemRole::Load;
      break;
    }
    Add(Role, *E, Ranges);
  }
  // Loads of staging columns add no role either.
  std::vector<TmemRange> Staging;
  for (const RoleUse &U : Uses)
    if (U.Role == TmemRole::Staging)
      Staging.push_back(U.Range);
  llvm::erase_if(Uses, [&](const RoleUse &U) {
    return U.Role == TmemRole::Load &&
           llvm::any_of(Staging, [&](const TmemRange &S) {
             return overlaps(S, U.Range);
           });
  });
  // Accesses of mmas with an unknown D or scale-factor column count too.
  G.forEachEvent([&](const Event &E) {
    if (!isMma(E))
      return;
    if (possibleAccessRanges(E).empty())
      if (std::optional<TmemRange> R = accessRange(E))
        Unknown[R->Slot].push_back(&E);
  });
}

llvm::ArrayRef<const Event *> TmemLayout::unknownAccesses(uint64_t Slot) const {
  auto It = Unknown.find(Slot);
  if (It == Unknown.end())
    return {};
  return It->second;
}

} // namespace tmemcheck
