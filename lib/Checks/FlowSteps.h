//===- FlowSteps.h - Timeline steps of ordering findings -------*- C++ -*-===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_CHECKS_FLOWSTEPS_H
#define TMEMCHECK_LIB_CHECKS_FLOWSTEPS_H

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Report/Finding.h"

namespace tmemcheck {

/// Adds the alloc of the region \p Op accesses, when it runs before \p Op,
/// as the first step of the finding's SARIF code flow (FindingNote::Order),
/// seen from \p At: the alloc -> load -> release -> dealloc timeline that
/// code scanning draws for an ordering finding. Not printed as a note.
void addAllocFlowStep(const LifecycleAnalysis &L, const Event &Op,
                      const Event &At, Finding &F);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_CHECKS_FLOWSTEPS_H
