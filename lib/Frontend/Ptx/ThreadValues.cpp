//===- ThreadValues.cpp - Per-thread values of hoisted registers ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "ThreadValues.h"

#include "RegisterValues.h"

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

  // The state at each block's entry, Threads cells wide (threads past the
  // block's never run); empty until the block is reached. A caller's
  // scratch keeps the memory from one walk to the next.
  std::vector<ThreadTable> Local;
  std::vector<ThreadTable> &In = Scratch ? *Scratch : Local;
  In.resize(K);
  for (ThreadTable &Cells : In)
    Cells.clear();
  In[0].assign(Threads, Undefined);
  ThreadTable Reads(MaxThreads, NotReached);
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
      for (const ptx::Operand *Src : RegisterValues::sources(I))
        if (Src->Text == Reg) {
          for (unsigned T = 0; T < Threads; ++T) {
            if (S[T] == NotReached)
              continue;
            if (!isValue(S[T]))
              return std::nullopt; // a read of an unproved value
            Reads[T] = joinCell(Reads[T], S[T]);
            if (Reads[T] == Unknown)
              return std::nullopt; // different values at different reads
          }
          break;
        }
      bool Writes = false;
      for (const ptx::Operand *D : RegisterValues::destinations(I))
        Writes |= D->Text == Reg;
      if (!Writes)
        continue;
      std::optional<ThreadTable> V = O.DefinedValue(Idx, Reg);
      const ThreadSet *Guard = I.Pred ? O.Holds(I.Pred->Predicate) : nullptr;
      for (unsigned T = 0; T < Threads; ++T) {
        if (S[T] == NotReached)
          continue;
        int64_t New = V && T < V->size() ? (*V)[T] : Unknown;
        if (!I.Pred)
          Changed[T] = New;
        else if (Guard)
          Changed[T] = Guard->test(T) != I.Pred->Negated ? New : S[T];
        else
          Changed[T] = joinCell(S[T], New); // it may or may not be written
      }
    }
    // Threads go on along the arm their %tid.x selects; along both when
    // the branch is not a function of %tid.x.
    const ThreadSet *Arms = nullptr;
    if (G.BranchOf[B] >= 0 && G.Succs[B].size() == 2) {
      const ptx::Instruction &Br = G.Instructions[G.BranchOf[B]];
      if (Br.Pred)
        Arms = O.Holds(Br.Pred->Predicate);
    }
    for (unsigned Arm = 0; Arm < G.Succs[B].size(); ++Arm) {
      unsigned To = G.Succs[B][Arm];
      if (To >= K)
        continue;
      bool Changed = false;
      if (In[To].empty()) {
        In[To].assign(Threads, NotReached);
        Changed = true;
      }
      for (unsigned T = 0; T < Threads; ++T) {
        if (S[T] == NotReached || (Arms && Arms->test(T) != (Arm == 0)))
          continue;
        int64_t J = joinCell(In[To][T], S[T]);
        if (J != In[To][T]) {
          In[To][T] = J;
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
  constexpr unsigned Warps = MaxThreads / 32;
  std::vector<int64_t> WarpValue(Warps, NotReached);
  for (unsigned T = 0; T < MaxThreads; ++T)
    if (Reads[T] != NotReached && WarpValue[T / 32] == NotReached)
      WarpValue[T / 32] = Reads[T];
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
    Out[T] = Reads[T] != NotReached ? Reads[T] : WarpValue[T / 32];
  return Out;
}

} // namespace tmemcheck
