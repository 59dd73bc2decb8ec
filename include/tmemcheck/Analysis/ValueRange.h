//===- ValueRange.h - Bounds of abstract values -----------------*- C++ -*-===//
//
// Part of tmemcheck. Interval arithmetic on AbstractValue: a loop index of
// constant bounds, `i * 16`, a TMEM address somewhere in the columns a CuTe
// tensor spans. Both front ends keep such bounds where a value is not one
// constant or one of a few, so that the hand-off analysis can still tell
// two accesses' columns apart (Completion's mayOverlap).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_VALUERANGE_H
#define TMEMCHECK_ANALYSIS_VALUERANGE_H

#include "tmemcheck/Analysis/Value.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tmemcheck {

/// The arithmetic interval bounds are kept through.
enum class RangeOp { Add, Sub, Mul, Shl };

/// Bounds of \p V as an integer: its constant, its Range, its few Choices
/// or its exact per-thread values. std::nullopt when unbounded (and for
/// addresses).
std::optional<IntRange> integerRange(const AbstractValue &V);

/// Bounds of bits 15..0 of \p V (the column field of a TMEM address
/// written as an integer): from integerRange() when it lies in 0..0xFFFF,
/// else KnownLowHalf or LowHalfRange.
std::optional<IntRange> lowHalfRange(const AbstractValue &V);

/// Bounds of the column offset of the TMEM address \p V: its ColumnOffset,
/// its ColumnChoices or its ColumnRange.
std::optional<IntRange> columnRange(const AbstractValue &V);

/// Sets Range (or LowHalfRange) of \p Out, an integer \p L op \p R whose
/// constant is unknown, when the operands' bounds give one. Leaves \p Out
/// alone otherwise.
void applyRangeArithmetic(RangeOp Op, const AbstractValue &L,
                          const AbstractValue &R, AbstractValue &Out);

/// Sets ColumnRange of \p Out, the TMEM address \p Base moved by \p Addend
/// columns (Sign +1 or -1), when both are bounded and no field overflows.
/// Leaves \p Out alone otherwise.
void applyColumnRange(const AbstractValue &Base, const AbstractValue &Addend,
                      int Sign, AbstractValue &Out);

/// Per-thread column windows (AbstractValue::ColumnWindowByThread).
using ColumnWindows = std::shared_ptr<const std::vector<IntRange>>;

/// \p Windows with every thread's window moved to [Lo + \p Lo, Hi + \p
/// Hi]: the tensor's start moved by a number in [\p Lo, \p Hi]. Null when
/// \p Windows is, or a window would leave the column field.
ColumnWindows shiftWindows(const ColumnWindows &Windows, int64_t Lo,
                           int64_t Hi);

/// \p Windows with every thread's window extended \p By columns past its
/// end: a tensor that starts inside the window and spans By + 1 columns.
/// Null when \p Windows is, \p By is negative, or a window would leave the
/// column field.
ColumnWindows widenWindows(const ColumnWindows &Windows, int64_t By);

/// The windows of a tensor whose start is \p Start in each thread (exact
/// per-thread values of the column field) and that spans \p Extent
/// columns. Null when \p Start is not known thread by thread.
ColumnWindows windowsFromStart(const AbstractValue &Start, int64_t Extent);

/// The union of \p Windows over the threads of \p Threads (by linear
/// thread id; every thread when null). std::nullopt when no thread is in
/// both.
std::optional<IntRange> windowUnion(const std::vector<IntRange> &Windows,
                                    const std::vector<uint8_t> *Threads);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_VALUERANGE_H
