//===- Completion.cpp - Per-thread completion of async tcgen05 ops --------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/Completion.h"

#include "BarrierGates.h"

#include "tmemcheck/Analysis/BlockThreads.h"

#include "tmemcheck/Analysis/ForwardDataflow.h"

#include "tmemcheck/Analysis/Lifecycle.h"
#include "tmemcheck/Analysis/SortedSet.h"
#include "tmemcheck/Analysis/SortedSetInterner.h"
#include "tmemcheck/Analysis/ValueRange.h"
#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/BitVector.h"

#include <deque>
#include <limits>
#include <map>
#include <tuple>

namespace tmemcheck {

namespace {

/// What one thread has outstanding at a program point, over its paths.
struct ThreadState {
  using EventSet = SortedSet<unsigned>;
  /// Sets of mbarriers, by their id in the analysis' BarrierSets (an
  /// mma's entry in WaitedAfterMma is copied at every join).
  using BarrierSetId = SortedSetInterner<uint64_t>::Id;
  EventSet Loads;  ///< ld not yet waited for
  EventSet Stores; ///< st not yet waited for
  /// Pending ld that a later st of this thread follows, that st not yet
  /// waited for.
  EventSet LoadsBeforeStore;
  /// ld complete under PTX ISA 9.4 only: a st of this thread followed it
  /// (9.4 pipelines ld -> st of one warp, rules §5.1) and a wait::st
  /// completed that st. Not in Loads; a path with it still in Loads wins.
  EventSet LoadsOrderedByStore;
  EventSet Async;  ///< mma/cp/shift not yet committed
  /// Every mma/cp/shift issued so far: a commit tracks all of them, not
  /// only those since the previous commit (rules §2, commit).
  EventSet Issued;
  /// Ops some path has committed (a may-set): an op is reported in flight
  /// at a dealloc only when no path committed it, since which lane an
  /// election picks cannot be matched between an mma and its commit.
  EventSet EverCommitted;
  /// Committed ops per mbarrier, not yet waited for by this thread.
  SortedMap<uint64_t, EventSet> Committed;
  /// mbarriers waited on along every path here (a must-set); Top until a
  /// path reached the point.
  BarrierSetId Waited = 0;
  /// Ops of this thread it saw complete (commit -> its own wait) along
  /// every path here; part of the must-state like Waited.
  EventSet Completed;
  /// Per mma: the mbarriers waited on along every path here that issued
  /// it (Waited restricted to those paths). A path on which the mma was
  /// never issued, such as the zero-trip path of the loop around it, does
  /// not read its result and leaves no entry.
  SortedMap<unsigned, BarrierSetId> WaitedAfterMma;
  bool Top = true;

  friend bool operator==(const ThreadState &A, const ThreadState &B) {
    return A.Loads == B.Loads && A.Stores == B.Stores &&
           A.LoadsBeforeStore == B.LoadsBeforeStore &&
           A.LoadsOrderedByStore == B.LoadsOrderedByStore &&
           A.Async == B.Async && A.Issued == B.Issued &&
           A.EverCommitted == B.EverCommitted && A.Committed == B.Committed &&
           A.Waited == B.Waited && A.Completed == B.Completed &&
           A.WaitedAfterMma == B.WaitedAfterMma && A.Top == B.Top;
  }
};

void joinInto(ThreadState &R, const ThreadState &P,
              SortedSetInterner<uint64_t> &BarrierSets) {
  R.Loads.unionWith(P.Loads);
  R.Stores.unionWith(P.Stores);
  R.LoadsBeforeStore.unionWith(P.LoadsBeforeStore);
  R.LoadsOrderedByStore.unionWith(P.LoadsOrderedByStore);
  R.LoadsOrderedByStore.eraseIf(
      [&](unsigned Op) { return R.Loads.count(Op) != 0; });
  R.Async.unionWith(P.Async);
  R.Issued.unionWith(P.Issued);
  R.EverCommitted.unionWith(P.EverCommitted);
  for (const auto &[M, Ops] : P.Committed)
    R.Committed[M].unionWith(Ops);
  if (R.Top) {
    R.Waited = P.Waited;
    R.Completed = P.Completed;
    R.WaitedAfterMma = P.WaitedAfterMma;
    R.Top = P.Top;
  } else if (!P.Top) {
    for (const auto &[Mma, Ms] : P.WaitedAfterMma) {
      auto [It, New] = R.WaitedAfterMma.insert(Mma, Ms);
      if (!New)
        It->second = BarrierSets.intersection(It->second, Ms);
    }
    R.Waited = BarrierSets.intersection(R.Waited, P.Waited);
    R.Completed.intersectWith(P.Completed);
  }
}

bool isTmem(const Event &E, TmemOpKind K) {
  return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == K;
}

const AbstractValue *operand(const Event &E, int I) {
  if (I < 0 || static_cast<size_t>(I) >= E.Operands.size())
    return nullptr;
  return &E.Operands[I].Value;
}

/// \p WithTensorSpans: for the hand-off analysis, the columns of CuTe
/// tensors too.
std::optional<TmemRange> rangeOf(const Event &E, int I,
                                 std::optional<int64_t> Width,
                                 bool WithTensorSpans = false) {
  const AbstractValue *V = operand(E, I);
  if (!V || !V->isTmemAddress() || !V->Slot)
    return std::nullopt;
  // The columns the C++ front end bounds through CuTe's tensors
  // (ColumnSpanEnd) only tell hand-offs apart: no finding rests on them,
  // since the reads of the registers such loads fill, which make a load
  // complete (tmem-ld-use-before-wait), are not followed through CuTe's
  // register tensors.
  if (V->ColumnSpanEnd && !WithTensorSpans)
    return std::nullopt;
  TmemRange R;
  R.Slot = V->Slot;
  const int64_t Offset = E.Operands[I].AddressOffset;
  if (V->ColumnOffset)
    R.Column = *V->ColumnOffset + Offset;
  else if (V->ColumnRange && Width && *Width > 0) {
    int64_t Hi = V->ColumnRange->Hi + *Width - 1;
    if (V->ColumnSpanEnd)
      Hi = std::min(Hi, *V->ColumnSpanEnd - 1);
    R.Span = IntRange{V->ColumnRange->Lo + Offset, Hi + Offset};
  }
  // An access of unknown width through a CuTe tensor (an mma whose
  // instruction descriptor is built at run time, writing its D tensor):
  // the tensor's span bounds it.
  if ((!Width || *Width <= 0) && V->ColumnSpanEnd) {
    std::optional<int64_t> Lo = V->ColumnOffset ? V->ColumnOffset
                                : V->ColumnRange
                                    ? std::optional<int64_t>(V->ColumnRange->Lo)
                                    : std::nullopt;
    if (Lo && *Lo < *V->ColumnSpanEnd)
      R.Span = IntRange{*Lo + Offset, *V->ColumnSpanEnd - 1 + Offset};
  }
  R.Width = Width;
  return R;
}

/// Columns the mma writes into D, from a constant instruction descriptor,
/// or the most of one of a few (CuTe DSL selects the descriptor of each
/// k-block: `{0x8200010, 0x8202010, ...}`, which differ in the operand
/// offsets only).
std::optional<int64_t> mmaWidth(const Event &E) {
  const TmemOp &Op = *E.Op;
  const AbstractValue *Idesc = operand(E, Op.IdescOperand);
  if (!Op.Mma || !Idesc)
    return std::nullopt;
  std::vector<int64_t> Descriptors = possibleConstants(*Idesc);
  if (Descriptors.empty())
    return std::nullopt;
  std::optional<int64_t> Widest;
  for (int64_t D : Descriptors) {
    std::optional<MmaShape> Shape =
        decodeInstructionDescriptor(*Op.Mma, static_cast<uint32_t>(D));
    if (!Shape)
      return std::nullopt;
    std::optional<Footprint> F = mmaAccumulatorFootprint(Op, *Shape);
    if (!F)
      return std::nullopt;
    Widest = std::max(Widest.value_or(0), int64_t(F->Columns));
  }
  return Widest;
}

/// Ranges an mma reads from TMEM other than D: A, scale factors, metadata.
std::vector<TmemRange> mmaTmemInputs(const Event &E) {
  std::vector<TmemRange> Out;
  const TmemOp &Op = *E.Op;
  // A from TMEM: 256 bits per row per instruction = 8 columns (half for
  // sparse A), rules §3.4; scale factors and metadata: width unknown.
  if (Op.ATmem)
    if (auto R = rangeOf(E, Op.ADescOrTmemOperand,
                         std::optional<int64_t>(Op.Sparse ? 4 : 8)))
      Out.push_back(*R);
  for (int I : {Op.SfaOperand, Op.SfbOperand, Op.SparseMetaOperand})
    if (auto R = rangeOf(E, I, std::nullopt))
      Out.push_back(*R);
  return Out;
}

bool releases(const Event &E) {
  if (E.K != Event::Kind::Sync || !E.Sync)
    return false;
  return E.Sync->Kind == SyncOpKind::MbarrierArrive ||
         (E.Sync->Kind == SyncOpKind::ClusterBarrier && E.Sync->IsArrive);
}

} // namespace

std::vector<TmemRange> mmaInputRanges(const Event &E) {
  if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Mma)
    return {};
  return mmaTmemInputs(E);
}

