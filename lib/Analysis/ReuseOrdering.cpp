//===- ReuseOrdering.cpp - Rewrites of columns others still use -----------===//
//
// Part of tmemcheck.
//
// The facts are per block and deliberately generous to the kernel: a
// signal anywhere in a reader's block or after it counts as the readers'
// release, a wait anywhere between the hand-off and the write counts as
// the writer's acquire, provided it is on the barrier the readers release
// (the same array, the same stage of it as far as the values tell), and any
// synchronisation whose object is unknown
// (an mbarrier address computed by mapa for the peer CTA, a call without a
// body) is taken to order everything. A race is reported only when the
// write provably comes round again after the readers were let in, and no
// wait of the writer on the readers' release lies on the way.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ReuseOrdering.h"

#include "tmemcheck/Analysis/BlockReachability.h"
#include "tmemcheck/Analysis/BlockThreads.h"
#include "tmemcheck/Analysis/Completion.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <map>
#include <optional>
#include <set>

namespace tmemcheck {

namespace {

/// A synchronisation object: an mbarrier (its identity), a CTA barrier id
/// or the cluster barrier; Unknown when it cannot be told.
constexpr uint64_t UnknownToken = 0;
constexpr uint64_t ClusterToken = ~uint64_t(0);
uint64_t barrierToken(int64_t Id) { return ~uint64_t(0) - 1 - uint64_t(Id); }

/// An arrive-like or wait-like event and the object it signals.
struct Signal {
  uint64_t Token = UnknownToken;
  const Event *E = nullptr;
  unsigned Block = 0;
  bool Commit = false; ///< tcgen05.commit: signals mma/cp completion.
  /// The mbarrier operand, for telling elements of one array apart.
  const AbstractValue *Bar = nullptr;
};

const AbstractValue *operandValue(const Event &E, int I) {
  if (I < 0 || size_t(I) >= E.Operands.size())
    return nullptr;
  return &E.Operands[I].Value;
}

uint64_t mbarToken(const Event &E, int I) {
  const AbstractValue *V = operandValue(E, I);
  return V ? mbarrierIdentity(*V) : UnknownToken;
}

/// False when two operands of the same mbarrier array provably name
/// different barriers: different constant elements (`tmem_empty[0]`,
/// `tmem_empty[1]`), different exact byte offsets into one buffer (PTX), or
/// runs of different pipelines carved from one buffer, each reached with an
/// index (BarrierRuns.h). Anything less certain may be the same barrier.
bool mayBeSameBarrier(const AbstractValue &A, const AbstractValue &B) {
  if (A.ElementTerm && B.ElementTerm && A.ElementTerm->isConstant() &&
      B.ElementTerm->isConstant())
    return A.ElementTerm->constantValue() == B.ElementTerm->constantValue();
  if (A.SlotRunStart && B.SlotRunStart && !A.SlotIndexed && !B.SlotIndexed)
    return *A.SlotRunStart == *B.SlotRunStart;
  if (A.BarrierRun && B.BarrierRun && A.SlotIndexed && B.SlotIndexed)
    return A.BarrierRun == B.BarrierRun;
  return true;
}

/// How a thread pairs the stage of the columns \p Access touches with the
/// element of the barrier array \p Bar: the same columns must go with the
/// same barrier element in the releasing and in the waiting thread.
std::optional<StageRelation> relationOf(const AbstractValue &Bar,
                                        const Event &Access) {
  const AbstractValue *T = tmemAddressOperand(Access);
  if (!T || !T->ColumnTerm || !Bar.ElementTerm)
    return std::nullopt;
  return stageRelation(*Bar.ElementTerm, *T->ColumnTerm);
}

bool isTmemKind(const Event &E, TmemOpKind K) {
  return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == K;
}

/// False when the writer's wait \p Wait (before write \p W) provably is
/// on another barrier, or another stage of the array, than the readers'
/// release \p Release (after read \p R) arrives on.
bool waitMatchesRelease(const Signal &Wait, const Event &W,
                        const Signal &Release, const Event &R) {
  if (!Wait.Bar || !Release.Bar)
    return true;
  if (!mayBeSameBarrier(*Wait.Bar, *Release.Bar))
    return false;
  // An mma reader may read the columns as A or scale factors while its own
  // address is the D of another stage: its commit's stage is not compared.
  if (isTmemKind(R, TmemOpKind::Mma))
    return true;
  std::optional<StageRelation> InWriter = relationOf(*Wait.Bar, W);
  std::optional<StageRelation> InReader = relationOf(*Release.Bar, R);
  return !InWriter || !InReader || *InWriter == *InReader;
}

uint64_t barToken(const Event &E) {
  if (E.Sync->BarrierIdOperand < 0)
    return barrierToken(0); // __syncthreads()
  const AbstractValue *V = operandValue(E, E.Sync->BarrierIdOperand);
  if (!V || !V->Constant || *V->Constant < 0 || *V->Constant > 15)
    return UnknownToken;
  return barrierToken(*V->Constant);
}

std::optional<Signal> arriveOf(const Event &E) {
  Signal S;
  S.E = &E;
  if (E.K == Event::Kind::OpaqueCall)
    return S;
  if (E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == TmemOpKind::Commit) {
    S.Token = mbarToken(E, E.Op->MbarOperand);
    S.Bar = operandValue(E, E.Op->MbarOperand);
    S.Commit = true;
    return S;
  }
  if (E.K != Event::Kind::Sync || !E.Sync)
    return std::nullopt;
  switch (E.Sync->Kind) {
  case SyncOpKind::MbarrierArrive:
    S.Token = mbarToken(E, E.Sync->MbarOperand);
    S.Bar = operandValue(E, E.Sync->MbarOperand);
    return S;
  case SyncOpKind::BarrierSync:
  case SyncOpKind::BarrierArrive:
    S.Token = barToken(E);
    return S;
  case SyncOpKind::ClusterBarrier:
    if (!E.Sync->IsArrive)
      return std::nullopt;
    S.Token = ClusterToken;
    return S;
  default:
    return std::nullopt;
  }
}

std::optional<Signal> waitOf(const Event &E) {
  Signal S;
  S.E = &E;
  if (E.K == Event::Kind::OpaqueCall)
    return S;
  if (E.K != Event::Kind::Sync || !E.Sync)
    return std::nullopt;
  switch (E.Sync->Kind) {
  case SyncOpKind::MbarrierWait:
    S.Token = mbarToken(E, E.Sync->MbarOperand);
    S.Bar = operandValue(E, E.Sync->MbarOperand);
    return S;
  case SyncOpKind::BarrierSync:
    S.Token = barToken(E);
    return S;
  case SyncOpKind::ClusterBarrier:
    if (E.Sync->IsArrive)
      return std::nullopt;
    S.Token = ClusterToken;
    return S;
  default:
    return std::nullopt;
  }
}

/// Adds signal \p S of block \p B. A barrier of an object each role picks
/// for itself (C++: `is_softmax_0 ? pipeline_s0 : pipeline_s1`) is not one
/// barrier: it is a signal on each of the arrays, which the threads that
/// name each tell apart (LetsInDirectly).
void addSignal(Signal S, unsigned B, std::vector<Signal> &Into) {
  S.Block = B;
  if (S.Token != UnknownToken || !S.Bar || !S.Bar->isSlotAddress() ||
      !S.Bar->SlotArrayByThread) {
    Into.push_back(S);
    return;
  }
  for (uint64_t Array : std::set<uint64_t>(S.Bar->SlotArrayByThread->begin(),
                                           S.Bar->SlotArrayByThread->end())) {
    S.Token = Array ? Array : UnknownToken;
    Into.push_back(S);
  }
}

/// The columns a write event overwrites.
std::optional<TmemRange> writtenRange(const Event &E) {
  if (isTmemKind(E, TmemOpKind::Store) || isTmemKind(E, TmemOpKind::Copy) ||
      isTmemKind(E, TmemOpKind::Shift) || isTmemKind(E, TmemOpKind::Mma))
    return accessRange(E);
  return std::nullopt;
}

/// The columns a reader still uses after issuing: an ld's, or everything an
/// mma reads or writes while it runs.
std::vector<TmemRange> readRanges(const Event &E) {
  std::vector<TmemRange> Out;
  if (isTmemKind(E, TmemOpKind::Load)) {
    if (auto R = accessRange(E))
      Out.push_back(*R);
  } else if (isTmemKind(E, TmemOpKind::Mma)) {
    if (auto R = accessRange(E))
      Out.push_back(*R);
    for (const TmemRange &In : mmaInputRanges(E))
      Out.push_back(In);
  }
  return Out;
}

} // namespace

ReuseOrdering::ReuseOrdering(const KernelGraph &G, ThreadConditions &Threads,
                             BlockThreads &Reaching, KernelBudget &Budget) {
  const unsigned N = G.Blocks.size();
  // Writes and reads with their block and columns, computed once (an
  // mma's columns come from decoding its instruction descriptor).
  struct Write {
    unsigned Block;
    const Event *E;
    TmemRange Range;
  };
  struct Read {
    unsigned Block;
    const Event *E;
    std::vector<TmemRange> Ranges;
  };
  std::vector<Write> Writes;
  std::vector<Read> Reads;
  std::vector<Signal> Arrives, Waits;
  for (unsigned B = 0; B < N; ++B)
    for (const Event &E : G.Blocks[B].Events) {
      if (std::optional<TmemRange> R = writtenRange(E))
        Writes.push_back({B, &E, *R});
      if (std::vector<TmemRange> Rs = readRanges(E); !Rs.empty())
        Reads.push_back({B, &E, std::move(Rs)});
      if (auto S = arriveOf(E))
        addSignal(*S, B, Arrives);
      if (auto S = waitOf(E))
        addSignal(*S, B, Waits);
    }
  if (Writes.empty() || Reads.empty())
    return;

  const BlockReachability Reach(G);
  // X can run after A in one thread's program (a later event of A's block,
  // or a block reachable from it: on a loop, the next iteration).
  auto After = [&](unsigned BA, const Event &A, unsigned BX, const Event &X) {
    return (BX == BA && X.Id > A.Id) || Reach.reaches(BA, BX);
  };
  DeadlinePoller Poll;

  // Forwarding: a thread that waits on T and then signals T' passes on
  // what T ordered (epilogue arrive -> scheduler -> MMA warp).
  std::map<uint64_t, std::set<uint64_t>> Fwd;
  for (const Signal &W : Waits) {
    if (W.Token == UnknownToken)
      continue;
    for (const Signal &A : Arrives) {
      if (Poll.expired(Budget))
        return;
      if (A.Token != W.Token && After(W.Block, *W.E, A.Block, *A.E) &&
          Threads.compatible(A.Block, W.Block))
        Fwd[W.Token].insert(A.Token);
    }
  }
  auto Closure = [&](std::set<uint64_t> Tokens) {
    std::vector<uint64_t> Work(Tokens.begin(), Tokens.end());
    while (!Work.empty()) {
      uint64_t T = Work.back();
      Work.pop_back();
      auto It = Fwd.find(T);
      if (It == Fwd.end())
        continue;
      for (uint64_t Next : It->second)
        if (Tokens.insert(Next).second)
          Work.push_back(Next);
    }
    return Tokens;
  };

  // Per reader block: what its threads wait on before reading (which
  // hand-offs let them in), and what they signal after (closed under
  // forwarding), for ld and for mma readers.
  struct ReaderFacts {
    bool Done = false;
    std::set<uint64_t> WaitsBefore;
    /// Those waits, for telling which of them the threads that read the
    /// written columns make (a role's own barrier).
    std::vector<const Signal *> WaitSignals;
    std::set<uint64_t> Release;
    /// Tokens the release reaches only through a forwarding thread: which
    /// element the forwarder signals is not related to the columns.
    std::set<uint64_t> Forwarded;
    /// The readers' own signals after the read.
    std::vector<const Signal *> Direct;
    const Event *FirstRelease = nullptr;
  };
  std::map<std::pair<unsigned, bool>, ReaderFacts> Readers;
  auto FactsOf = [&](unsigned BR, bool MmaReader) -> const ReaderFacts & {
    ReaderFacts &F = Readers[{BR, MmaReader}];
    if (F.Done)
      return F;
    F.Done = true;
    for (const Signal &W : Waits)
      if ((W.Block == BR || Reach.reaches(W.Block, BR)) &&
          Threads.compatible(W.Block, BR)) {
        F.WaitsBefore.insert(W.Token);
        F.WaitSignals.push_back(&W);
      }
    std::set<uint64_t> Direct;
    for (const Signal &A : Arrives) {
      if (MmaReader && !A.Commit && A.Token != UnknownToken)
        continue; // a plain arrive says nothing about the mma completing
      if ((A.Block == BR || Reach.reaches(BR, A.Block)) &&
          Threads.compatible(A.Block, BR)) {
        Direct.insert(A.Token);
        F.Direct.push_back(&A);
        if (!F.FirstRelease || A.E->Id < F.FirstRelease->Id)
          F.FirstRelease = A.E;
      }
    }
    // A token the readers signal themselves is judged by its own element
    // even when forwarding leads back to it (the writer waits on the
    // release and commits the "full" barrier the readers wait on: a cycle).
    for (uint64_t T : Direct)
      if (auto It = Fwd.find(T); It != Fwd.end())
        for (uint64_t Next : Closure(It->second))
          if (!Direct.count(Next))
            F.Forwarded.insert(Next);
    F.Release = Closure(std::move(Direct));
    return F;
  };

  // Candidate pairs, one per (writer block, reader block): the last write
  // of the block that overlaps a reader there (the one most likely to come
  // after a hand-off), and that reader.
  std::map<std::pair<unsigned, unsigned>,
           std::pair<const Event *, const Event *>>
      Pairs;
  std::map<const Event *, const TmemRange *> WrittenBy;
  for (const auto &[BW, W, RW] : Writes) {
    WrittenBy[W] = &RW;
    for (const auto &[BR, R, RRs] : Reads) {
      if (Poll.expired(Budget))
        return;
      if (BR == BW || Threads.compatible(BR, BW))
        continue; // the same thread: tmem-missing-wait-ld and §5.1
      bool Overlap = false;
      for (const TmemRange &RR : RRs)
        Overlap |= mayOverlap(RW, RR);
      if (!Overlap)
        continue;
      auto &P = Pairs[{BW, BR}];
      if (!P.first || W->Id > P.first->Id)
        P = {W, P.second ? P.second : R};
    }
  }

  // The signals of the writing threads that can hand write \p W's columns
  // off: after which the write can come round again, and before which the
  // columns were written (by this write on an earlier iteration, or an
  // earlier write of this thread; the barrier that first lets the readers
  // in is no hand-off of data). They depend on the write alone, and a
  // write is in a pair with each of its block's readers.
  std::map<const Event *, std::vector<const Signal *>> CandidatesByWrite;
  auto HandoffCandidates =
      [&](unsigned BW, const Event &W) -> const std::vector<const Signal *> & {
    auto [It, New] = CandidatesByWrite.try_emplace(&W);
    if (!New)
      return It->second;
    const TmemRange &RW = *WrittenBy[&W];
    for (const Signal &S : Arrives) {
      if (S.Token == UnknownToken || !After(S.Block, *S.E, BW, W) ||
          !Threads.compatible(S.Block, BW))
        continue;
      bool WrittenBefore = false;
      for (const auto &[BP, Prev, RP] : Writes) {
        if (WrittenBefore)
          break;
        WrittenBefore = After(BP, *Prev, S.Block, *S.E) &&
                        Threads.compatible(BP, BW) && mayOverlap(RP, RW);
      }
      if (WrittenBefore)
        It->second.push_back(&S);
    }
    return It->second;
  };

  // A wait that only ever comes before signal \p A in the threads that
  // make both (it reaches A, A does not reach it: no loop around them) is
  // an earlier use of the barrier, not what A lets in (the `__syncthreads`
  // after the allocation is no wait on the one before the dealloc).
  auto EarlierUse = [&](const Signal &Wt, const Signal &A) {
    if (!Threads.compatible(Wt.Block, A.Block))
      return false;
    if (Wt.Block == A.Block)
      return Wt.E->Id < A.E->Id && !Reach.reaches(A.Block, A.Block);
    return Reach.reaches(Wt.Block, A.Block) &&
           !Reach.reaches(A.Block, Wt.Block);
  };
  // The signals a signal \p S passes on through forwarding threads: each
  // thread that waits on what \p S signals (not in an earlier use of that
  // barrier) and then signals another barrier, and so on. Followed signal
  // by signal, not barrier by barrier: a `__syncthreads` before the
  // dealloc forwards nothing to the one after the allocation.
  std::map<const Signal *, std::vector<const Signal *>> ArrivesAfterWait;
  for (const Signal &W : Waits) {
    if (W.Token == UnknownToken)
      continue;
    std::vector<const Signal *> &Next = ArrivesAfterWait[&W];
    for (const Signal &A : Arrives)
      if (A.Token != W.Token && After(W.Block, *W.E, A.Block, *A.E) &&
          Threads.compatible(A.Block, W.Block))
        Next.push_back(&A);
  }
  std::map<const Signal *, std::vector<const Signal *>> ForwardedBy;
  auto Forwarded = [&](const Signal &S) -> const std::vector<const Signal *> & {
    auto [It, New] = ForwardedBy.try_emplace(&S);
    if (!New)
      return It->second;
    std::set<const Signal *> Seen;
    std::vector<const Signal *> Work{&S};
    while (!Work.empty()) {
      const Signal *A = Work.back();
      Work.pop_back();
      for (const Signal &W : Waits) {
        if (W.Token != A->Token || EarlierUse(W, *A))
          continue;
        for (const Signal *Next : ArrivesAfterWait[&W])
          if (Seen.insert(Next).second) {
            It->second.push_back(Next);
            Work.push_back(Next);
          }
      }
    }
    return It->second;
  };
  // One body for two roles (a softmax for both warpgroups): the readers
  // that matter are the threads whose own columns meet the write, and an
  // arrive \p A of threads \p Arrivers lets them in only if it can be on a
  // barrier run those threads wait on (a role's own pipeline).
  auto LetsInOnItsRun = [&](const Signal &A, const ThreadMask &Arrivers,
                            const ReaderFacts &F, const ThreadMask &Meeting) {
    std::set<uint64_t> Handed;
    if (A.Bar)
      Handed = barrierRunsIn(*A.Bar, Arrivers);
    for (const Signal *Wt : F.WaitSignals) {
      if (Wt->Token != A.Token || EarlierUse(*Wt, A))
        continue;
      if (!A.Bar || !Wt->Bar || Handed.count(0))
        return true;
      for (uint64_t Run : barrierRunsIn(
               *Wt->Bar, Reaching.intersect(Meeting, Reaching.of(Wt->Block))))
        if (!Run || Handed.count(Run))
          return true;
    }
    return false;
  };
  // Hand-off \p S of the writing threads lets the readers in directly, or
  // through threads that wait on it and signal a barrier the readers wait
  // on (epilogue arrive -> scheduler -> MMA warp). A forwarded signal on
  // another barrier counts whatever its element; one that comes back to
  // the array of \p S is judged by its own run.
  auto LetsIn = [&](const Signal &S, unsigned BW, const ReaderFacts &F,
                    const ThreadMask &Meeting) {
    if (LetsInOnItsRun(
            S, Reaching.intersect(Reaching.of(S.Block), Reaching.of(BW)), F,
            Meeting))
      return true;
    for (const Signal *A : Forwarded(S)) {
      if (!F.WaitsBefore.count(A->Token))
        continue;
      if (A->Token == S.Token) {
        if (LetsInOnItsRun(*A, Reaching.of(A->Block), F, Meeting))
          return true;
        continue;
      }
      for (const Signal *Wt : F.WaitSignals)
        if (Wt->Token == A->Token && !EarlierUse(*Wt, *A))
          return true;
    }
    return false;
  };

  // The release to name in the finding: the first mbarrier signal of the
  // meeting readers after the read (what the writer should wait on),
  // else their first signal of any kind.
  auto releaseToWaitFor = [&](const ReaderFacts &F,
                              const ThreadMask &Meeting) -> const Event * {
    const Event *First = nullptr;
    for (const Signal *A : F.Direct) {
      if (!A->Bar || (First && First->Id < A->E->Id))
        continue;
      std::set<uint64_t> Runs = barrierRunsIn(
          *A->Bar, Reaching.intersect(Meeting, Reaching.of(A->Block)));
      if (!Runs.empty())
        First = A->E;
    }
    return First ? First : F.FirstRelease;
  };
  // Can the writer's wait \p Wt be on the barrier the meeting readers'
  // release \p A arrives on? Told apart only where the readers' barrier is
  // their role's own: an object each role picks (another array is another
  // barrier), or an element each role picks by its thread (`&empty[group]`)
  // against an element the writer names exactly (`&empty[1]`). Runs are not
  // compared otherwise: a stage nvcc unrolled to `smem + 64` is a run of
  // its own, yet the barrier of stage 1 of the run at 56.
  auto SameBarrier = [&](const Signal &Wt, unsigned BW, const Signal &A,
                         const ThreadMask &Meeting) {
    if (!Wt.Bar || !A.Bar || !Wt.Bar->isSlotAddress() ||
        !A.Bar->isSlotAddress())
      return true;
    const AbstractValue &Acq = *Wt.Bar, &Rel = *A.Bar;
    const ThreadMask Readers =
        Reaching.intersect(Meeting, Reaching.of(A.Block));
    const ThreadMask Writers =
        Reaching.intersect(Reaching.of(Wt.Block), Reaching.of(BW));
    const bool RoleObject = Rel.SlotArrayByThread != nullptr;
    const bool RoleElement =
        Rel.SlotRunStartByThread && !Rel.SlotIndexed && Rel.BarrierRunByThread;
    if (!RoleObject && !RoleElement)
      return true;
    const bool ExactWait =
        (Acq.SlotRunStart && !Acq.SlotIndexed && Acq.BarrierRun) ||
        (Acq.SlotRunStartByThread && !Acq.SlotIndexed &&
         Acq.BarrierRunByThread);
    if (RoleElement && !ExactWait)
      return true;
    std::set<uint64_t> Waited = RoleObject && !Acq.SlotArrayByThread
                                    ? std::set<uint64_t>{mbarrierIdentity(Acq)}
                                    : barrierRunsIn(Acq, Writers);
    const std::set<uint64_t> Released = barrierRunsIn(Rel, Readers);
    if (Waited.count(0) || Released.count(0))
      return true;
    for (uint64_t Run : Waited)
      if (Released.count(Run))
        return true;
    return false;
  };

  std::set<unsigned> ReportedWriterBlocks;
  for (const auto &[Key, P] : Pairs) {
    const auto &[BW, BR] = Key;
    if (ReportedWriterBlocks.count(BW) || Poll.expired(Budget))
      continue;
    const Event &W = *P.first;
    const Event &R = *P.second;
    const ReaderFacts &F = FactsOf(BR, isTmemKind(R, TmemOpKind::Mma));
    if (F.Release.count(UnknownToken) || F.WaitsBefore.count(UnknownToken))
      continue;
    // Hand-offs: signals of the writing threads, before the write comes
    // round again, that the readers wait on (directly or forwarded).
    std::vector<const Signal *> Handoffs;
    // The reading threads whose own columns meet the write.
    const ThreadMask Meeting =
        threadsMeeting(R, *WrittenBy[&W], Reaching.of(BR));
    for (const Signal *S : HandoffCandidates(BW, W))
      if (LetsIn(*S, BW, F, Meeting))
        Handoffs.push_back(S);
    if (Handoffs.empty())
      continue;
    // The writer's waits between a hand-off and the write.
    bool Ordered = false;
    for (const Signal &Wt : Waits) {
      if (!Threads.compatible(Wt.Block, BW) || !After(Wt.Block, *Wt.E, BW, W))
        continue;
      bool Between = false;
      for (const Signal *S : Handoffs)
        Between |= After(S->Block, *S->E, Wt.Block, *Wt.E);
      if (!Between)
        continue;
      if (Wt.Token == UnknownToken || F.Forwarded.count(Wt.Token)) {
        Ordered = true;
        break;
      }
      for (const Signal *A : F.Direct)
        Ordered |= A->Token == Wt.Token && waitMatchesRelease(Wt, W, *A, R) &&
                   SameBarrier(Wt, BW, *A, Meeting);
      if (Ordered)
        break;
    }
    if (Ordered)
      continue;
    ReportedWriterBlocks.insert(BW);
    Races.push_back(
        {&W, &R, Handoffs.front()->E, releaseToWaitFor(F, Meeting)});
  }
  std::sort(Races.begin(), Races.end(),
            [](const ReuseRace &A, const ReuseRace &B) {
              return A.Write->Id < B.Write->Id;
            });
}

} // namespace tmemcheck
