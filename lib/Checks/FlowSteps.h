//===- FlowSteps.h - Timeline steps of a finding's code flow ----*- C++ -*-===//
//
// Part of tmemcheck. SARIF's code flow of a finding is its notes that name
// earlier events (FindingNote::Order) and its Finding::FlowSteps; these add
// the steps, either in program order or in the order a check tells them.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_CHECKS_FLOWSTEPS_H
#define TMEMCHECK_LIB_CHECKS_FLOWSTEPS_H

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Report/Finding.h"

namespace tmemcheck {

/// The latest alloc, in program order, of the region that \p Op's TMEM
/// address operand points into that runs before \p Op; null when none does
/// or the address is unknown.
const Event *allocBefore(const LifecycleAnalysis &L, const Event &Op);

/// Adds event \p Step, seen from \p At (the finding's event), to the code
/// flow in program order (Event::Id): before the finding if it runs
/// earlier, after it otherwise. Merges with the notes' ordered events.
void addEventFlowStep(Finding &F, const Event &Step, const Event &At,
                      std::string Message);

/// Adds the alloc of the region \p Op accesses (allocBefore) as the first
/// step of the finding's code flow, seen from \p At: the alloc -> load ->
/// release -> dealloc timeline that code scanning draws for an ordering
/// finding. Not printed as a note.
void addAllocFlowStep(const LifecycleAnalysis &L, const Event &Op,
                      const Event &At, Finding &F);

/// Appends a step at \p Loc to the code flow after the steps appended so
/// far (its Order is its position): for a check whose timeline is not one
/// thread's program order (a hand-off to other threads, their read, the
/// rewrite), told in the order the check gives. \p AfterFinding: the step
/// runs after the finding's own event. A check uses this or the program-
/// order steps above for a finding, not both.
void addFlowStep(Finding &F, SourceLoc Loc, std::string Message,
                 bool AfterFinding = false);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_CHECKS_FLOWSTEPS_H
