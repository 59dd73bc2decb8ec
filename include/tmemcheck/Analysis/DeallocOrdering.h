//===- DeallocOrdering.h - Is a dealloc ordered after all accesses -*- C++
//-*-===//
//
// Part of tmemcheck. Before tcgen05.dealloc, every other thread's access to
// the region must be ordered before it by thread synchronisation (rule A11;
// for cta_group::2 the peer CTA's by a cluster barrier, rule A9). This
// CTA-level dataflow keeps, per region, the accesses made since the last
// barrier; a dealloc that can see one made by other threads races with it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_DEALLOCORDERING_H
#define TMEMCHECK_ANALYSIS_DEALLOCORDERING_H

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/ThreadConditions.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tmemcheck {

/// A dealloc that may run while another thread's access is unordered.
struct DeallocRace {
  const Event *Dealloc = nullptr;
  const Event *Access = nullptr;
  /// cta_group::2: the access is not ordered by a cluster barrier, so the
  /// peer CTA may still be using its half.
  bool PeerCta = false;
};

/// The races of one kernel.
class DeallocOrdering {
public:
  DeallocOrdering(const KernelGraph &G, ThreadConditions &Threads,
                  KernelBudget &Budget);
  const std::vector<DeallocRace> &races() const { return Races; }

private:
  std::vector<DeallocRace> Races;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_DEALLOCORDERING_H
