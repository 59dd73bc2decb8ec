//===- ThreadValues.cpp - Per-thread values of hoisted registers ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "ThreadValues.h"

#include "RegisterValues.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <climits>
#include <deque>

using namespace llvm;

namespace tmemcheck {

namespace {

// Cells of the walk besides known values.
constexpr int64_t NotReached = INT64_MIN;    // the thread is not here
constexpr int64_t Unknown = INT64_MIN + 1;   // values disagree or unknown
constexpr int64_t Undefined = INT64_MIN + 2; // not written yet
/// Blocks × threads the walk may hold (8 KiB per block).
constexpr size_t MaxBlocks = 4096;
/// Visits of each block before the walk gives up (each cell changes at
/// most twice, so real code needs a handful).
constexpr size_t VisitsPerBlock = 16;

int64_t joinCell(int64_t A, int64_t B) {
  if (A == NotReached)
    return B;
  if (B == NotReached || A == B)
    return A;
  return Unknown;
}

bool isValue(int64_t C) { return C > Undefined; }

} // namespace

namespace {

/// Threads that no branch, guard or definition of the walked register
/// tells apart take the same path and see the same values, so the walk
/// keeps one cell per class of such threads instead of one per thread (a
/// role dispatch over 384 threads has a handful of classes).
struct ThreadClasses {
  /// The class of each thread below the block's thread count.
  std::vector<uint16_t> Of;
  /// A thread of each class.
  std::vector<unsigned> Representative;

  explicit ThreadClasses(unsigned Threads) : Of(Threads, 0) {
    if (Threads)
      Representative.push_back(0);
  }
  unsigned size() const { return Representative.size(); }

