//===- PeerCollectives.h - cta_group::2 alloc/dealloc and the peer -*- C++
//-*-===//
//
// Part of tmemcheck. tcgen05.alloc/relinquish/dealloc with .cta_group::2
// are collective over the two CTAs of a pair: the issuing warp must make
// sure the peer CTA is running and will take part (rule A6), and a paired
// dealloc must not run before the peer's alloc completed (rule A9, CUTLASS
// #3435). The cluster launch a cta_group::2 kernel needs (rule A13)
// co-schedules the pair, so an alloc before the first cluster barrier is
// fine; this analysis finds the paired deallocs no synchronisation with the
// peer can have ordered after the alloc, and CTA-identity early exits that
// make one CTA of the pair skip a collective its peer waits in.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_PEERCOLLECTIVES_H
#define TMEMCHECK_ANALYSIS_PEERCOLLECTIVES_H

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"

#include <vector>

namespace tmemcheck {

/// A cta_group::2 dealloc reached from a cta_group::2 alloc along paths of
/// which none passes a synchronisation that can involve the peer CTA (a
/// cluster barrier, an mbarrier wait): it may run before the peer's alloc
/// completed.
struct UnorderedPairDealloc {
  const Event *Dealloc = nullptr;
  const Event *Alloc = nullptr;
};

/// A CTA-uniform branch on the CTA's own identity with a paired collective
/// reachable from one arm only: the CTA that takes the other arm (usually
/// an early return) never takes part, and its peer waits for it.
struct PeerEarlyExit {
  /// The return the skipping CTA leaves through, when one is its alone;
  /// nullptr when it leaves through the kernel's common exit or skips the
  /// collective without returning.
  const Event *Return = nullptr;
  SourceLoc Condition;
  const Event *Collective = nullptr; ///< the skipped alloc/dealloc.
};

/// The pairing facts of one kernel (empty for 1-CTA kernels).
class PeerCollectiveAnalysis {
public:
  PeerCollectiveAnalysis(const KernelGraph &G, const ControlDependence &CD,
                         KernelBudget &Budget);

  const std::vector<UnorderedPairDealloc> &unorderedDeallocs() const {
    return Deallocs;
  }
  const std::vector<PeerEarlyExit> &earlyExits() const { return Exits; }

private:
  std::vector<UnorderedPairDealloc> Deallocs;
  std::vector<PeerEarlyExit> Exits;
};

/// True for tcgen05.alloc, dealloc and relinquish_alloc_permit with
/// .cta_group::2.
bool isPairedCollective(const Event &E);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_PEERCOLLECTIVES_H
