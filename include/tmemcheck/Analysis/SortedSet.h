//===- SortedSet.h - Ordered sets and maps kept in a vector -----*- C++ -*-===//
//
// Part of tmemcheck. The dataflow states (Completion's per-thread state,
// for one) hold sets of event ids and mbarrier identities and are copied at
// every block and join of the fixpoint. A std::set allocates a node per
// element, and copying and freeing those nodes was most of the time of the
// analyses on large PTX modules. These sets hold a handful of elements: a
// sorted vector with inline storage copies without allocating, and iterates
// in the same (ascending) order as std::set, so the analyses visit elements
// and find hazards in the same order as before.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_SORTEDSET_H
#define TMEMCHECK_ANALYSIS_SORTEDSET_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace tmemcheck {

/// A set of ordered values as a sorted vector without duplicates.
template <typename T, unsigned InlineElements = 4> class SortedSet {
  using Storage = llvm::SmallVector<T, InlineElements>;

public:
  using value_type = T;
  using const_iterator = typename Storage::const_iterator;
  using iterator = const_iterator;

  SortedSet() = default;
  SortedSet(std::initializer_list<T> Values) {
    for (const T &V : Values)
      insert(V);
  }

  const_iterator begin() const { return Elements.begin(); }
  const_iterator end() const { return Elements.end(); }
  bool empty() const { return Elements.empty(); }
  size_t size() const { return Elements.size(); }
  void clear() { Elements.clear(); }

  /// Inserts \p V; true if it was not there.
  bool insert(const T &V) {
    auto It = std::lower_bound(Elements.begin(), Elements.end(), V);
    if (It != Elements.end() && !(V < *It))
      return false;
    Elements.insert(It, V);
    return true;
  }
  bool contains(const T &V) const {
    auto It = std::lower_bound(Elements.begin(), Elements.end(), V);
    return It != Elements.end() && !(V < *It);
  }
  size_t count(const T &V) const { return contains(V) ? 1 : 0; }
  /// Removes \p V; true if it was there.
  bool erase(const T &V) {
    auto It = std::lower_bound(Elements.begin(), Elements.end(), V);
    if (It == Elements.end() || V < *It)
      return false;
    Elements.erase(It);
    return true;
  }
  /// Removes the elements \p Pred is true for.
  template <typename Pred> void eraseIf(Pred P) {
    Elements.erase(std::remove_if(Elements.begin(), Elements.end(), P),
                   Elements.end());
  }

  /// Adds the elements of \p Other (set union).
  void unionWith(const SortedSet &Other) {
    if (Other.empty())
      return;
    // The common cases first: nothing here yet, or all of Other after.
    if (Elements.empty()) {
      Elements = Other.Elements;
      return;
    }
    if (Elements.back() < Other.Elements.front()) {
      Elements.append(Other.begin(), Other.end());
      return;
    }
    // At a join the other path often holds the same elements or fewer (a
    // loop head's back edge): no merge, no allocation.
    if (std::includes(Elements.begin(), Elements.end(), Other.begin(),
                      Other.end()))
      return;
    Storage Merged;
    Merged.reserve(Elements.size() + Other.size());
    std::set_union(Elements.begin(), Elements.end(), Other.begin(),
                   Other.end(), std::back_inserter(Merged));
    Elements = std::move(Merged);
  }
  /// Keeps only the elements also in \p Other (set intersection).
  void intersectWith(const SortedSet &Other) {
    auto Out = Elements.begin();
    auto O = Other.begin();
    for (auto It = Elements.begin(); It != Elements.end(); ++It) {
      while (O != Other.end() && *O < *It)
        ++O;
      if (O != Other.end() && !(*It < *O))
        *Out++ = *It;
    }
    Elements.erase(Out, Elements.end());
  }

  friend bool operator==(const SortedSet &A, const SortedSet &B) {
    return A.Elements == B.Elements;
  }
  friend bool operator!=(const SortedSet &A, const SortedSet &B) {
    return !(A == B);
  }

private:
  Storage Elements;
};

/// A map with ordered keys as a vector of (key, value) pairs sorted by key.
template <typename K, typename V, unsigned InlineElements = 2>
class SortedMap {
  using Entry = std::pair<K, V>;
  using Storage = llvm::SmallVector<Entry, InlineElements>;

public:
  using iterator = typename Storage::iterator;
  using const_iterator = typename Storage::const_iterator;

  iterator begin() { return Entries.begin(); }
  iterator end() { return Entries.end(); }
  const_iterator begin() const { return Entries.begin(); }
  const_iterator end() const { return Entries.end(); }
  bool empty() const { return Entries.empty(); }
  size_t size() const { return Entries.size(); }
  void clear() { Entries.clear(); }

  iterator find(const K &Key) {
    iterator It = lowerBound(Key);
    return It != end() && !(Key < It->first) ? It : end();
  }
  const_iterator find(const K &Key) const {
    return const_cast<SortedMap *>(this)->find(Key);
  }
  bool contains(const K &Key) const { return find(Key) != end(); }
  size_t count(const K &Key) const { return contains(Key) ? 1 : 0; }
  /// Inserts (\p Key, \p Value) unless \p Key is there; the entry for the
  /// key, and whether it was inserted.
  std::pair<iterator, bool> insert(const K &Key, V Value) {
    iterator It = lowerBound(Key);
    if (It != end() && !(Key < It->first))
      return {It, false};
    return {Entries.insert(It, Entry(Key, std::move(Value))), true};
  }
  /// The value for \p Key, default-constructed if it was not there.
  V &operator[](const K &Key) { return insert(Key, V()).first->second; }
  iterator erase(iterator It) { return Entries.erase(It); }

  friend bool operator==(const SortedMap &A, const SortedMap &B) {
    return A.Entries == B.Entries;
  }
  friend bool operator!=(const SortedMap &A, const SortedMap &B) {
    return !(A == B);
  }

private:
  iterator lowerBound(const K &Key) {
    return std::lower_bound(
        Entries.begin(), Entries.end(), Key,
        [](const Entry &E, const K &Key) { return E.first < Key; });
  }

  Storage Entries;
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_SORTEDSET_H
