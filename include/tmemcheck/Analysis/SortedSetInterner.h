//===- SortedSetInterner.h - Interned sets of the dataflow ---- -*- C++ -*-===//
//
// Part of tmemcheck. Completion keeps, per mma a thread issued, the set of
// mbarriers it waited on since (its must-state), and copies that map at
// every block and join of the fixpoint. The sets are few and shared by many
// mmas (every mma of an unrolled K-loop waited on the same barriers), so a
// state holds small ids instead, the sets live once here, and the two
// operations the fixpoint applies over and over (add a barrier, intersect
// at a join) are memoised by their operands' ids. Equal sets have equal
// ids, so states compare by id.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_SORTEDSETINTERNER_H
#define TMEMCHECK_ANALYSIS_SORTEDSETINTERNER_H

#include "tmemcheck/Analysis/SortedSet.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <utility>
#include <vector>

namespace tmemcheck {

/// Interned SortedSet<T>s, named by dense ids; id 0 is the empty set.
template <typename T> class SortedSetInterner {
public:
  using Set = SortedSet<T>;
  using Id = unsigned;

  SortedSetInterner() { intern(Set()); }

  /// The id of \p S (a new one the first time it is seen).
  Id intern(const Set &S) {
    std::vector<T> Key(S.begin(), S.end());
    auto [It, New] = Index.try_emplace(std::move(Key), Sets.size());
    if (New)
      Sets.push_back(S);
    return It->second;
  }
  /// The set named \p I.
  const Set &set(Id I) const { return Sets[I]; }
  bool contains(Id I, const T &V) const { return Sets[I].contains(V); }

  /// The id of set \p I with \p V added.
  Id withInserted(Id I, const T &V) {
    auto [It, New] = Inserted.try_emplace({I, V}, I);
    if (New && !Sets[I].contains(V)) {
      Set S = Sets[I];
      S.insert(V);
      It->second = intern(S); // touches Sets and Index only: It stays valid
    }
    return It->second;
  }
  /// The id of the intersection of sets \p A and \p B.
  Id intersection(Id A, Id B) {
    if (A == B)
      return A;
    if (A > B)
      std::swap(A, B);
    auto [It, New] = Intersected.try_emplace({A, B}, 0);
    if (!New)
      return It->second;
    Set S = Sets[A];
    S.intersectWith(Sets[B]);
    It->second = intern(S);
    return It->second;
  }

private:
  std::vector<Set> Sets;
  std::map<std::vector<T>, Id> Index;
  llvm::DenseMap<std::pair<Id, T>, Id> Inserted;
  llvm::DenseMap<std::pair<Id, Id>, Id> Intersected;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_SORTEDSETINTERNER_H
