//===- Value.h - Abstract operand values ------------------------*- C++ -*-===//
//
// Part of tmemcheck. What the front end could learn about the value of an
// instruction operand: a constant, or unknown with a uniformity class
// (design.md "Semantics" §3).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_VALUE_H
#define TMEMCHECK_ANALYSIS_VALUE_H

#include "tmemcheck/Analysis/StageTerm.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// Inclusive bounds of an integer.
struct IntRange {
  int64_t Lo = 0;
  int64_t Hi = 0;
  bool operator==(const IntRange &O) const { return Lo == O.Lo && Hi == O.Hi; }
};

/// How a value varies across the threads of a CTA. Ordered from most to
/// least uniform; joining two values takes the larger.
enum class Uniformity : uint8_t {
  CtaUniform,    ///< same in every thread of the CTA (params, blockIdx).
  WarpUniform,   ///< same in every lane of a warp (warp index).
  Unknown,       ///< nothing known (opaque calls, memory): never a finding.
  ThreadVariant, ///< differs between lanes (threadIdx, lane id, elect).
};

inline Uniformity join(Uniformity A, Uniformity B) { return A < B ? B : A; }

/// What a value says about memory: the shared-memory address of a slot
/// (`&slot`, `__cvta_generic_to_shared(&slot)`), or a TMEM address read back
/// from a slot that tcgen05.alloc writes (design.md "Semantics" §4).
enum class AddressKind : uint8_t { None, SlotAddress, TmemAddress };

/// The abstract value of one operand.
struct AbstractValue {
  std::optional<int64_t> Constant;
  Uniformity Uniform = Uniformity::ThreadVariant;
  /// The operand as written in the source (for messages), e.g. "kCols".
  std::string Spelling;
  /// A stable identity of the variable this value was read from when the
  /// operand is a plain variable (used to match ld destinations to reads);
  /// 0 when none.
  uint64_t VariableId = 0;
  std::string VariableName;
  /// When VariableId names an array and the operand is one element of it
  /// (`regs[3]`): that element's constant index. std::nullopt for the whole
  /// variable or an index that is not a constant.
  std::optional<int64_t> VariableElement;

  /// The value is the warp index in a 1-D block: `threadIdx.x / 32` or
  /// `threadIdx.x >> 5` (the quarter of TMEM lanes a warp may access is
  /// this value modulo 4, rules M6).
  bool IsWarpIndex = false;
  /// The value is `threadIdx.x` itself, read directly or through a local
  /// that holds it (`const int tid = threadIdx.x;`).
  bool IsThreadIndexX = false;
  /// When Constant is unknown: a number greater than 1 the value is known
  /// to be a multiple of (`n * 32`, `k << 6`), used to see that
  /// `threadIdx.x < n * 32` selects whole warps.
  std::optional<int64_t> KnownFactor;
  /// When Constant is unknown: bits 15..0 of the value, when they are the
  /// same in every thread although the rest is not (`((tid << 16) &
  /// 0x600000) | 96`, column 96 of the warp's lane quarter). A TMEM address
  /// is a lane field over a column field, so these are its column.
  std::optional<int64_t> KnownLowHalf;
  /// When Constant is unknown: bounds of the value (a loop index of
  /// constant bounds, `i * 16` with it).
  std::optional<IntRange> Range;
  /// When neither Constant nor Range is known: bounds of bits 15..0 in
  /// every thread, the rest unknown (the data pointer of a CuTe TMEM
  /// tensor partitioned by thread: some lane of the warp's quarter, one of
  /// the columns the parent tensor spans).
  std::optional<IntRange> LowHalfRange;

