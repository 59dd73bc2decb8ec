//===- ConsumedLoads.h - tcgen05.ld registers all read ---------*- C++ -*-===//
//
// Part of tmemcheck. A thread that has read every destination register of a
// tcgen05.ld has seen the load complete: a register of tcgen05.ld is defined
// only once the data arrived (PTX ISA 9.1 register dependencies, rules §5.2).
// A dealloc after that, without tcgen05.wait::ld, breaks the letter of the
// rule (wait::ld orders the columns' release) but cannot free columns the
// load is still reading. tmem-missing-wait-ld uses this fact to tell the
// spec-strict form of a missing wait from the real race.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_CONSUMEDLOADS_H
#define TMEMCHECK_ANALYSIS_CONSUMEDLOADS_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"

#include <set>
#include <utility>

namespace tmemcheck {

/// For each tcgen05.dealloc, the loads of the same thread whose registers
/// have all been read on every path to it (every branch an alternative, so
/// a register read by some lanes only counts as unread).
class ConsumedLoads {
public:
  ConsumedLoads(const KernelGraph &G, KernelBudget &Budget);

  /// True if every destination register of \p Load is read on every path
  /// from it to \p At. False when a register has no identity the front end
  /// could follow, when the load's results are never read, and when the
  /// fixpoint was not reached.
  bool allRegistersReadBefore(const Event &Load, const Event &At) const {
    return Consumed.count({Load.Id, At.Id}) != 0;
  }

private:
  std::set<std::pair<unsigned, unsigned>> Consumed; ///< (load, dealloc) ids
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_CONSUMEDLOADS_H