/// The columns \p R may touch, inclusive: its exact columns or its span.
static std::optional<IntRange> columnsOf(const TmemRange &R) {
  if (R.Column && R.Width)
    return IntRange{*R.Column, *R.Column + *R.Width - 1};
  return R.Span;
}

bool mayOverlap(const TmemRange &A, const TmemRange &B) {
  if (A.Slot != B.Slot)
    return false;
  std::optional<IntRange> CA = columnsOf(A), CB = columnsOf(B);
  if (!CA || !CB)
    return true;
  return CA->Lo <= CB->Hi && CB->Lo <= CA->Hi;
}

/// accessRange(), the columns of CuTe tensors included when \p
/// WithTensorSpans.
static std::optional<TmemRange> accessRangeOf(const Event &E,
                                              bool WithTensorSpans) {
  if (E.K != Event::Kind::Tmem || !E.Op)
    return std::nullopt;
  const TmemOp &Op = *E.Op;
  switch (Op.Kind) {
  case TmemOpKind::Load:
  case TmemOpKind::Store:
  case TmemOpKind::Copy:
  case TmemOpKind::Shift: {
    int64_t W = Op.Access.Columns;
    if (Op.Access.SecondHalfOffset)
      W = std::max<int64_t>(W, *Op.Access.SecondHalfOffset + Op.Access.Columns);
    return rangeOf(E, Op.TmemAddrOperand,
                   W > 0 ? std::optional<int64_t>(W) : std::nullopt,
                   WithTensorSpans);
  }
  case TmemOpKind::Mma:
    return rangeOf(E, Op.TmemAddrOperand, mmaWidth(E), WithTensorSpans);
  case TmemOpKind::Dealloc:
    return rangeOf(E, Op.TmemAddrOperand, std::nullopt, WithTensorSpans);
  default:
    return std::nullopt;
  }
}

std::optional<TmemRange> accessRange(const Event &E) {
  return accessRangeOf(E, /*WithTensorSpans=*/false);
}

