//===- BarrierRuns.h - mbarrier arrays carved from one buffer --*- C++ -*-===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_BARRIERRUNS_H
#define TMEMCHECK_ANALYSIS_BARRIERRUNS_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace tmemcheck {

/// Gives each run of mbarriers inside one shared-memory variable its own
/// identity (AbstractValue::BarrierRun), for the pipeline-aware hand-off:
/// which threads an arrive releases TMEM columns to. CUTLASS, CuTe DSL,
/// Triton and generated CUDA (FlashKDA's `smem + 440 + stage * 8`) carve
/// every pipeline's `full[stages]` / `empty[stages]` out of one dynamic
/// buffer, so by the variable alone all of a kernel's barriers are one
/// "array" and an arrive on a shared-memory stage's barrier looks like the
/// TMEM release the MMA warp waits for. A barrier reached with an unknown
/// index (`smem + 8 * stage + 56`) names the run starting at its constant
/// offset, one at an exact offset the run starting there (`&full[0]` is in
/// the run of `&full[stage]`; a stage the compiler unrolled to `smem + 64`
/// is a run of its own, whose arrive is then taken as a release to anyone).
/// If any barrier operand of the variable has no known constant part, the
/// variable stays one run. Matching a commit to its waits keeps using the
/// whole variable.
struct BarrierRunOptions {
  /// The identity of the run at byte \p Start of variable \p Array.
  llvm::function_ref<uint64_t(uint64_t Array, int64_t Start)> RunIdentity;
  /// An operand at a known byte offset into its variable that no offset
  /// arithmetic reached (C++: `&bars[3]`, `smem_raw + 528`) starts a run
  /// there.
  bool ExactOffsetsStartRuns = false;
};

void separateBarrierRuns(KernelGraph &G, const BarrierRunOptions &Options);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_BARRIERRUNS_H
