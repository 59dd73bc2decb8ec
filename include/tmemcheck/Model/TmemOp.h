//===- TmemOp.h - What a tcgen05 instruction means --------------*- C++ -*-===//
//
// Part of tmemcheck. A TmemOp is the meaning of one tcgen05 instruction:
// its kind, cta_group, shape and footprint, who must issue it and how it
// completes. The facts come from ../shared/tcgen05-rules.md (§2, §3, §11).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_MODEL_TMEMOP_H
#define TMEMCHECK_MODEL_TMEMOP_H

#include "tmemcheck/Ptx/Instruction.h"
#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// The tcgen05 instruction families (rules §2).
enum class TmemOpKind {
  Alloc,
  Dealloc,
  RelinquishAllocPermit,
  Load,      ///< tcgen05.ld (including .red)
  Store,     ///< tcgen05.st
  WaitLoad,  ///< tcgen05.wait::ld
  WaitStore, ///< tcgen05.wait::st
  Copy,      ///< tcgen05.cp
  Shift,     ///< tcgen05.shift
  Mma,       ///< tcgen05.mma (all variants)
  Commit,    ///< tcgen05.commit
  FenceBeforeThreadSync,
  FenceAfterThreadSync,
};

/// `.cta_group::N`; Unspecified for instructions that have none (ld, st,
/// wait, fence).
enum class CtaGroup : uint8_t { Unspecified = 0, One = 1, Two = 2 };

/// Who must execute the instruction (rules §2, issue granularity table).
enum class IssueGranularity {
  WarpCollective, ///< `.sync.aligned`: a whole converged warp.
  SingleThread,   ///< mma, cp, shift, commit: one thread issues the op.
  AnyThread,      ///< fences: any thread, not collective.
};

/// How the effect of the instruction becomes complete (rules §5.2, §11).
enum class CompletionClass {
  Synchronous, ///< alloc, dealloc, relinquish, wait, fence.
  WaitLoad,    ///< completes at tcgen05.wait::ld of the same thread.
  WaitStore,   ///< completes at tcgen05.wait::st of the same thread.
  Commit,      ///< completes through tcgen05.commit -> mbarrier wait.
};

/// Data-path shapes of tcgen05.ld / tcgen05.st (rules §3.1).
enum class LdStShape { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };

/// Shapes of tcgen05.cp (rules §3.2).
enum class CopyShape {
  S128x256b,
  S4x256b,
  S128x128b,
  S64x128bWarpx2_02_13,
  S64x128bWarpx2_01_23,
  S32x128bWarpx4,
};

/// `.kind::` of tcgen05.mma.
enum class MmaKind { F16, TF32, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };

/// The TMEM cells one access touches, relative to its address operand
/// (rules §3). Lanes count from the address's lane field; columns from its
/// column field. A 16x32bx2 access touches Columns at C and Columns at
/// C + SecondHalfOffset.
struct Footprint {
  unsigned Lanes = 0;
  unsigned Columns = 0;
  std::optional<int64_t> SecondHalfOffset;
  /// cp multicast / warpx forms and scale factors fill all four 32-lane
  /// quarters no matter the lane field.
  bool AllQuarters = false;
};

/// The meaning of one tcgen05 instruction. Operand fields index into
/// Instruction::Operands of the instruction it was decoded from (-1: absent).
struct TmemOp {
  TmemOpKind Kind = TmemOpKind::Alloc;
  CtaGroup Group = CtaGroup::Unspecified;
  IssueGranularity Issue = IssueGranularity::WarpCollective;
  CompletionClass Completion = CompletionClass::Synchronous;

  // ld / st
  std::optional<LdStShape> LdSt;
  unsigned Repeat = 0;        ///< `.xN` -> N.
  bool Packed16 = false;      ///< `.pack::16b` / `.unpack::16b`.
  bool Reduction = false;     ///< `tcgen05.ld.red`.
  unsigned RegisterCount = 0; ///< 32-bit registers per thread (rules §3.1).

  // cp
  std::optional<CopyShape> Cp;
  std::string Multicast;    ///< "warpx2::02_13", "warpx2::01_23", "warpx4".
  std::string SourceFormat; ///< "b6x16_p32" / "b4x16_p64" after .b8x16.

  // mma
  std::optional<MmaKind> Mma;
  bool BlockScale = false;
  unsigned ScaleVec = 0; ///< 1, 2, 4 (block32 -> 1 or 2 by kind, block16 -> 4)
  bool WeightStationary = false; ///< .ws
  bool Sparse = false;           ///< .sp
  bool ATmem = false;            ///< A operand is `[a_tmem]`.
  std::string Collector;         ///< e.g. "a::fill", "b0::use".
  bool AShift = false;

