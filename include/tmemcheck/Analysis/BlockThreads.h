//===- BlockThreads.h - Threads that may run each block ---------*- C++ -*-===//
//
// Part of tmemcheck. A warp-specialised kernel runs one body per role, and
// code shared by roles (CUTLASS FMHA's softmax for two warpgroups) reads
// values that depend on the thread: which S columns, which barrier. A
// hand-off is then between the threads that reach the arrive and those
// that reach the wait, not every thread whose per-thread value is in the
// table. This forward dataflow gives each block the threads that may run
// it, from the branches whose condition is known thread by thread
// (Block::ThreadsOnTrueArm) and the block's size (`__launch_bounds__`).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_BLOCKTHREADS_H
#define TMEMCHECK_ANALYSIS_BLOCKTHREADS_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace tmemcheck {

/// Threads by linear thread id (the per-thread tables' 1024 entries);
/// null stands for every thread.
using ThreadMask = std::shared_ptr<const std::vector<uint8_t>>;

/// The threads that may run each block of a kernel graph, as interned
/// masks: equal sets are one pointer, so callers can memoise by it.
class BlockThreads {
public:
  explicit BlockThreads(const KernelGraph &G);

  /// The threads that may run block \p B; null when every thread may (no
  /// branch known thread by thread narrows it).
  const ThreadMask &of(unsigned B) const { return Masks[B]; }

  /// \p A and \p B both (null is every thread), interned.
  ThreadMask intersect(const ThreadMask &A, const ThreadMask &B);

private:
  ThreadMask intern(std::vector<uint8_t> Mask);

  std::vector<ThreadMask> Masks;
  std::map<std::vector<uint8_t>, ThreadMask> Interned;
  /// Intersections by the two masks' addresses. The entry holds both
  /// masks, so that neither address can be reused by another mask (callers
  /// pass masks they made, not only interned ones) while it is remembered.
  struct Intersection {
    ThreadMask A, B, Both;
  };
  std::map<std::pair<const void *, const void *>, Intersection> Intersections;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_BLOCKTHREADS_H
