//===- ValueRange.cpp - Bounds of abstract values -------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ValueRange.h"

#include <algorithm>
#include <limits>

namespace tmemcheck {

namespace {

/// Bounds this wide are no better than none, and keep the products below
/// from overflowing.
constexpr int64_t Limit = INT64_C(1) << 40;

bool bounded(const IntRange &R) {
  return R.Lo >= -Limit && R.Hi <= Limit && R.Lo <= R.Hi;
}

std::optional<IntRange> checked(IntRange R) {
  if (!bounded(R))
    return std::nullopt;
  return R;
}

constexpr int64_t FieldMax = 0xFFFF;

bool inField(const IntRange &R) { return R.Lo >= 0 && R.Hi <= FieldMax; }

} // namespace

std::optional<IntRange> integerRange(const AbstractValue &V) {
  if (V.Address != AddressKind::None)
    return std::nullopt;
  if (V.Constant)
    return checked({*V.Constant, *V.Constant});
  if (V.Range)
    return checked(*V.Range);
  if (!V.Choices.empty())
    return checked({V.Choices.front(), V.Choices.back()});
  if (V.PerThread && V.PerThreadExact && !V.PerThread->empty()) {
    auto [Lo, Hi] =
        std::minmax_element(V.PerThread->begin(), V.PerThread->end());
    return checked({*Lo, *Hi});
  }
  return std::nullopt;
}

std::optional<IntRange> lowHalfRange(const AbstractValue &V) {
  if (V.Address != AddressKind::None)
    return std::nullopt;
  if (V.Constant && *V.Constant >= 0)
    return IntRange{*V.Constant & FieldMax, *V.Constant & FieldMax};
  if (std::optional<IntRange> R = integerRange(V); R && inField(*R))
    return R;
  if (V.KnownLowHalf)
    return IntRange{*V.KnownLowHalf & FieldMax, *V.KnownLowHalf & FieldMax};
  if (V.LowHalfRange && inField(*V.LowHalfRange))
    return V.LowHalfRange;
  return std::nullopt;
}

std::optional<IntRange> columnRange(const AbstractValue &V) {
  if (!V.isTmemAddress())
    return std::nullopt;
  if (V.ColumnOffset)
    return IntRange{*V.ColumnOffset, *V.ColumnOffset};
  if (!V.ColumnChoices.empty())
    return IntRange{V.ColumnChoices.front(), V.ColumnChoices.back()};
  return V.ColumnRange;
}

void applyRangeArithmetic(RangeOp Op, const AbstractValue &L,
                          const AbstractValue &R, AbstractValue &Out) {
  if (Out.Constant || Out.Address != AddressKind::None)
    return;
  std::optional<IntRange> A = integerRange(L), B = integerRange(R);
  if (A && B) {
    std::optional<IntRange> Result;
    switch (Op) {
    case RangeOp::Add:
      Result = checked({A->Lo + B->Lo, A->Hi + B->Hi});
      break;
    case RangeOp::Sub:
      Result = checked({A->Lo - B->Hi, A->Hi - B->Lo});
      break;
    case RangeOp::Mul: {
      int64_t P[] = {A->Lo * B->Lo, A->Lo * B->Hi, A->Hi * B->Lo,
                     A->Hi * B->Hi};
      Result =
          checked({*std::min_element(P, P + 4), *std::max_element(P, P + 4)});
      break;
    }
    case RangeOp::Shl:
      if (A->Lo >= 0 && B->Lo == B->Hi && B->Lo >= 0 && B->Lo < 24)
        Result = checked({A->Lo << B->Lo, A->Hi << B->Lo});
      break;
    }
    if (Result) {
      Out.Range = Result;
      Out.LowHalfRange.reset();
      return;
    }
  }
  // A value of unknown lane field moved by a few columns: `data + i * 16`
  // with the data of a tensor partitioned by thread.
  if (Op != RangeOp::Add && Op != RangeOp::Sub)
    return;
  std::optional<IntRange> LH = lowHalfRange(L), RH = lowHalfRange(R);
  if (!LH || !RH)
    return;
  // Only the side without whole bounds may have an unknown lane field; the
  // other must be a small non-negative number (a column count).
  std::optional<IntRange> Small;
  if (Op == RangeOp::Add)
    Small = A ? A : B;
  else if (!A)
    Small = B; // `data - k`
  if (!Small || !inField(*Small))
    return;
  IntRange Sum = Op == RangeOp::Add
                     ? IntRange{LH->Lo + RH->Lo, LH->Hi + RH->Hi}
                     : IntRange{LH->Lo - RH->Hi, LH->Hi - RH->Lo};
  if (!inField(Sum))
    return;
  Out.LowHalfRange = Sum;
  // The tensor's span moves with its start.
  const AbstractValue &Start = A ? R : L;
  if (Start.ColumnSpanEnd) {
    Out.ColumnSpanEnd =
        *Start.ColumnSpanEnd + (Op == RangeOp::Add ? Small->Hi : -Small->Lo);
    Out.ColumnWindowByThread =
        Op == RangeOp::Add
            ? shiftWindows(Start.ColumnWindowByThread, Small->Lo, Small->Hi)
            : shiftWindows(Start.ColumnWindowByThread, -Small->Hi, -Small->Lo);
  }
}

void applyColumnRange(const AbstractValue &Base, const AbstractValue &Addend,
                      int Sign, AbstractValue &Out) {
  if (!Out.isTmemAddress() || Out.ColumnOffset || !Out.ColumnChoices.empty())
    return;
  std::optional<IntRange> C = columnRange(Base), A = integerRange(Addend);
  if (!C || !A || !inField(*A))
    return;
  IntRange Moved = Sign > 0 ? IntRange{C->Lo + A->Lo, C->Hi + A->Hi}
                            : IntRange{C->Lo - A->Hi, C->Hi - A->Lo};
  if (!inField(Moved))
    return;
  Out.ColumnRange = Moved;
  if (Base.ColumnSpanEnd) {
    Out.ColumnSpanEnd = *Base.ColumnSpanEnd + (Sign > 0 ? A->Hi : -A->Lo);
    Out.ColumnWindowByThread =
        Sign > 0 ? shiftWindows(Base.ColumnWindowByThread, A->Lo, A->Hi)
                 : shiftWindows(Base.ColumnWindowByThread, -A->Hi, -A->Lo);
  }
}

ColumnWindows shiftWindows(const ColumnWindows &Windows, int64_t Lo,
                           int64_t Hi) {
  if (!Windows)
    return nullptr;
  if (Lo == 0 && Hi == 0)
    return Windows;
  auto Out = std::make_shared<std::vector<IntRange>>(*Windows);
  for (IntRange &W : *Out) {
    W = IntRange{W.Lo + Lo, W.Hi + Hi};
    if (!inField(W))
      return nullptr;
  }
  return Out;
}

ColumnWindows widenWindows(const ColumnWindows &Windows, int64_t By) {
  if (!Windows || By < 0)
    return nullptr;
  if (By == 0)
    return Windows;
  auto Out = std::make_shared<std::vector<IntRange>>(*Windows);
  for (IntRange &W : *Out) {
    W.Hi += By;
    if (!inField(W))
      return nullptr;
  }
  return Out;
}

ColumnWindows windowsFromStart(const AbstractValue &Start, int64_t Extent) {
  if (!Start.PerThread || !Start.PerThreadExact || Start.PerThread->empty() ||
      Extent <= 0 || Start.Address != AddressKind::None)
    return nullptr;
  auto Out = std::make_shared<std::vector<IntRange>>();
  Out->reserve(Start.PerThread->size());
  for (int64_t X : *Start.PerThread) {
    if (X < 0 || X > INT64_C(0xFFFFFFFF))
      return nullptr;
    IntRange W{X & FieldMax, (X & FieldMax) + Extent - 1};
    if (!inField(W))
      return nullptr;
    Out->push_back(W);
  }
  return Out;
}

std::optional<IntRange> windowUnion(const std::vector<IntRange> &Windows,
                                    const std::vector<uint8_t> *Threads) {
  std::optional<IntRange> Out;
  for (size_t T = 0; T < Windows.size(); ++T) {
    if (Threads && (T >= Threads->size() || !(*Threads)[T]))
      continue;
    Out = Out ? IntRange{std::min(Out->Lo, Windows[T].Lo),
                         std::max(Out->Hi, Windows[T].Hi)}
              : Windows[T];
  }
  return Out;
}

} // namespace tmemcheck
