//===- CorrelatedSplits.h - A graph per assumption on a value -*- C++ -*-===//
//
// Part of tmemcheck. The C++ front end names a CTA-uniform condition by its
// value (Block::ValueKey). A kernel that tests one such value twice
// (`if (use_tmem) alloc…; …; if (use_tmem) free…`) has paths that take the
// first test one way and the second the other; no thread takes them, and
// the CTA-level dataflow, which joins the two arms in between, would report
// the leak and the unallocated free those paths have. The checks instead
// run once per assumption about the shared values, on a copy of the graph
// in which every branch on them goes the assumed way: every path a thread
// can take is in exactly one copy, and no copy has a path that no thread
// can take because of those values.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_CORRELATEDSPLITS_H
#define TMEMCHECK_ANALYSIS_CORRELATEDSPLITS_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include <string>
#include <vector>

namespace tmemcheck {

/// The most shared values the checks split on: 2^N runs of the checks.
/// A kernel with more runs them once on the whole graph, as before.
constexpr unsigned MaxCorrelatedSplits = 3;

/// The ValueKeys of the two-way CTA-uniform branches that more than one
/// reachable block tests, sorted; empty when there are more than
/// MaxCorrelatedSplits of them.
std::vector<std::string> sharedConditionValues(const KernelGraph &G);

/// \p G with every branch on Values[I] going to its first successor (the
/// condition holds) when bit I of \p Assumption is set, else to its second;
/// the blocks no path from the entry reaches any more lose their events
/// and edges, so that no check looks at them.
KernelGraph assumeConditionValues(const KernelGraph &G,
                                  const std::vector<std::string> &Values,
                                  unsigned Assumption);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_CORRELATEDSPLITS_H
