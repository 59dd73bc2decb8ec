//===- CorrelatedBranches.h - Paths that no thread can take -----*- C++ -*-===//
//
// Part of tmemcheck. Compilers test one condition twice: CuTe DSL guards
// the `try_wait` probe of a pipeline with `if (k_tiles >= 1)` and then the
// loop that consumes the probe's result with the same test, so the path
// "skip the probe, enter the loop" (on which the probe's predicate keeps
// its default `true` and the wait is skipped) exists in the graph but no
// thread takes it. The path-insensitive analyses join it in and report a
// read that no wait precedes. This pass removes such paths before they
// run, the way jump threading does.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_CORRELATEDBRANCHES_H
#define TMEMCHECK_ANALYSIS_CORRELATEDBRANCHES_H

#include "tmemcheck/Analysis/KernelGraph.h"

namespace tmemcheck {

/// For each block that holds no event and ends in a CTA-uniform branch on
/// a condition whose outcome is already decided on an incoming edge (an
/// earlier branch on the same Block::BranchKey dominates that edge's
/// paths), sends the edge straight to the arm that outcome selects. Only
/// graphs whose keys name values, not text (Block::BranchKeyIsValue: PTX
/// registers, where a key is an expression over kernel inputs and so has
/// the same value wherever a thread evaluates it), are changed. Blocks that
/// become unreachable are detached. Returns the number of edges moved.
unsigned threadCorrelatedBranches(KernelGraph &G);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_CORRELATEDBRANCHES_H