  /// Splits every class by \p Key(thread).
  template <typename KeyFn> void refine(KeyFn Key) {
    DenseMap<std::pair<unsigned, int64_t>, uint16_t> Ids;
    std::vector<unsigned> Reps;
    for (unsigned T = 0; T < Of.size(); ++T) {
      auto [It, New] = Ids.try_emplace({Of[T], Key(T)}, Reps.size());
      if (New)
        Reps.push_back(T);
      Of[T] = It->second;
    }
    Representative = std::move(Reps);
  }
};

} // namespace

std::optional<ThreadTable>
threadValuesAtReads(const ThreadFlowGraph &G, StringRef Reg,
                    const ThreadFlowOracle &O,
                    const std::vector<unsigned> *Touching, unsigned Threads,
                    std::vector<ThreadTable> *Scratch) {
  Threads = std::min(Threads, MaxThreads);
  const size_t K = G.Succs.size();
  const size_t N = G.Instructions.size();
  if (K == 0 || K > MaxBlocks || G.BlockOf.size() != N ||
      G.BranchOf.size() != K)
    return std::nullopt;
  std::vector<unsigned> Begin(K, N), End(K, 0);
  for (unsigned I = 0; I < N; ++I) {
    unsigned B = G.BlockOf[I];
    if (B >= K)
      return std::nullopt;
    Begin[B] = std::min(Begin[B], I);
    End[B] = std::max(End[B], I + 1);
  }
  auto Writes = [&](const ptx::Instruction &I) {
    for (const ptx::Operand *D : RegisterValues::destinations(I))
      if (D->Text == Reg)
        return true;
    return false;
  };
  auto Reads = [&](const ptx::Instruction &I) {
    for (const ptx::Operand *Src : RegisterValues::sources(I))
      if (Src->Text == Reg)
        return true;
    return false;
  };

  // What each thread's path and values depend on: the branches that are
  // functions of %tid.x, and the guards and values of Reg's definitions.
  ThreadClasses Classes(Threads);
  SmallPtrSet<const ThreadSet *, 16> SplitBy;
  auto SplitBySet = [&](const ThreadSet *S) {
    if (S && SplitBy.insert(S).second)
      Classes.refine([&](unsigned T) { return int64_t(S->test(T)); });
  };
  std::vector<const ThreadSet *> ArmsOf(K, nullptr);
  for (unsigned B = 0; B < K; ++B)
    if (G.BranchOf[B] >= 0 && G.Succs[B].size() == 2) {
      const ptx::Instruction &Br = G.Instructions[G.BranchOf[B]];
      if (Br.Pred)
        SplitBySet(ArmsOf[B] = O.Holds(Br.Pred->Predicate));
    }
  // Each definition of Reg: what it writes and under which guard.
  struct Definition {
    std::optional<ThreadTable> Value;
    const ThreadSet *Guard = nullptr;
  };
  DenseMap<unsigned, Definition> Definitions;
  auto Define = [&](unsigned Idx) {
    const ptx::Instruction &I = G.Instructions[Idx];
    if (!Writes(I))
      return;
    Definition &D = Definitions[Idx];
    D.Value = O.DefinedValue(Idx, Reg);
    D.Guard = I.Pred ? O.Holds(I.Pred->Predicate) : nullptr;
    SplitBySet(D.Guard);
    if (const std::optional<ThreadTable> &V = D.Value)
      Classes.refine([&](unsigned T) {
        return T < V->size() ? (*V)[T] : Unknown;
      });
  };
  if (Touching)
    for (unsigned Idx : *Touching)
      Define(Idx);
  else
    for (unsigned Idx = 0; Idx < N; ++Idx)
      Define(Idx);
  const unsigned C = Classes.size();
  const std::vector<unsigned> &Rep = Classes.Representative;

  // The state at each block's entry, one cell per class; empty until the
  // block is reached. A caller's scratch keeps the memory from one walk to
  // the next.
  std::vector<ThreadTable> Local;
  std::vector<ThreadTable> &In = Scratch ? *Scratch : Local;
  In.resize(K);
  for (ThreadTable &Cells : In)
    Cells.clear();
  In[0].assign(C, Undefined);
  ThreadTable ReadValue(C, NotReached);
  std::deque<unsigned> Work{0};
  std::vector<uint8_t> Queued(K, 0);
  Queued[0] = 1;
  size_t Visits = 0;
  while (!Work.empty()) {
    if (++Visits > K * VisitsPerBlock)
      return std::nullopt;
    unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = 0;
    // The block's instructions, or only those that touch Reg; a block
    // that touches nothing passes its state on as it is (no copy).
    const unsigned *First = nullptr, *Last = nullptr;
    if (Touching) {
      ArrayRef<unsigned> All(*Touching);
      First = std::lower_bound(All.begin(), All.end(), Begin[B]);
      Last = std::lower_bound(First, All.end(), End[B]);
    }
    ThreadTable Changed;
    if (!Touching || First != Last)
      Changed = In[B];
    const ThreadTable &S = Changed.empty() ? In[B] : Changed;
    for (unsigned Step = Touching ? 0 : Begin[B],
                  Steps = Touching ? unsigned(Last - First) : End[B];
         Step < Steps; ++Step) {
      const unsigned Idx = Touching ? First[Step] : Step;
      const ptx::Instruction &I = G.Instructions[Idx];
      if (Reads(I))
        for (unsigned X = 0; X < C; ++X) {
          if (S[X] == NotReached)
            continue;
          if (!isValue(S[X]))
            return std::nullopt; // a read of an unproved value
          ReadValue[X] = joinCell(ReadValue[X], S[X]);
          if (ReadValue[X] == Unknown)
            return std::nullopt; // different values at different reads
        }
      auto Def = Definitions.find(Idx);
      if (Def == Definitions.end())
        continue;
      const std::optional<ThreadTable> &V = Def->second.Value;
      const ThreadSet *Guard = Def->second.Guard;
      for (unsigned X = 0; X < C; ++X) {
        if (S[X] == NotReached)
          continue;
        const unsigned T = Rep[X];
        int64_t New = V && T < V->size() ? (*V)[T] : Unknown;
        if (!I.Pred)
          Changed[X] = New;
        else if (Guard)
          Changed[X] = Guard->test(T) != I.Pred->Negated ? New : S[X];
        else
          Changed[X] = joinCell(S[X], New); // it may or may not be written
      }
    }
    // Threads go on along the arm their %tid.x selects; along both when
    // the branch is not a function of %tid.x.
    const ThreadSet *Arms = ArmsOf[B];
    for (unsigned Arm = 0; Arm < G.Succs[B].size(); ++Arm) {
      unsigned To = G.Succs[B][Arm];
      if (To >= K)
        continue;
      bool Changed = false;
      if (In[To].empty()) {
        In[To].assign(C, NotReached);
        Changed = true;
      }
      for (unsigned X = 0; X < C; ++X) {
        if (S[X] == NotReached || (Arms && Arms->test(Rep[X]) != (Arm == 0)))
          continue;
        int64_t J = joinCell(In[To][X], S[X]);
        if (J != In[To][X]) {
          In[To][X] = J;
          Changed = true;
        }
      }
      if (Changed && !Queued[To]) {
        Queued[To] = 1;
        Work.push_back(To);
      }
    }
  }

  // Threads that read nothing take a value of their warp, else of the
  // nearest warp that has one.
  ThreadTable ReadBy(MaxThreads, NotReached);
  for (unsigned T = 0; T < Threads; ++T)
    ReadBy[T] = ReadValue[Classes.Of[T]];
  constexpr unsigned Warps = MaxThreads / 32;
  std::vector<int64_t> WarpValue(Warps, NotReached);
  for (unsigned T = 0; T < MaxThreads; ++T)
    if (ReadBy[T] != NotReached && WarpValue[T / 32] == NotReached)
      WarpValue[T / 32] = ReadBy[T];
  if (llvm::all_of(WarpValue, [](int64_t V) { return V == NotReached; }))
    return std::nullopt;
  for (unsigned W = 0; W < Warps; ++W)
    for (unsigned D = 1; WarpValue[W] == NotReached && D < Warps; ++D) {
      if (W >= D && isValue(WarpValue[W - D]))
        WarpValue[W] = WarpValue[W - D];
      else if (W + D < Warps && isValue(WarpValue[W + D]))
        WarpValue[W] = WarpValue[W + D];
    }
  ThreadTable Out(MaxThreads);
  for (unsigned T = 0; T < MaxThreads; ++T)
    Out[T] = ReadBy[T] != NotReached ? ReadBy[T] : WarpValue[T / 32];
  return Out;
}

} // namespace tmemcheck