  /// The value in each thread of a 1-D block, by threadIdx.x (0..1023),
  /// relative to a warp-uniform base: thread t holds base(t / 32) +
  /// (*PerThread)[t], modulo the width of its type. The base is 0 when
  /// PerThreadExact (the value is a function of threadIdx.x and constants
  /// alone). Null when not known so; warp-uniform values need none.
  std::shared_ptr<const std::vector<int64_t>> PerThread;
  bool PerThreadExact = false;
  /// TMEM addresses: the base of PerThread is the start of the allocation,
  /// the same word in every thread (read from one slot), so PerThread is
  /// each thread's offset from the allocation (`taddr + selp(0, 128, wg0)
  /// | (tid << 16)`), as ColumnOffset is.
  bool PerThreadFromAllocation = false;
  /// The value provably differs between two lanes of some warp: it is, up
  /// to a warp-uniform base, a function of the lane that is not constant
  /// within a warp (`threadIdx.x`, `lane_id`, `taddr + (threadIdx.x <<
  /// 16)`). Never set for opaque values (calls, memory). A warp-collective
  /// instruction given such an operand is UB (rules §2, §10 #16).
  bool LaneVariant = false;

  AddressKind Address = AddressKind::None;
  /// Identity of the shared-memory slot (a __shared__ variable, array
  /// element or struct field) for SlotAddress and TmemAddress; 0 if none.
  uint64_t Slot = 0;
  std::string SlotName;
  /// SlotAddress: the array the slot is an element of (the slot itself when
  /// it is not an element). mbarriers of a pipeline are matched by it.
  uint64_t SlotArray = 0;
  /// SlotAddress of an element of a __shared__ array: its byte offset from
  /// the start of the array, and the array's element size in bytes, when
  /// known. Lets address arithmetic on a carved dynamic shared-memory
  /// buffer (`smem + 616`, `(int *)(smem_raw + 616)`) name a slot.
  std::optional<int64_t> SlotByteOffset;
  int64_t SlotElementBytes = 0;
  /// SlotAddress (PTX): the constant part of the byte offset into
  /// SlotArray, and whether an index of unknown value was added too
  /// (`smem + 8 * stage + 56`: the run of mbarriers at 56). Tells apart the
  /// pipelines whose barrier arrays are carved from one dynamic buffer.
  std::optional<int64_t> SlotRunStart;
  bool SlotIndexed = false;
  /// SlotAddress (PTX) whose constant part depends on the thread: each role
  /// picks its own pipeline (`selp(bars_s0, bars_s1, is_softmax0)`, one
  /// copy of the softmax code for two warpgroups). The constant part in
  /// each thread, by linear thread id; SlotRunStart is unset then.
  std::shared_ptr<const std::vector<int64_t>> SlotRunStartByThread;
  /// SlotAddress reached through `mapa`: the variable's copy in another
  /// CTA of the cluster (possibly this one).
  bool ClusterMapped = false;
  /// An mbarrier operand: the run of barriers it belongs to, when the
  /// front end could tell the runs of one variable apart (0 otherwise).
  uint64_t BarrierRun = 0;
  /// SlotAddress (C++) of a barrier in an object each role picks for
  /// itself (`is_softmax_0 ? pipeline_s0 : pipeline_s1`): the array it is
  /// in, in each thread, by linear thread id. Slot and SlotArray are 0 then
  /// (which array is not one answer); the hand-off analysis reads the
  /// arrays thread by thread (BarrierRuns.h).
  std::shared_ptr<const std::vector<uint64_t>> SlotArrayByThread;
  /// An mbarrier operand with SlotRunStartByThread: its run in each
  /// thread (BarrierRun is 0 then).
  std::shared_ptr<const std::vector<uint64_t>> BarrierRunByThread;
  /// Not a TMEM address, but computed from one (or from a value computed
  /// from one) by arithmetic that does not keep it an address: masks,
  /// shifts, bit fields (`((taddr & 0x3FFFF) >> 4) | (1ull << 46)`, how a
  /// shared-memory matrix descriptor is built). The slot that TMEM address
  /// was read from; 0 when none. Only descriptor operands look at it.
  uint64_t TmemDerivedSlot = 0;
  /// TmemAddress: offset from the value stored in the slot, split into the
  /// lane (bits 31..16) and column (bits 15..0) fields, when known.
  std::optional<int64_t> LaneOffset;
  std::optional<int64_t> ColumnOffset;