  // commit
  bool CommitMulticast = false;

  /// Footprint of the TMEM address operand for ld/st/cp/shift. For mma the D
  /// footprint depends on the instruction descriptor and is computed by the
  /// analysis (rules §3.4); it is left empty here.
  Footprint Access;

  int TmemAddrOperand = -1;     ///< dealloc/ld/st/cp/shift taddr; mma D.
  int NColsOperand = -1;        ///< alloc/dealloc column count.
  int SlotOperand = -1;         ///< alloc: the `[dst]` shared-memory address.
  int MbarOperand = -1;         ///< commit: `[mbar]`.
  int CtaMaskOperand = -1;      ///< commit multicast mask.
  int DataOperand = -1;         ///< ld destination / st source vector.
  int SplitOffsetOperand = -1;  ///< 16x32bx2 immediate half offset.
  int ADescOrTmemOperand = -1;  ///< mma A (`[a_tmem]` when ATmem).
  int BDescOperand = -1;        ///< mma B descriptor.
  int IdescOperand = -1;        ///< mma instruction descriptor.
  int SfaOperand = -1;          ///< block-scaled mma `[sfa]`.
  int SfbOperand = -1;          ///< block-scaled mma `[sfb]`.
  int SparseMetaOperand = -1;   ///< mma.sp `[sp_meta]`.
  int EnableInputDOperand = -1; ///< mma predicate operand.
  int SourceDescOperand = -1;   ///< cp shared-memory descriptor.
  // Added by the Model implementation (operands the grammar has but the
  // first draft of this struct did not name):
  int RedValOperand = -1;            ///< ld.red: the 32-bit reduction result.
  int DisableOutputLaneOperand = -1; ///< mma `{mask...}` vector.
  int ScaleInputDOperand = -1;    ///< mma (f16/tf32) scale_input_d immediate.
  int ZeroColumnMaskOperand = -1; ///< mma.ws zero-column-mask descriptor.

  bool isWarpCollective() const {
    return Issue == IssueGranularity::WarpCollective;
  }
  bool isSingleThread() const {
    return Issue == IssueGranularity::SingleThread;
  }
};

/// Short lower-case name of a kind for messages: "alloc", "wait::ld", ...
llvm::StringRef kindName(TmemOpKind K);

/// Decodes one parsed instruction. Returns std::nullopt if the instruction is
/// not a tcgen05 instruction. For a tcgen05 instruction that does not match
/// the grammar (unknown form, bad modifier, wrong operand count) it appends a
/// diagnostic to \p Diags and returns std::nullopt; it never crashes.
std::optional<TmemOp> decodeTmemOp(const ptx::Instruction &I,
                                   std::vector<ptx::ParseDiagnostic> &Diags);

/// Non-tcgen05 instructions the analysis cares about (thread
/// synchronisation and election), rules §5.3.
enum class SyncOpKind {
  BarrierSync,    ///< bar.sync / barrier.sync / barrier.cta.sync (a, [b])
  BarrierArrive,  ///< bar.arrive / barrier.cta.arrive
  ClusterBarrier, ///< barrier.cluster.arrive / wait
  MbarrierInit,
  MbarrierArrive, ///< mbarrier.arrive{.expect_tx}
  MbarrierExpectTx,
  MbarrierWait,    ///< mbarrier.try_wait / test_wait (with or without parity)
  ElectSync,       ///< elect.sync
  FenceProxyAsync, ///< fence.proxy.async
};

/// The meaning of a synchronisation instruction.
struct SyncOp {
  SyncOpKind Kind = SyncOpKind::BarrierSync;
  int BarrierIdOperand = -1;   ///< named barrier id (bar.sync a)
  int ThreadCountOperand = -1; ///< bar.sync a, b
  int MbarOperand = -1;        ///< mbarrier address operand
  /// Added: ClusterBarrier only — true for barrier.cluster.arrive, false for
  /// barrier.cluster.wait.
  bool IsArrive = false;
  /// BarrierSync / BarrierArrive: the aligned form, which every thread it
  /// synchronises must reach at the same instruction (PTX ISA "bar,
  /// barrier": `bar{.cta}.sync` is `barrier{.cta}.sync.aligned`;
  /// `__syncthreads()` compiles to `bar.sync 0`). Plain `barrier.sync` is
  /// not aligned.
  bool Aligned = false;
};

/// Decodes a synchronisation instruction; std::nullopt for anything else.
std::optional<SyncOp> decodeSyncOp(const ptx::Instruction &I);

} // namespace tmemcheck

#endif // TMEMCHECK_MODEL_TMEMOP_H