/// accessRange(), or for an address that is one of a few columns (an
/// accumulator stage, `base + stage * 128`) the span of them all: what a
/// hand-off may touch. An address known thread by thread (a role's own
/// columns) spans only the columns of \p Threads.
static std::optional<TmemRange> handOffRange(const Event &E,
                                             const ThreadMask &Threads = {}) {
  std::optional<TmemRange> R = accessRangeOf(E, /*WithTensorSpans=*/true);
  if (!R || R->Column || !E.Op)
    return R;
  const AbstractValue *V = operand(E, E.Op->TmemAddrOperand);
  // A CuTe tensor whose start depends on the thread (one softmax body for
  // two warpgroups): the columns of \p Threads' own windows.
  if (V && R->Span && Threads && V->ColumnWindowByThread &&
      V->ColumnWindowByThread->size() == Threads->size()) {
    if (std::optional<IntRange> U =
            windowUnion(*V->ColumnWindowByThread, Threads.get())) {
      const int64_t Offset = E.Operands[E.Op->TmemAddrOperand].AddressOffset;
      IntRange Mine{std::max(R->Span->Lo, U->Lo + Offset),
                    std::min(R->Span->Hi, U->Hi + Offset)};
      if (Mine.Lo <= Mine.Hi)
        R->Span = Mine;
    }
    return R;
  }
  if (!R->Width)
    return R;
  if (!V || V->ColumnChoices.empty())
    return R;
  const int64_t Offset = E.Operands[E.Op->TmemAddrOperand].AddressOffset;
  if (Threads && V->PerThread &&
      (V->PerThreadExact || V->PerThreadFromAllocation) &&
      V->PerThread->size() == Threads->size()) {
    std::optional<int64_t> L, H;
    for (size_t T = 0; T < Threads->size(); ++T)
      if ((*Threads)[T]) {
        int64_t C = tmemColumnField((*V->PerThread)[T] + Offset);
        L = L ? std::min(*L, C) : C;
        H = H ? std::max(*H, C) : C;
      }
    if (L) {
      R->Column = *L;
      R->Width = *H - *L + *R->Width;
      return R;
    }
  }
  R->Column = V->ColumnChoices.front() + Offset;
  R->Width = V->ColumnChoices.back() - V->ColumnChoices.front() + *R->Width;
  return R;
}

/// The runs an mbarrier operand known thread by thread names, each with
/// the threads that name it.
static std::vector<std::pair<uint64_t, ThreadMask>>
runsByThread(const AbstractValue &V) {
  std::vector<std::pair<uint64_t, ThreadMask>> Out;
  if (!V.isSlotAddress() || !V.BarrierRunByThread)
    return Out;
  std::map<uint64_t, std::vector<uint8_t>> Masks;
  const std::vector<uint64_t> &Runs = *V.BarrierRunByThread;
  for (size_t T = 0; T < Runs.size(); ++T) {
    auto [It, New] = Masks.try_emplace(Runs[T]);
    if (New)
      It->second.assign(Runs.size(), 0);
    It->second[T] = 1;
  }
  for (auto &[Run, Mask] : Masks)
    Out.push_back(
        {Run, std::make_shared<const std::vector<uint8_t>>(std::move(Mask))});
  return Out;
}

/// The barrier's run within its variable when the front end told runs
/// apart (pipelines carved from one dynamic buffer), else its identity.
static uint64_t barrierRunIdentity(const AbstractValue &V);

std::set<uint64_t> barrierRunsIn(const AbstractValue &V,
                                 const ThreadMask &Threads) {
  std::set<uint64_t> Out;
  std::vector<std::pair<uint64_t, ThreadMask>> ByThread = runsByThread(V);
  if (ByThread.empty() || !Threads ||
      Threads->size() != ByThread.front().second->size()) {
    Out.insert(barrierRunIdentity(V));
    return Out;
  }
  for (const auto &[Run, Mask] : ByThread)
    for (size_t T = 0; T < Threads->size(); ++T)
      if ((*Threads)[T] && (*Mask)[T]) {
        Out.insert(Run);
        break;
      }
  return Out;
}

ThreadMask threadsMeeting(const Event &E, const TmemRange &R,
                          const ThreadMask &Among) {
  const AbstractValue *V = E.Op ? operand(E, E.Op->TmemAddrOperand) : nullptr;
  if (!V)
    return Among;
  // Threads with the same window or address have the same columns: one
  // range per group of them.
  std::vector<std::pair<int64_t, int64_t>> Keys;
  if (V->ColumnWindowByThread)
    for (const IntRange &W : *V->ColumnWindowByThread)
      Keys.push_back({W.Lo, W.Hi});
  else if (V->PerThread && (V->PerThreadExact || V->PerThreadFromAllocation))
    for (int64_t A : *V->PerThread)
      Keys.push_back({A, 0});
  const size_t N = Keys.size();
  if (!N || (Among && Among->size() != N))
    return Among;
  std::map<std::pair<int64_t, int64_t>, std::vector<uint8_t>> Groups;
  for (size_t T = 0; T < N; ++T)
    if (!Among || (*Among)[T]) {
      auto [It, New] = Groups.try_emplace(Keys[T]);
      if (New)
        It->second.assign(N, 0);
      It->second[T] = 1;
    }
  std::vector<uint8_t> Meeting(N, 0);
  for (auto &[Key, Mask] : Groups) {
    ThreadMask Group =
        std::make_shared<const std::vector<uint8_t>>(std::move(Mask));
    std::optional<TmemRange> Mine = handOffRange(E, Group);
    if (!Mine || mayOverlap(*Mine, R))
      for (size_t T = 0; T < N; ++T)
        Meeting[T] |= (*Group)[T];
  }
  return std::make_shared<const std::vector<uint8_t>>(std::move(Meeting));
}

uint64_t mbarrierIdentity(const AbstractValue &V) {
  if (!V.isSlotAddress())
    return 0;
  return V.SlotArray ? V.SlotArray : V.Slot;
}

static uint64_t barrierRunIdentity(const AbstractValue &V) {
  if (!V.isSlotAddress())
    return 0;
  return V.BarrierRun ? V.BarrierRun : mbarrierIdentity(V);
}