  /// When Constant is unknown: the value is one of these few constants
  /// (`tile % 2`, `stage & 1`, `c ? 0 : 128`), sorted and unique; empty
  /// when not known to be one of a small set.
  std::vector<int64_t> Choices;
  /// TmemAddress whose ColumnOffset is unknown: the column offset is one of
  /// these (accumulator stages, `base + (tile % 2) * 128`); sorted.
  std::vector<int64_t> ColumnChoices;
  /// TmemAddress whose ColumnOffset is unknown: bounds of the column offset
  /// (a CuTe TMEM tensor slice: somewhere in the columns its parent spans).
  std::optional<IntRange> ColumnRange;
  /// With ColumnRange (or, for an integer, LowHalfRange): the address is
  /// the start of a CuTe TMEM tensor, and every element of that tensor lies
  /// in a column below this one. An access through it touches no column at
  /// or past it.
  std::optional<int64_t> ColumnSpanEnd;
  /// With ColumnSpanEnd, when the tensor's start depends on the thread
  /// (one copy of CUTLASS FMHA's softmax code serves two warpgroups:
  /// `t.data() = stage == 0 ? S0 : S1` with a stage picked by the role):
  /// the columns the tensor spans in each thread, by linear thread id, in
  /// the column field (inclusive). ColumnRange / LowHalfRange and
  /// ColumnSpanEnd bound their union.
  std::shared_ptr<const std::vector<IntRange>> ColumnWindowByThread;

  /// The value as a function of one variable of the thread's program
  /// (`tile % 2`, `(stage + 1) % 2`, `stage * 128`), when it is one.
  std::optional<StageTerm> Term;
  /// SlotAddress of an array element: which element, as a term (a
  /// constant index, or `stage` of `&tmem_empty[stage]`; in PTX the byte
  /// offset from the run start). Tells the stages of one pipeline apart.
  std::optional<StageTerm> ElementTerm;
  /// TmemAddress whose column offset varies: the varying part as a term
  /// (`base + stage * 128`), for matching it with a barrier element.
  std::optional<StageTerm> ColumnTerm;

  bool isConstant() const { return Constant.has_value(); }
  bool isTmemAddress() const { return Address == AddressKind::TmemAddress; }
  bool isSlotAddress() const { return Address == AddressKind::SlotAddress; }
  /// The slot of the TMEM address this value is or was computed from; 0
  /// when it is neither.
  uint64_t tmemProvenance() const {
    return isTmemAddress() ? Slot : TmemDerivedSlot;
  }
  /// A TMEM address that is exactly the value tcgen05.alloc stored.
  bool isAllocationStart() const {
    return isTmemAddress() && LaneOffset == 0 && ColumnOffset == 0;
  }
};

/// The constants \p V may be: itself when constant, else its Choices.
/// The column field of a 32-bit TMEM address (bits 15..0; the lane field is
/// bits 31..16), rules §3.
inline int64_t tmemColumnField(int64_t Address) { return Address & 0xFFFF; }

inline std::vector<int64_t> possibleConstants(const AbstractValue &V) {
  if (V.Constant)
    return {*V.Constant};
  return V.Choices;
}

/// \p Values sorted and unique, as AbstractValue::Choices keeps them;
/// empty when there are more than \p Max.
inline std::vector<int64_t> normalizeChoices(std::vector<int64_t> Values,
                                             size_t Max) {
  std::sort(Values.begin(), Values.end());
  Values.erase(std::unique(Values.begin(), Values.end()), Values.end());
  if (Values.size() > Max)
    Values.clear();
  return Values;
}

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_VALUE_H
