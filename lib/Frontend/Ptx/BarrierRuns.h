//===- BarrierRuns.h - mbarrier arrays carved from one buffer --*- C++ -*-===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_PTX_BARRIERRUNS_H
#define TMEMCHECK_LIB_FRONTEND_PTX_BARRIERRUNS_H

#include "RegisterValues.h"

#include "tmemcheck/Analysis/KernelGraph.h"

namespace tmemcheck {

/// Gives each run of mbarriers inside one shared-memory variable its own
/// identity (AbstractValue::BarrierRun), for the pipeline-aware hand-off:
/// which threads an arrive releases TMEM columns to. CUTLASS, CuTe DSL and
/// Triton carve every pipeline's `full[stages]` / `empty[stages]` out of one
/// dynamic buffer, so by the variable alone all of a kernel's barriers are one
/// "array" and an arrive on a shared-memory stage's barrier looks like the TMEM
/// release the MMA warp waits for. A barrier reached with an unknown index
/// (`smem + 8 * stage + 56`) names the run starting at its constant offset, one
/// at an exact offset the run starting there (`&full[0]` is in the run of
/// `&full[stage]`; a stage the compiler unrolled to `smem + 64` is a run
/// of its own, whose arrive is then taken as a release to anyone). If any
/// barrier operand of the variable has no known constant part, the
/// variable stays one run. Matching a commit to its waits keeps using the
/// whole variable.
void separateBarrierRuns(KernelGraph &G, PtxIdentities &Ids);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_PTX_BARRIERRUNS_H
