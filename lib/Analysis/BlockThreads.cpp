//===- BlockThreads.cpp - Threads that may run each block -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BlockThreads.h"

#include "llvm/Support/Endian.h"

#include <algorithm>
#include <deque>

namespace tmemcheck {

namespace {

/// The per-thread tables' size (a 1-D block of up to 1024 threads).
constexpr unsigned TableThreads = 1024;

/// Sets of the table's threads, 16 words each, for every block of a graph
/// in one array.
class ThreadSets {
public:
  static constexpr unsigned Words = TableThreads / 64;
  explicit ThreadSets(unsigned Blocks) : Bits(size_t(Blocks) * Words, 0) {}
  uint64_t *of(unsigned B) { return Bits.data() + size_t(B) * Words; }
  static bool none(const uint64_t *Set) {
    return std::all_of(Set, Set + Words, [](uint64_t W) { return W == 0; });
  }
  static bool all(const uint64_t *Set) {
    return std::all_of(Set, Set + Words, [](uint64_t W) { return ~W == 0; });
  }

  /// The threads of a per-thread table (a byte per thread) into \p Set,
  /// eight threads at a time.
  static void pack(const std::vector<uint8_t> &Table, uint64_t *Set) {
    const size_t N = std::min<size_t>(Table.size(), TableThreads);
    size_t T = 0;
    for (; T + 8 <= N; T += 8)
      Set[T / 64] |= uint64_t(packEightBytes(
                         llvm::support::endian::read64le(Table.data() + T)))
                     << (T % 64);
    for (; T < N; ++T)
      Set[T / 64] |= uint64_t(Table[T] != 0) << (T % 64);
  }
  /// \p Set as a per-thread table of TableThreads bytes.
  static std::vector<uint8_t> unpack(const uint64_t *Set) {
    std::vector<uint8_t> Table(TableThreads);
    for (unsigned T = 0; T < TableThreads; T += 8)
      llvm::support::endian::write64le(
          Table.data() + T, spreadEightBits(uint8_t(Set[T / 64] >> (T % 64))));
    return Table;
  }

private:
  /// Eight bytes (the first in the low byte) as eight bits, bit I set when
  /// byte I is not zero: each byte is made 0 or 1, and the multiplication
  /// gathers the eight low bits into the top byte, without carries.
  static uint8_t packEightBytes(uint64_t Bytes) {
    uint64_t NonZero =
        (((Bytes & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | Bytes) &
        0x8080808080808080ULL;
    return uint8_t(((NonZero >> 7) * 0x0102040810204080ULL) >> 56);
  }
  /// The inverse: byte I of the result is bit I of \p Bits.
  static uint64_t spreadEightBits(uint8_t Bits) {
    uint64_t Kept = (Bits * 0x0101010101010101ULL) & 0x8040201008040201ULL;
    return ((Kept + 0x7F7F7F7F7F7F7F7FULL) >> 7) & 0x0101010101010101ULL;
  }

  std::vector<uint64_t> Bits;
};

} // namespace

BlockThreads::BlockThreads(const KernelGraph &G) : Masks(G.Blocks.size()) {
  const unsigned N = G.Blocks.size();
  if (N == 0)
    return;
  // Nothing narrows: every block runs in every thread (null masks).
  const bool AnyArm = llvm::any_of(
      G.Blocks, [](const Block &B) { return bool(B.ThreadsOnTrueArm); });
  const unsigned Size = G.MaxThreadsPerBlock && G.MaxThreadsPerBlock < TableThreads
                            ? G.MaxThreadsPerBlock
                            : TableThreads;
  if (!AnyArm && Size == TableThreads)
    return;
  if (!AnyArm) {
    // Only the block's size narrows: every block the entry reaches runs in
    // threads [0, Size), the flow below without its work (most kernels
    // declare __launch_bounds__ and branch on no per-thread table).
    std::vector<uint8_t> Mask(TableThreads, 0);
    std::fill(Mask.begin(), Mask.begin() + Size, 1);
    ThreadMask Launched = intern(std::move(Mask));
    for (unsigned B : G.reversePostOrder())
      Masks[B] = Launched;
    return;
  }
  // One flat array of 16-word sets per block: no allocation per block or
  // per edge.
  ThreadSets In(N), TrueArm(N), FalseArm(N);
  for (unsigned B = 0; B < N; ++B)
    if (const ThreadMask &Arm = G.Blocks[B].ThreadsOnTrueArm) {
      uint64_t *T = TrueArm.of(B), *F = FalseArm.of(B);
      ThreadSets::pack(*Arm, T);
      for (unsigned W = 0; W < ThreadSets::Words; ++W)
        F[W] = ~T[W];
    }
  {
    uint64_t *Entry = In.of(G.Entry);
    for (unsigned T = 0; T < Size; ++T)
      Entry[T / 64] |= uint64_t(1) << (T % 64);
  }
  std::deque<unsigned> Work{G.Entry};
  std::vector<uint8_t> Queued(N, 0);
  Queued[G.Entry] = 1;
  uint64_t Flow[ThreadSets::Words];
  while (!Work.empty()) {
    const unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = 0;
    const Block &Blk = G.Blocks[B];
    const uint64_t *From = In.of(B);
    for (unsigned S : Blk.Succs) {
      // Only an arm that is not also the other arm's target narrows.
      const uint64_t *Arm = nullptr;
      if (Blk.ThreadsOnTrueArm && Blk.TrueArmBlock != Blk.FalseArmBlock &&
          (S == Blk.TrueArmBlock || S == Blk.FalseArmBlock))
        Arm = S == Blk.TrueArmBlock ? TrueArm.of(B) : FalseArm.of(B);
      uint64_t *To = In.of(S);
      bool Grows = false;
      for (unsigned W = 0; W < ThreadSets::Words; ++W) {
        Flow[W] = Arm ? From[W] & Arm[W] : From[W];
        Grows |= (Flow[W] & ~To[W]) != 0;
      }
      if (!Grows)
        continue;
      for (unsigned W = 0; W < ThreadSets::Words; ++W)
        To[W] |= Flow[W];
      if (!Queued[S]) {
        Queued[S] = 1;
        Work.push_back(S);
      }
    }
  }
  // A block the flow did not reach (no thread known to run it) is left
  // unnarrowed: an empty set would make its accesses nobody's. Blocks share
  // few distinct sets: each is made into a table once.
  std::vector<std::pair<const uint64_t *, ThreadMask>> Made;
  for (unsigned B = 0; B < N; ++B) {
    const uint64_t *Set = In.of(B);
    if (ThreadSets::none(Set) || ThreadSets::all(Set))
      continue;
    auto Same = llvm::find_if(Made, [&](const auto &M) {
      return std::equal(Set, Set + ThreadSets::Words, M.first);
    });
    if (Same == Made.end()) {
      Made.push_back({Set, intern(ThreadSets::unpack(Set))});
      Same = std::prev(Made.end());
    }
    Masks[B] = Same->second;
  }
}

ThreadMask BlockThreads::intern(std::vector<uint8_t> Mask) {
  auto It = Interned.find(Mask);
  if (It != Interned.end())
    return It->second;
  auto Shared = std::make_shared<const std::vector<uint8_t>>(Mask);
  Interned.emplace(std::move(Mask), Shared);
  return Shared;
}

ThreadMask BlockThreads::intersect(const ThreadMask &A, const ThreadMask &B) {
  if (!A)
    return B;
  if (!B || A == B)
    return A;
  // (std::minmax would return references to the temporaries.)
  const void *PA = A.get(), *PB = B.get();
  const std::pair<const void *, const void *> Key =
      PA < PB ? std::make_pair(PA, PB) : std::make_pair(PB, PA);
  auto It = Intersections.find(Key);
  if (It != Intersections.end())
    return It->second.Both;
  std::vector<uint8_t> Both(std::max(A->size(), B->size()), 0);
  for (size_t T = 0; T < Both.size(); ++T)
    Both[T] = T < A->size() && T < B->size() && (*A)[T] && (*B)[T];
  ThreadMask Out = intern(std::move(Both));
  Intersections.emplace(Key, Intersection{A, B, Out});
  return Out;
}

} // namespace tmemcheck