CompletionAnalysis::CompletionAnalysis(const KernelGraph &G,
                                       ThreadConditions &Threads,
                                       BlockThreads &Reaching,
                                       KernelBudget &Budget) {
  const unsigned N = G.Blocks.size();
  if (N == 0)
    return;
  EventIndex Index(G);
  const std::vector<const Event *> &ById = Index.ById;
  const std::vector<unsigned> &BlockOf = Index.BlockOf;
  // A path through `warp == 1` and then `warp == 2` is no thread's path:
  // facts that pair two events need both to be able to run in one thread.
  auto SameThreadPossible = [&](const Event &A, const Event &B) {
    return Threads.compatible(BlockOf[A.Id], BlockOf[B.Id]);
  };
  // Columns some mma writes: their reads need a commit -> wait first.
  std::vector<std::pair<TmemRange, const Event *>> MmaWrites;
  std::vector<const Event *> Mmas;
  G.forEachEvent([&](const Event &E) {
    if (!isTmem(E, TmemOpKind::Mma))
      return;
    Mmas.push_back(&E);
    if (auto R = accessRange(E))
      MmaWrites.push_back({*R, &E});
  });
  auto MmaWriting = [&](const TmemRange &R) -> const Event * {
    const Event *First = nullptr;
    for (const auto &[W, Mma] : MmaWrites)
      if (mayOverlap(W, R) && (!First || Mma->Id < First->Id))
        First = Mma;
    return First;
  };
  // Pipeline-aware hand-off: an arrive on mbarrier M releases TMEM columns
  // only to threads that wait on M and then overwrite (for pending loads)
  // or access (for pending stores) those columns. A shared-memory stage's
  // "empty" barrier, waited on only by a TMA producer, releases nothing.
  // The waits on each barrier run are kept with their block and the
  // threads that wait; the accesses after them are looked at only when an
  // arrive with a pending ld or st is met (an unrolled pipeline has
  // hundreds of waits and accesses, few of whose pairs are ever asked).
  struct Wait {
    unsigned Block;
    const Event *E;
    ThreadMask Waiters;
  };
  // The barrier runs an mbarrier wait or arrive is on, each with the
  // threads on it: one run for all threads (0 when unknown), or a role's
  // own run per thread.
  std::map<unsigned, std::vector<std::pair<uint64_t, ThreadMask>>> RunsOf;
  auto BarrierKeys = [&](const Event &E)
      -> const std::vector<std::pair<uint64_t, ThreadMask>> & {
    auto [It, New] = RunsOf.try_emplace(E.Id);
    if (New) {
      const AbstractValue *M = operand(E, E.Sync->MbarOperand);
      if (M)
        It->second = runsByThread(*M);
      if (It->second.empty())
        It->second.push_back({M ? barrierRunIdentity(*M) : 0, nullptr});
    }
    return It->second;
  };
  std::map<uint64_t, std::vector<Wait>> WaitsOn;
  std::map<unsigned, std::vector<uint8_t>> ReachCache;
  auto Reach = [&](unsigned B) -> const std::vector<uint8_t> & {
    auto It = ReachCache.find(B);
    if (It == ReachCache.end())
      It = ReachCache.emplace(B, G.reachableFrom(B)).first;
    return It->second;
  };
  // A dealloc is not a reuse: the columns' release to it is the dealloc's
  // ordering (tmem-dealloc-race, and the Freed hazards here).
  std::vector<const Event *> Accesses;
  G.forEachEvent([&](const Event &E) {
    if (E.isAsyncTmemAccess())
      Accesses.push_back(&E);
  });
  // Waits on an mbarrier of unknown identity are kept under 0: they may be
  // on any barrier. A wait whose barrier depends on the role is a wait on
  // each of its runs by the threads that name it. A wait with no access
  // after it still shows the barrier's consumers: they take no columns.
  // The threads that may run each block (Reaching): a role's barrier or
  // columns in code two roles share are the ones of the threads that get
  // there.
  G.forEachEvent([&](const Event &W) {
    if (W.K == Event::Kind::Sync && W.Sync &&
        W.Sync->Kind == SyncOpKind::MbarrierWait)
      for (const auto &[Id, Waiters] : BarrierKeys(W))
        WaitsOn[Id].push_back(
            {BlockOf[W.Id], &W,
             Reaching.intersect(Waiters, Reaching.of(BlockOf[W.Id]))});
  });
  // The columns an access after a wait may touch, for the threads that
  // wait (handOffRange), memoized per access and waiting threads. The entry
  // holds the mask, so that its address is not reused by another one.
  std::map<std::pair<unsigned, const void *>,
           std::pair<ThreadMask, std::optional<TmemRange>>>
      HandOffRanges;
  auto AccessRange = [&](const Event &X, const ThreadMask &Waiters)
      -> const std::optional<TmemRange> & {
    auto [It, New] = HandOffRanges.try_emplace({X.Id, Waiters.get()});
    if (New)
      It->second = {Waiters, handOffRange(X, Waiters)};
    return It->second.second;
  };
  BarrierGates Gates(
      G, Index, Threads,
      [](const Event &E) {
        const AbstractValue *M = operand(E, E.Sync->MbarOperand);
        return M ? barrierRunIdentity(*M) : uint64_t(0);
      },
      Reach);
  // Does an arrive \p E hand the columns of \p Op (a pending ld or st) to
  // other threads?
  // ... on barrier run \p Id, for the columns \p Op has in \p Arrivers?
  auto HandsOffOn = [&](uint64_t Id, const ThreadMask &Arrivers, const Event &E,
                        const Event &Op) {
    if (!Id)
      return true; // which barrier is unknown: any
    if (!WaitsOn.count(Id))
      return true; // no wait on it is seen: its consumers are unknown
    const unsigned EB = BlockOf[E.Id];
    std::optional<TmemRange> OpRange = handOffRange(
        Op, Reaching.intersect(Reaching.intersect(Arrivers, Reaching.of(EB)),
                               Reaching.of(BlockOf[Op.Id])));
    // A pending ld is handed to the threads that overwrite its columns; a
    // pending st to those that access them at all, the mma's reads of A,
    // scale factors and metadata included.
    const bool OpIsLoad = isTmem(Op, TmemOpKind::Load);
    auto Meets = [&](const std::optional<TmemRange> &R) {
      return !R || !OpRange || mayOverlap(*R, *OpRange);
    };
    for (uint64_t Key : {Id, uint64_t(0)}) {
      auto Waits = WaitsOn.find(Key);
      if (Waits == WaitsOn.end())
        continue;
      for (const Wait &U : Waits->second) {
        // A wait that only ever comes before the arrive (it reaches the
        // arrive, the arrive does not reach it: no loop around both) is
        // an earlier use of the barrier (CuTe's tutorials wait on one TMA
        // barrier in the mainloop and again in the epilogue): the arrive
        // does not release anything to it. Waits in other roles (neither
        // reaches the other) and in loops still count.
        // The wait must be one the arriving thread can itself have made:
        // a role that runs before the epilogue's code in the text (`if
        // (warp == 4) {mma loop} if (warp < 4) {epilogue}`) reaches the
        // arrive in the CFG, but its threads never arrive.
        if (U.Block != EB && Reach(U.Block)[EB] && !Reach(EB)[U.Block] &&
            Threads.compatible(U.Block, EB))
          continue;
        const std::vector<uint8_t> &After = Reach(U.Block);
        for (const Event *X : Accesses) {
          const unsigned XB = BlockOf[X->Id];
          if (!(After[XB] || (XB == U.Block && X->Id > U.E->Id)) ||
              !Threads.compatible(U.Block, XB))
            continue;
          bool Uses = false;
          if (X->Op->Kind != TmemOpKind::Load || !OpIsLoad)
            Uses = Meets(AccessRange(
                *X, Reaching.intersect(U.Waiters, Reaching.of(XB))));
          if (!Uses && !OpIsLoad && X->Op->Kind == TmemOpKind::Mma)
            Uses = llvm::any_of(mmaTmemInputs(*X), [&](const TmemRange &In) {
              return Meets(In);
            });
          // Behind a wait on another barrier this thread arrives on
          // later: that arrive hands the columns over (BarrierGates.h).
          if (Uses &&
              !(Key && Gates.gatedByLaterHandOff(E, Id, *U.E, *X)))
            return true;
        }
      }
    }
    return false;
  };
  auto HandsOff = [&](const Event &E, const Event &Op) {
    if (E.Sync->Kind != SyncOpKind::MbarrierArrive)
      return true; // a cluster barrier arrive orders everything
    // A role's own barrier: each run, for the threads that arrive on it.
    return llvm::any_of(BarrierKeys(E), [&](const auto &Run) {
      return HandsOffOn(Run.first, Run.second, E, Op);
    });
  };

  // The mma ops each mbarrier's commits cover; filled by the fixpoint, read
  // by the reporting pass.
  // (Bit vectors by event id: an unrolled mainloop's every commit covers
  // every mma issued before it.)
  const size_t Events = ById.size();
  std::map<uint64_t, llvm::BitVector> CommitCovers;
  auto Cover = [&](uint64_t M, unsigned Op) {
    llvm::BitVector &Ops = CommitCovers[M];
    if (Ops.empty())
      Ops.resize(Events);
    Ops.set(Op);
  };
  // Whether the threads of an event's block may issue an mma, per block.
  std::vector<int8_t> BlockIssuesMma(N, -1);
  auto MayIssueMma = [&](const Event &E) {
    int8_t &Known = BlockIssuesMma[BlockOf[E.Id]];
    if (Known < 0)
      Known = llvm::any_of(
          Mmas, [&](const Event *Mma) { return SameThreadPossible(*Mma, E); });
    return Known == 1;
  };
  // Arrives on an mbarrier (key) by threads that had waited on these
  // mbarriers first on every path: whatever a wait on those orders, a wait
  // on the key orders too (release and acquire chain, rules §5.2).
  std::map<uint64_t, std::set<uint64_t>> Forwards;
  // mma ops some commit to an mbarrier of unknown identity covers: whether
  // a reader waits on it cannot be told, so their reads are not reported.
  llvm::BitVector CommittedToUnknown(Events);

  // The mbarrier sets of the threads' states (ThreadState::Waited).
  SortedSetInterner<uint64_t> BarrierSets;

  // Hazards are collected in the last pass only.
  bool Report = false;
  std::set<std::pair<unsigned, unsigned>> SeenLoad, SeenStore, SeenFlight;
  std::set<unsigned> SeenAcc;

  // A wait on \p M: into the thread's must-set and every mma's. The mmas of
  // an unrolled loop share their sets, so consecutive entries mostly map
  // the same id to the same id.
  auto AddWaited = [&](ThreadState &S, uint64_t M) {
    S.Waited = BarrierSets.withInserted(S.Waited, M);
    ThreadState::BarrierSetId From = ~0u, To = 0;
    for (auto &[Mma, Ms] : S.WaitedAfterMma) {
      if (Ms != From) {
        From = Ms;
        To = BarrierSets.withInserted(Ms, M);
      }
      Ms = To;
    }
  };

  auto Transfer = [&](const Event &E, ThreadState &S) {
    const std::optional<TmemRange> SpanOfE =
        Report ? accessRangeOf(E, /*WithTensorSpans=*/true) : std::nullopt;
    auto Hazard = [&](const ThreadState::EventSet &Pending,
                      std::vector<CompletionHazard> &Out,
                      std::set<std::pair<unsigned, unsigned>> &Seen,
                      CompletionHazard::Kind K,
                      const std::optional<TmemRange> &Range,
                      bool OrderedByStore = false) {
      if (!Report)
        return;
      for (unsigned Id : Pending) {
        const Event *Op = ById[Id];
        std::optional<TmemRange> OpRange = accessRange(*Op);
        if (Range && (!OpRange || !mayOverlap(*OpRange, *Range)))
          continue;
        // CuTe tensors' spans bound their columns: an access whose span is
        // disjoint from the operation's cannot touch its columns (the
        // correction's O stores and its V loads). Spans only rule hazards
        // out; no finding rests on them.
        if (K == CompletionHazard::Overwritten && SpanOfE) {
          std::optional<TmemRange> OpSpan =
              accessRangeOf(*Op, /*WithTensorSpans=*/true);
          if (OpSpan && !mayOverlap(*OpSpan, *SpanOfE))
            continue;
        }
        if (!SameThreadPossible(*Op, E))
          continue;
        if (K == CompletionHazard::Released && !HandsOff(E, *Op))
          continue;
        if (Seen.insert({Id, E.Id}).second)
          Out.push_back({Op, &E, K, OrderedByStore});
      }
    };

    // Pending loads, and those a waited st ordered under PTX 9.4 only.
    auto LoadHazard = [&](CompletionHazard::Kind K,
                          const std::optional<TmemRange> &Range) {
      Hazard(S.Loads, Loads, SeenLoad, K, Range);
      Hazard(S.LoadsOrderedByStore, Loads, SeenLoad, K, Range,
             /*OrderedByStore=*/true);
    };
    if (releases(E)) {
      LoadHazard(CompletionHazard::Released, std::nullopt);
      Hazard(S.Stores, Stores, SeenStore, CompletionHazard::Released,
             std::nullopt);
      // A thread that saw its own mma complete (commit -> its own wait) and
      // then arrives elsewhere forwards the completion: waiting on that
      // mbarrier orders the mma too (commit -> wait -> arrive "epilogue go").
      if (E.Sync->Kind == SyncOpKind::MbarrierArrive && !S.Top)
        if (const AbstractValue *M = operand(E, E.Sync->MbarOperand))
          if (uint64_t To = mbarrierIdentity(*M)) {
            for (unsigned Op : S.Completed)
              if (isTmem(*ById[Op], TmemOpKind::Mma))
                Cover(To, Op);
            // So does a thread that waited on another thread's commit
            // (softmax waits for the QK mma, stores its statistics and
            // arrives for the correction warpgroup): closed over below.
            // Not a thread that may issue mmas itself: the ones it issued
            // after its wait are still in flight when it arrives (a plain
            // arrive where a commit belongs, rules §5.2).
            if (!MayIssueMma(E))
              for (uint64_t W : BarrierSets.set(S.Waited))
                if (W && W != To)
                  Forwards[To].insert(W);
          }
      return;
    }
    if (E.K == Event::Kind::Sync && E.Sync &&
        E.Sync->Kind == SyncOpKind::MbarrierWait) {
      const AbstractValue *M = operand(E, E.Sync->MbarOperand);
      uint64_t Id = M ? mbarrierIdentity(*M) : 0;
      if (!Id) {
        // A wait on an mbarrier whose identity is unknown may be the one
        // a commit arrives on: it counts as a wait on any (kept under 0).
        AddWaited(S, 0);
      } else {
        AddWaited(S, Id);
        if (auto It = S.Committed.find(Id); It != S.Committed.end()) {
          S.Completed.unionWith(It->second);
          S.Committed.erase(It);
        }
      }
      return;
    }
    if (E.K != Event::Kind::Tmem || !E.Op)
      return;
    std::optional<TmemRange> Range = accessRange(E);
    switch (E.Op->Kind) {
    case TmemOpKind::Load:
      if (const Event *Mma = Range && Report ? MmaWriting(*Range) : nullptr;
          Mma && SeenAcc.insert(E.Id).second) {
        bool Covered = false, AnyCommit = false;
        for (unsigned Op : CommittedToUnknown.set_bits())
          if (auto W = accessRange(*ById[Op]); W && mayOverlap(*W, *Range))
            Covered = AnyCommit = true;
        for (const auto &[M, Ops] : CommitCovers)
          for (unsigned Op : Ops.set_bits())
            if (auto W = accessRange(*ById[Op]); W && mayOverlap(*W, *Range)) {
              AnyCommit = true;
              Covered |= !S.Top && (BarrierSets.contains(S.Waited, M) ||
                                    BarrierSets.contains(S.Waited, 0));
              // Only the paths that issued this mma can read its result.
              auto It = S.WaitedAfterMma.find(Op);
              Covered |= !S.Top && It != S.WaitedAfterMma.end() &&
                         (BarrierSets.contains(It->second, M) ||
                          BarrierSets.contains(It->second, 0));
            }
        if (!Covered)
          AccReads.push_back({&E, Mma, !AnyCommit});
      }
      S.Loads.insert(E.Id);
      break;
    case TmemOpKind::Store:
      LoadHazard(CompletionHazard::Overwritten, Range);
      S.Stores.insert(E.Id);
      S.LoadsBeforeStore.unionWith(S.Loads);
      break;
    case TmemOpKind::Mma:
      if (Range)
        LoadHazard(CompletionHazard::Overwritten, Range);
      for (const TmemRange &In : mmaTmemInputs(E))
        Hazard(S.Stores, Stores, SeenStore, CompletionHazard::ReadByMma, In);
      S.Async.insert(E.Id);
      S.Issued.insert(E.Id);
      if (!S.Top)
        S.WaitedAfterMma[E.Id] = S.Waited;
      break;
    case TmemOpKind::Copy:
    case TmemOpKind::Shift:
      if (Range)
        LoadHazard(CompletionHazard::Overwritten, Range);
      S.Async.insert(E.Id);
      S.Issued.insert(E.Id);
      break;
    case TmemOpKind::WaitLoad:
      S.Loads.clear();
      S.LoadsBeforeStore.clear();
      S.LoadsOrderedByStore.clear();
      break;
    case TmemOpKind::WaitStore:
      S.Stores.clear();
      for (unsigned Op : S.LoadsBeforeStore)
        if (S.Loads.count(Op)) {
          S.Loads.erase(Op);
          S.LoadsOrderedByStore.insert(Op);
        }
      S.LoadsBeforeStore.clear();
      break;
    case TmemOpKind::Commit: {
      const AbstractValue *M = operand(E, E.Op->MbarOperand);
      uint64_t Id = M ? mbarrierIdentity(*M) : 0;
      const llvm::BitVector *CoveredHere = nullptr;
      if (Id)
        if (auto C = CommitCovers.find(Id); C != CommitCovers.end())
          CoveredHere = &C->second;
      // An op an earlier commit of this path already recorded everywhere
      // this one would: nothing to add (each commit of an unrolled mainloop
      // sees every mma issued before it).
      auto AlreadyRecorded = [&](unsigned Op) {
        if (!S.EverCommitted.count(Op))
          return false;
        const bool Mma = isTmem(*ById[Op], TmemOpKind::Mma);
        if (!Id)
          return !Mma || CommittedToUnknown.test(Op);
        auto C = S.Committed.find(Id);
        return C != S.Committed.end() && C->second.count(Op) &&
               (!Mma || (CoveredHere && CoveredHere->test(Op)));
      };
      for (unsigned Op : S.Issued) {
        if (AlreadyRecorded(Op))
          continue;
        // A commit tracks only its own thread's ops (rules §5.2).
        if (!SameThreadPossible(*ById[Op], E))
          continue;
        S.EverCommitted.insert(Op);
        if (Id)
          S.Committed[Id].insert(Op);
        if (Id && isTmem(*ById[Op], TmemOpKind::Mma))
          Cover(Id, Op);
        if (!Id && isTmem(*ById[Op], TmemOpKind::Mma))
          CommittedToUnknown.set(Op);
      }
      S.Async.clear();
      break;
    }
    case TmemOpKind::Dealloc:
      if (!Range)
        break;
      LoadHazard(CompletionHazard::Freed, Range);
      Hazard(S.Stores, Stores, SeenStore, CompletionHazard::Freed, Range);
      // The freed columns are no longer this CTA's: a later arrive hands
      // nothing over (CuTe DSL's producer tail after the dealloc), the
      // dealloc is where the load had to be complete.
      for (ThreadState::EventSet *Pending :
           {&S.Loads, &S.LoadsOrderedByStore, &S.Stores})
        Pending->eraseIf([&](unsigned Op) {
          std::optional<TmemRange> R = accessRange(*ById[Op]);
          return R && mayOverlap(*R, *Range) &&
                 SameThreadPossible(*ById[Op], E);
        });
      if (Report) {
        for (unsigned Op : S.Async) {
          if (S.EverCommitted.count(Op))
            continue;
          auto R = accessRange(*ById[Op]);
          if (R && R->Slot == Range->Slot && SameThreadPossible(*ById[Op], E) &&
              SeenFlight.insert({Op, E.Id}).second)
            InFlight.push_back({ById[Op], &E});
        }
      }
      break;
    default:
      break;
    }
  };

  // The may-sets only grow and the must-set only shrinks: this terminates.
  ForwardSolution<ThreadState> Sol = solveForward<ThreadState>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<ThreadState> &Outs) {
        ThreadState S;
        if (B == G.Entry)
          S.Top = false;
        for (unsigned P : G.Blocks[B].Preds) {
          if (!Reached[P])
            continue;
          const Block &Br = G.Blocks[P];
          bool RoleTest = Br.Succs.size() == 2 && !Br.BranchIsLoop &&
                          !Br.BranchKey.empty() && Br.BranchUniformity &&
                          (*Br.BranchUniformity == Uniformity::WarpUniform ||
                           *Br.BranchUniformity == Uniformity::ThreadVariant);
          if (!RoleTest || Br.Succs[0] == Br.Succs[1]) {
            joinInto(S, Outs[P], BarrierSets);
            continue;
          }
          // A second `if (warp_idx == 1)` takes the arm the first took:
          // ops issued under the other arm are not on this edge's paths.
          std::pair<std::string, unsigned> Taken{Br.BranchKey,
                                                 Br.Succs[0] == B ? 0u : 1u};
          ThreadState Edge = Outs[P];
          auto Prune = [&](ThreadState::EventSet &Ops) {
            Ops.eraseIf([&](unsigned Op) {
              return !Threads.compatibleWith(BlockOf[Op], Taken);
            });
          };
          Prune(Edge.Loads);
          Prune(Edge.LoadsBeforeStore);
          Prune(Edge.LoadsOrderedByStore);
          Prune(Edge.Stores);
          Prune(Edge.Async);
          Prune(Edge.Issued);
          joinInto(S, Edge, BarrierSets);
        }
        return S;
      },
      Transfer);
  // The forwarded commits, closed over chains of hand-offs.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[To, Froms] : Forwards)
      for (uint64_t From : Froms) {
        auto It = CommitCovers.find(From);
        if (It == CommitCovers.end() || It->second.none())
          continue;
        llvm::BitVector Before = CommitCovers[To];
        llvm::BitVector &Ops = CommitCovers[To];
        if (Ops.empty())
          Ops.resize(Events);
        Ops |= CommitCovers.find(From)->second;
        Changed |= Ops != Before;
      }
  }
  Report = true;
  replayForward(G, Sol, Transfer, [](const Event &, const ThreadState &) {});

  // An accumulator read that no mma can have written yet is not a read of
  // its result: the mma of another role waits on a barrier that only the
  // reader's role arrives on (FlashKDA's compute warps store the state
  // columns, read them back, and only then arrive on `state_inp_ready`,
  // which the MMA warp waits on before its mma writes them). Per path of
  // the reader: an mma may have run once the reader arrived on one of its
  // gates, until the reader waits on a barrier a commit covering it
  // arrives on.
  if (Sol.Complete && !AccReads.empty()) {
    // The barrier runs an event arrives on: an arrive's, a commit's (0:
    // unknown); none for other events.
    auto ArrivalRuns = [&](const Event &E) {
      std::vector<uint64_t> Runs;
      if (E.K == Event::Kind::Sync && E.Sync &&
          E.Sync->Kind == SyncOpKind::MbarrierArrive) {
        for (const auto &[Run, Arrivers] : BarrierKeys(E))
          Runs.push_back(Run);
      } else if (isTmem(E, TmemOpKind::Commit)) {
        const AbstractValue *M = operand(E, E.Op->MbarOperand);
        Runs.push_back(M ? barrierRunIdentity(*M) : 0);
      }
      return Runs;
    };
    std::map<uint64_t, std::vector<const Event *>> Arrivals;
    G.forEachEvent([&](const Event &E) {
      for (uint64_t Run : ArrivalRuns(E))
        Arrivals[Run].push_back(&E);
    });
    const std::vector<uint64_t> Waited = Gates.waitedBarriers();
    auto CoveredBy = [&](uint64_t M, unsigned Op) {
      auto It = CommitCovers.find(M);
      return It != CommitCovers.end() && It->second.test(Op);
    };
    auto CoveredByAny = [&](unsigned Op) {
      if (CommittedToUnknown.test(Op))
        return true;
      return llvm::any_of(CommitCovers,
                          [&](const auto &C) { return C.second.test(Op); });
    };
    auto NotYetWritten = [&](const UncommittedAccumulatorRead &R) {
      const unsigned LB = BlockOf[R.Load->Id];
      std::optional<TmemRange> Range = accessRange(*R.Load);
      if (!Range)
        return false;
      // A barrier gates the read's mmas only if the reader's role makes
      // every arrival on it, and no arrival of unknown identity exists
      // that another role makes.
      auto ReadersOnly = [&](uint64_t Run) {
        auto It = Arrivals.find(Run);
        return It != Arrivals.end() &&
               llvm::all_of(It->second, [&](const Event *A) {
                 return Threads.compatible(BlockOf[A->Id], LB);
               });
      };
      if (Arrivals.count(0) && !ReadersOnly(0))
        return false;
      struct Candidate {
        const Event *Mma;
        std::vector<uint64_t> Gates;
      };
      std::vector<Candidate> Mmas;
      for (const auto &[W, Mma] : MmaWrites) {
        if (!mayOverlap(W, *Range))
          continue;
        Candidate C{Mma, {}};
        for (uint64_t Run : Waited)
          if (ReadersOnly(Run) && Gates.alwaysBehindWaitOn(Run, *Mma))
            C.Gates.push_back(Run);
        Mmas.push_back(std::move(C));
      }
      if (Mmas.empty() || Mmas.size() > 64)
        return false;
      // Bit I: Mmas[I] may have run and not been seen complete.
      uint64_t Initial = 0;
      for (size_t I = 0; I < Mmas.size(); ++I)
        if (Mmas[I].Gates.empty())
          Initial |= uint64_t(1) << I;
      auto Step = [&](const Event &E, uint64_t &May) {
        if (std::vector<uint64_t> Runs = ArrivalRuns(E); !Runs.empty()) {
          for (size_t I = 0; I < Mmas.size(); ++I)
            for (uint64_t Run : Runs)
              if (!Run || llvm::is_contained(Mmas[I].Gates, Run))
                May |= uint64_t(1) << I;
          return;
        }
        if (E.K == Event::Kind::Sync && E.Sync &&
            E.Sync->Kind == SyncOpKind::MbarrierWait &&
            Threads.compatible(BlockOf[E.Id], LB)) {
          const AbstractValue *M = operand(E, E.Sync->MbarOperand);
          uint64_t Id = M ? mbarrierIdentity(*M) : 0;
          for (size_t I = 0; I < Mmas.size(); ++I) {
            unsigned Op = Mmas[I].Mma->Id;
            if (Id ? CoveredBy(Id, Op) : CoveredByAny(Op))
              May &= ~(uint64_t(1) << I);
          }
        }
      };
      ForwardSolution<uint64_t> Gated = solveForward<uint64_t>(
          G, Budget,
          [&](unsigned B, const std::vector<uint8_t> &Reached,
              const std::vector<uint64_t> &Outs) {
            uint64_t May = B == G.Entry ? Initial : 0;
            for (unsigned P : G.Blocks[B].Preds)
              if (Reached[P])
                May |= Outs[P];
            return May;
          },
          Step);
      std::optional<uint64_t> AtLoad;
      replayForward(G, Gated, Step, [&](const Event &E, uint64_t May) {
        if (&E == R.Load)
          AtLoad = May;
      });
      return AtLoad && *AtLoad == 0;
    };
    llvm::erase_if(AccReads, NotYetWritten);
  }
  // One finding per operation: the first place it must be complete,
  // preferring a hand-off or overwrite over the final dealloc (which
  // tmem-dealloc-race looks at too). First in the thread's program, by the
  // blocks between the operation and the place (the release in a loop's
  // body before the one after the loop, the same trip's before the next
  // trip's), not by event numbers: a fix there is the fix the user needs
  // first.
  std::map<unsigned, std::vector<unsigned>> BlocksFrom;
  auto BlocksBetween = [&](const CompletionHazard &H) -> unsigned {
    const unsigned From = BlockOf[H.Op->Id], To = BlockOf[H.At->Id];
    if (From == To && H.At->Id > H.Op->Id)
      return 0;
    auto [It, New] = BlocksFrom.try_emplace(From);
    std::vector<unsigned> &D = It->second;
    if (New) {
      constexpr unsigned Far = std::numeric_limits<unsigned>::max();
      D.assign(G.Blocks.size(), Far);
      std::deque<unsigned> Work;
      auto Visit = [&](unsigned B, unsigned Dist) {
        if (D[B] == Far) {
          D[B] = Dist;
          Work.push_back(B);
        }
      };
      for (unsigned S : G.Blocks[From].Succs)
        Visit(S, 1);
      while (!Work.empty()) {
        const unsigned B = Work.front();
        Work.pop_front();
        for (unsigned S : G.Blocks[B].Succs)
          Visit(S, D[B] + 1);
      }
    }
    return D[To];
  };
  auto KeepFirst = [&](std::vector<CompletionHazard> &Hs) {
    // An error before a warning: a hazard only PTX 9.4 orders ranks last.
    auto Rank = [&](const CompletionHazard &H) {
      return std::make_tuple(H.OrderedSincePtx94 ? 1 : 0,
                             H.K == CompletionHazard::Freed ? 1 : 0,
                             BlocksBetween(H), H.At->Id);
    };
    std::map<unsigned, CompletionHazard> Best;
    for (const CompletionHazard &H : Hs) {
      auto [It, New] = Best.insert({H.Op->Id, H});
      if (!New && Rank(H) < Rank(It->second))
        It->second = H;
    }
    Hs.clear();
    for (auto &[Id, H] : Best)
      Hs.push_back(H);
    std::stable_sort(Hs.begin(), Hs.end(),
                     [](const CompletionHazard &A, const CompletionHazard &B) {
                       return A.At->Id < B.At->Id;
                     });
  };
  KeepFirst(Loads);
  KeepFirst(Stores);
}

} // namespace tmemcheck
