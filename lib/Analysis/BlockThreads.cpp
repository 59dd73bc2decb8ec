//===- BlockThreads.cpp - Threads that may run each block -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/BlockThreads.h"

#include "llvm/ADT/BitVector.h"

#include <algorithm>
#include <deque>

namespace tmemcheck {

namespace {

/// The per-thread tables' size (a 1-D block of up to 1024 threads).
constexpr unsigned TableThreads = 1024;

llvm::BitVector bitsOf(const std::vector<uint8_t> &Mask) {
  llvm::BitVector Out(TableThreads);
  for (size_t T = 0; T < Mask.size() && T < TableThreads; ++T)
    if (Mask[T])
      Out.set(T);
  return Out;
}

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
  std::vector<llvm::BitVector> In(N, llvm::BitVector(TableThreads));
  std::vector<llvm::BitVector> TrueArm(N), FalseArm(N);
  for (unsigned B = 0; B < N; ++B)
    if (G.Blocks[B].ThreadsOnTrueArm) {
      TrueArm[B] = bitsOf(*G.Blocks[B].ThreadsOnTrueArm);
      FalseArm[B] = TrueArm[B];
      FalseArm[B].flip();
    }
  In[G.Entry].set(0, Size);
  std::deque<unsigned> Work{G.Entry};
  std::vector<uint8_t> Queued(N, 0);
  Queued[G.Entry] = 1;
  while (!Work.empty()) {
    const unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = 0;
    const Block &Blk = G.Blocks[B];
    for (unsigned S : Blk.Succs) {
      const llvm::BitVector *Flow = &In[B];
      llvm::BitVector Narrowed;
      // Only an arm that is not also the other arm's target narrows.
      if (Blk.ThreadsOnTrueArm && Blk.TrueArmBlock != Blk.FalseArmBlock &&
          (S == Blk.TrueArmBlock || S == Blk.FalseArmBlock)) {
        Narrowed = In[B];
        Narrowed &= S == Blk.TrueArmBlock ? TrueArm[B] : FalseArm[B];
        Flow = &Narrowed;
      }
      // BitVector::test: whether the flow has threads S does not have yet.
      if (!Flow->test(In[S]))
        continue;
      In[S] |= *Flow;
      if (!Queued[S]) {
        Queued[S] = 1;
        Work.push_back(S);
      }
    }
  }
  // A block the flow did not reach (no thread known to run it) is left
  // unnarrowed: an empty set would make its accesses nobody's.
  for (unsigned B = 0; B < N; ++B)
    if (!In[B].all() && !In[B].none())
      Masks[B] = internBits(In[B]);
}

ThreadMask BlockThreads::internBits(const llvm::BitVector &Bits) {
  // Keyed by the 16 words of the set, so that the 1024-entry table is made
  // (and compared) once per distinct set, not once per block.
  std::vector<uint64_t> Key(Bits.getData().begin(), Bits.getData().end());
  auto It = InternedBits.find(Key);
  if (It != InternedBits.end())
    return It->second;
  std::vector<uint8_t> Mask(TableThreads, 0);
  for (unsigned T : Bits.set_bits())
    Mask[T] = 1;
  ThreadMask Out = intern(std::move(Mask));
  InternedBits.emplace(std::move(Key), Out);
  return Out;
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
    return It->second;
  std::vector<uint8_t> Both(std::max(A->size(), B->size()), 0);
  for (size_t T = 0; T < Both.size(); ++T)
    Both[T] = T < A->size() && T < B->size() && (*A)[T] && (*B)[T];
  ThreadMask Out = intern(std::move(Both));
  Intersections.emplace(Key, Out);
  return Out;
}

} // namespace tmemcheck
