//===- BlockReachability.h - Which blocks can follow which ------*- C++ -*-===//
//
// Part of tmemcheck. The ordering analyses ask, for many pairs of blocks,
// whether one can run after the other in a thread's program (ReuseOrdering,
// Completion, DeallocOrdering, the lifecycle, peer collectives). Each used to
// walk the graph from every block it asked about, a vector per block: on a
// mainloop unrolled 64 times, most of their time. Here the whole relation is
// computed at once, as bit vectors over the graph's strongly connected
// components in reverse topological order (a component reaches what its
// successors reach), in time proportional to the edges times blocks/64.
// Graphs too large for a bit per pair fall back to a walk per asked block.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_BLOCKREACHABILITY_H
#define TMEMCHECK_ANALYSIS_BLOCKREACHABILITY_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/BitVector.h"

#include <map>
#include <vector>

namespace tmemcheck {

/// The "reachable through at least one edge" relation of a kernel graph's
/// blocks, as KernelGraph::reachableFrom gives it one block at a time: a
/// block reaches itself only when it is on a cycle.
class BlockReachability {
public:
  explicit BlockReachability(const KernelGraph &G);

  /// The blocks reachable from \p From through at least one edge.
  const llvm::BitVector &from(unsigned From) const;
  /// True if \p To is reachable from \p From through at least one edge.
  bool reaches(unsigned From, unsigned To) const { return from(From)[To]; }

  /// Graphs above this many blocks are walked per asked block instead
  /// (a bit per pair of 16384 blocks is 32 MB).
  static constexpr unsigned MaxClosureBlocks = 16384;

private:
  const KernelGraph &G;
  /// Closure mode: the component of each block, and what each component
  /// reaches.
  std::vector<unsigned> Component;
  std::vector<llvm::BitVector> ComponentReach;
  /// Fallback mode: the walks done so far.
  mutable std::map<unsigned, llvm::BitVector> Walked;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_BLOCKREACHABILITY_H
