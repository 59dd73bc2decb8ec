//===- ThreadConditions.h - Which threads run a block -----------*- C++ -*-===//
//
// Part of tmemcheck. Warp-specialised kernels select roles with conditions
// such as `warp_idx == 1`; a block runs only in the threads for which its
// controlling conditions hold. Comparing those conditions tells whether two
// blocks can run in the same thread (an mma of warp 1 is never "this
// thread's" for a dealloc under `warp_idx == 2`) and whether one block's
// threads are a subset of another's.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_THREADCONDITIONS_H
#define TMEMCHECK_ANALYSIS_THREADCONDITIONS_H

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/KernelGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tmemcheck {

/// The lane- and warp-dependent conditions (condition text, arm taken)
/// under which each block of a kernel runs.
class ThreadConditions {
public:
  using Conditions = std::set<std::pair<std::string, unsigned>>;

  ThreadConditions(const KernelGraph &G, const ControlDependence &CD);

  const Conditions &of(unsigned Block);

  /// True if some thread can run both blocks: no condition of one
  /// contradicts a condition of the other (`x == 1` against `x == 2`, or
  /// the two arms of one condition).
  bool compatible(unsigned A, unsigned B);

  /// True if no thread runs both blocks, with complements and warp sets
  /// read too (`x == 1` false against `x == 0` false: warp 0 against warp
  /// 1 of a two-warp block; `%tid.x/32 in 0..3 8..15` false against
  /// `== 12`). compatible() compares only intervals; the hand-off analysis
  /// is tuned to it (its "earlier wait" exemption), so the finer reading is
  /// a separate question for now.
  bool exclusive(unsigned A, unsigned B);

  /// True if some thread can run block \p A and take arm \p Cond.second of
  /// a branch on the condition text \p Cond.first.
  bool compatibleWith(unsigned A, const std::pair<std::string, unsigned> &Cond);

  /// True unless the conditions of the routes into \p Branch contradict
  /// those of any route into \p Block: `if (warp == 1 && elect()) … else
  /// if (warp == 2) X` reaches X through the election's false arm only with
  /// warp == 1, so the election does not split X's threads. Conditions of
  /// all routes are combined here (a union), which errs towards "does not
  /// split": the divergence check must not guess.
  bool splitReaches(unsigned Branch, unsigned Block);

  /// The warp indices that can run \p Block, from comparisons of the warp
  /// index (`threadIdx.x / 32`) with constants on the way to it; nullopt
  /// when nothing bounds them.
  std::optional<std::pair<int64_t, int64_t>> warpRange(unsigned Block);

  /// True if every thread that runs \p A also runs \p B (A's conditions
  /// include all of B's).
  bool subsetOf(unsigned A, unsigned B);

private:
  /// A condition (text, arm) read once: the analyses compare the
  /// conditions of every pair of blocks they relate, and reading the text
  /// again for each pair was most of their time on large PTX modules.
  /// Strings are compared by their interned ids.
  struct Atom {
    unsigned Text = 0, Arm = 0;
    /// intervalAtom: `lhs` takes values in [Lo, Hi] on this arm.
    bool Interval = false;
    unsigned IntervalLhs = 0;
    long long Lo = 0, Hi = 0;
    /// roleTest: a true arm of `lhs OP rhs`.
    bool Role = false, RoleSymbolic = false, RoleEquality = false;
    unsigned RoleLhs = 0, RoleOp = 0, RoleRhs = 0;
  };
  Atom parseAtom(const std::pair<std::string, unsigned> &Cond);
  unsigned intern(llvm::StringRef Text);
  unsigned atomId(const std::pair<std::string, unsigned> &Cond);
  void atomsOf(const Conditions &C, std::vector<unsigned> &Out);
  const std::vector<unsigned> &blockAtoms(unsigned Block);
  /// True if no thread satisfies both \p X and \p Y.
  static bool clash(const Atom &X, const Atom &Y);
  bool compatibleAtoms(llvm::ArrayRef<unsigned> A,
                       llvm::ArrayRef<unsigned> B) const;
  bool compatible(const Conditions &A, const Conditions &B);
  /// Conditions of every route into a block, joined (see splitReaches).
  const Conditions &anyRouteOf(unsigned Block);

  const KernelGraph &G;
  const ControlDependence &CD;
  std::vector<Conditions> Cache;
  /// compatible(A, B) by the blocks' classes: the analyses ask it for
  /// every pair of events they relate (hundreds of thousands of times on an
  /// unrolled mainloop), and the blocks have few distinct atom lists (one
  /// per role and branch arm). A block's class names its atom list; the
  /// answers are a table by class pair (-1 not yet known).
  unsigned classOf(unsigned Block);
  std::vector<unsigned> BlockClass;
  std::map<std::vector<unsigned>, unsigned> ClassIds;
  std::vector<const std::vector<unsigned> *> ClassAtoms;
  std::vector<std::vector<int8_t>> ClassPairs;
  std::vector<uint8_t> Done;
  std::vector<uint8_t> InProgress;
  std::vector<Conditions> AnyRouteCache;
  std::vector<uint8_t> AnyRouteDone;
  /// Atoms: read conditions by id, ids by (interned text, arm), the atoms
  /// of each block's conditions (of()), interned strings.
  std::vector<Atom> Atoms;
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> AtomIds;
  std::vector<std::vector<unsigned>> BlockAtoms;
  std::vector<uint8_t> AtomsDone;
  llvm::StringMap<unsigned> Strings;
  /// Condition texts of branches that select threads (warp-uniform or
  /// thread-variant, not a loop's own test): only these are read as role
  /// tests. A loop counter's `s < n` and `s == n - 1` are not exclusive.
  llvm::StringSet<> RoleTexts;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_THREADCONDITIONS_H
