//===- SortedSetTest.cpp - The vector-backed sets of the dataflow states --===//
//
// Part of tmemcheck. SortedSet and SortedMap replace std::set and std::map
// in the analyses' states: they must behave like them, iteration order
// included, inline and spilled to the heap alike. SortedSetInterner's ids
// must name the same sets however they were reached.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/SortedSet.h"
#include "tmemcheck/Analysis/SortedSetInterner.h"

#include "gtest/gtest.h"

#include <map>
#include <random>
#include <set>
#include <vector>

using namespace tmemcheck;

namespace {

template <typename S> std::vector<unsigned> elements(const S &Set) {
  return std::vector<unsigned>(Set.begin(), Set.end());
}

TEST(SortedSetTest, InsertKeepsOrderAndUniqueness) {
  SortedSet<unsigned> S;
  EXPECT_TRUE(S.empty());
  EXPECT_TRUE(S.insert(5));
  EXPECT_TRUE(S.insert(1));
  EXPECT_TRUE(S.insert(9));
  EXPECT_FALSE(S.insert(5));
  EXPECT_EQ(elements(S), (std::vector<unsigned>{1, 5, 9}));
  EXPECT_EQ(S.size(), 3u);
  EXPECT_TRUE(S.contains(9));
  EXPECT_EQ(S.count(2), 0u);
  EXPECT_TRUE(S.erase(5));
  EXPECT_FALSE(S.erase(5));
  EXPECT_EQ(elements(S), (std::vector<unsigned>{1, 9}));
  S.clear();
  EXPECT_TRUE(S.empty());
}

TEST(SortedSetTest, UnionAndIntersection) {
  SortedSet<unsigned> A{1, 3, 5, 7}, B{2, 3, 8};
  SortedSet<unsigned> U = A;
  U.unionWith(B);
  EXPECT_EQ(elements(U), (std::vector<unsigned>{1, 2, 3, 5, 7, 8}));
  SortedSet<unsigned> I = A;
  I.intersectWith(B);
  EXPECT_EQ(elements(I), (std::vector<unsigned>{3}));
  // Into an empty set, and all after: the shortcuts.
  SortedSet<unsigned> E;
  E.unionWith(B);
  EXPECT_EQ(E, B);
  SortedSet<unsigned> Low{1, 2};
  Low.unionWith(SortedSet<unsigned>{4, 6});
  EXPECT_EQ(elements(Low), (std::vector<unsigned>{1, 2, 4, 6}));
  SortedSet<unsigned> None = A;
  None.intersectWith(SortedSet<unsigned>());
  EXPECT_TRUE(None.empty());
  EXPECT_NE(A, B);
}

TEST(SortedSetTest, EraseIf) {
  SortedSet<unsigned> S{1, 2, 3, 4, 5, 6};
  std::vector<unsigned> Asked;
  S.eraseIf([&](unsigned V) {
    Asked.push_back(V);
    return V % 2 == 0;
  });
  EXPECT_EQ(elements(S), (std::vector<unsigned>{1, 3, 5}));
  // Asked in ascending order, as a loop over a std::set does.
  EXPECT_EQ(Asked, (std::vector<unsigned>{1, 2, 3, 4, 5, 6}));
}

/// Random operations on a SortedSet and a std::set agree, past the inline
/// capacity.
TEST(SortedSetTest, AgreesWithStdSet) {
  std::mt19937 Rng(12);
  for (unsigned Round = 0; Round < 200; ++Round) {
    SortedSet<unsigned, 2> A, B;
    std::set<unsigned> SA, SB;
    for (unsigned I = 0; I < 40; ++I) {
      unsigned V = Rng() % 30;
      switch (Rng() % 4) {
      case 0:
        EXPECT_EQ(A.insert(V), SA.insert(V).second);
        break;
      case 1:
        B.insert(V);
        SB.insert(V);
        break;
      case 2:
        EXPECT_EQ(A.erase(V), SA.erase(V) == 1);
        break;
      default:
        EXPECT_EQ(A.contains(V), SA.count(V) == 1);
      }
    }
    SortedSet<unsigned, 2> U = A, I = A;
    U.unionWith(B);
    I.intersectWith(B);
    std::set<unsigned> SU = SA, SI;
    SU.insert(SB.begin(), SB.end());
    for (unsigned V : SA)
      if (SB.count(V))
        SI.insert(V);
    EXPECT_EQ(elements(U), std::vector<unsigned>(SU.begin(), SU.end()));
    EXPECT_EQ(elements(I), std::vector<unsigned>(SI.begin(), SI.end()));
    EXPECT_EQ(A == B, SA == SB);
  }
}

TEST(SortedMapTest, BehavesLikeStdMap) {
  SortedMap<uint64_t, SortedSet<unsigned>> M;
  M[7].insert(1);
  M[3].insert(2);
  M[7].insert(4);
  auto [It, New] = M.insert(3, SortedSet<unsigned>{9});
  EXPECT_FALSE(New);
  EXPECT_EQ(elements(It->second), (std::vector<unsigned>{2}));
  EXPECT_TRUE(M.insert(5, SortedSet<unsigned>{9}).second);
  std::vector<uint64_t> Keys;
  for (const auto &[K, V] : M)
    Keys.push_back(K);
  EXPECT_EQ(Keys, (std::vector<uint64_t>{3, 5, 7}));
  EXPECT_TRUE(M.contains(5));
  EXPECT_EQ(M.count(5), 1u);
  EXPECT_EQ(M.count(4), 0u);
  EXPECT_EQ(M.find(4), M.end());
  M.erase(M.find(5));
  EXPECT_FALSE(M.contains(5));
  EXPECT_EQ(M.size(), 2u);
  auto Copy = M;
  EXPECT_EQ(Copy, M);
  Copy[3].insert(8);
  EXPECT_NE(Copy, M);
}

TEST(SortedSetInternerTest, EqualSetsHaveEqualIds) {
  SortedSetInterner<uint64_t> Sets;
  using Id = SortedSetInterner<uint64_t>::Id;
  const Id Empty = 0;
  EXPECT_TRUE(Sets.set(Empty).empty());
  Id A = Sets.withInserted(Sets.withInserted(Empty, 7), 3);
  Id B = Sets.withInserted(Sets.withInserted(Empty, 3), 7);
  EXPECT_EQ(A, B);
  EXPECT_EQ(Sets.withInserted(A, 7), A);
  EXPECT_EQ(Sets.intern(SortedSet<uint64_t>{3, 7}), A);
  EXPECT_TRUE(Sets.contains(A, 3));
  EXPECT_FALSE(Sets.contains(A, 5));
  EXPECT_EQ(Sets.set(A).size(), 2u);
}

TEST(SortedSetInternerTest, IntersectionMatchesTheSets) {
  // Random sets over a small universe, intersected through the memo in
  // both argument orders and against SortedSet::intersectWith.
  SortedSetInterner<uint64_t> Sets;
  using Id = SortedSetInterner<uint64_t>::Id;
  std::mt19937 Rng(7);
  std::vector<Id> Ids;
  for (int I = 0; I < 40; ++I) {
    Id S = 0;
    for (int E = 0; E < 6; ++E)
      if (Rng() % 2)
        S = Sets.withInserted(S, Rng() % 10);
    Ids.push_back(S);
  }
  for (Id X : Ids)
    for (Id Y : Ids) {
      SortedSet<uint64_t> Expected = Sets.set(X);
      Expected.intersectWith(Sets.set(Y));
      Id Both = Sets.intersection(X, Y);
      EXPECT_EQ(Sets.set(Both), Expected);
      EXPECT_EQ(Sets.intersection(Y, X), Both);
      EXPECT_EQ(Sets.intern(Expected), Both);
    }
  EXPECT_EQ(Sets.intersection(Ids[0], 0), 0u);
}

} // namespace
