//===- Layout.h - TMEM regions, roles and stages ----------------*- C++ -*-===//
//
// Part of tmemcheck. What each known-column access of a kernel does to TMEM
// (rules §3, §6): the accumulator columns mma D writes, per accumulator
// stage when the D column is one of a few constants; the scale-factor
// columns block-scaled mmas read as [sfa]/[sfb] and the tcgen05.cp that fill
// them; A operands read from TMEM; staging columns a st writes and an ld
// reads back. The resource report draws it, tmem-layout-overlap judges it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_LAYOUT_H
#define TMEMCHECK_ANALYSIS_LAYOUT_H

#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tmemcheck {

/// What a column range is used for, inferred from the instructions that
/// touch it (issue "region roles").
enum class TmemRole {
  Accumulator,  ///< mma D
  ScaleFactorA, ///< read as [sfa] by a block-scaled mma, or cp'd there
  ScaleFactorB, ///< read as [sfb], or cp'd there
  AOperand,     ///< read as the A operand of an mma, or cp/st'd there
  Staging,      ///< st'd and read back with ld
  Copy,         ///< other tcgen05.cp destinations
  Store,        ///< other tcgen05.st destinations
  Load,         ///< tcgen05.ld of columns no other role explains
  Shift,        ///< tcgen05.shift
};

llvm::StringRef roleName(TmemRole R);

/// Every range an event's TMEM address operand may have: the exact range,
/// or one per stage when the column is one of a few constants
/// (AbstractValue::ColumnChoices). Empty if the operand is not a TMEM
/// address of a known region or its width is unknown.
std::vector<TmemRange> possibleAccessRanges(const Event &E);

/// The columns a block-scaled mma reads as scale factors of A (\p OfB
/// false) or B: MN/32 columns (rules S4) from a constant instruction
/// descriptor. Empty when unknown.
std::vector<TmemRange> scaleFactorRanges(const Event &E, bool OfB);

/// The columns an mma reads as its A operand from TMEM (rules §3.4).
std::vector<TmemRange> aOperandRanges(const Event &E);

/// One access's use of a known column range.
struct RoleUse {
  TmemRole Role;
  TmemRange Range; ///< Column and Width known
  const Event *Site = nullptr;
  /// Which of the access's possible ranges this is (accumulator stage
  /// index), when it has more than one.
  std::optional<unsigned> Stage;
  unsigned StageCount = 1;
  bool writes() const;
};

/// The roles of every known-column TMEM access of one kernel.
class TmemLayout {
public:
  explicit TmemLayout(const KernelGraph &G);

  const std::vector<RoleUse> &uses() const { return Uses; }
  /// Accesses into the region of \p Slot whose columns are not known.
  llvm::ArrayRef<const Event *> unknownAccesses(uint64_t Slot) const;

private:
  std::vector<RoleUse> Uses;
  std::map<uint64_t, std::vector<const Event *>> Unknown;
};

/// True when two known ranges share a column of the same region.
bool overlaps(const TmemRange &A, const TmemRange &B);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_LAYOUT_H
