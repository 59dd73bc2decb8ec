//===- Lifecycle.cpp - CTA-level TMEM region lifecycle --------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/Lifecycle.h"

#include "tmemcheck/Analysis/ForwardDataflow.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <deque>
#include <map>

namespace tmemcheck {

namespace {

const AbstractValue *operandValue(const Event &E, int Index) {
  if (Index < 0 || static_cast<size_t>(Index) >= E.Operands.size())
    return nullptr;
  return &E.Operands[Index].Value;
}

bool isTmem(const Event &E, TmemOpKind K) {
  return E.K == Event::Kind::Tmem && E.Op && E.Op->Kind == K;
}

/// Union of two CTA states: CTA-uniform alternatives.
void unionInto(CtaState &R, const CtaState &P) {
  for (const auto &[Slot, Phases] : P.Regions)
    R.Regions[Slot] = R.phases(Slot) | Phases;
  for (auto &[Slot, Phases] : R.Regions)
    if (!P.Regions.count(Slot))
      Phases |= PhaseUnallocated;
  R.Relinquished |= P.Relinquished;
}

/// The arms of a divergent branch all ran, each for some threads: the CTA
/// ends up with every change an arm made to the state at the branch. An arm
/// that left a region alone does not undo another arm's alloc or free.
CtaState mergeArms(const CtaState &Base,
                   const std::vector<const CtaState *> &Arms) {
  CtaState R = Base;
  SortedMap<uint64_t, PhaseSet, 4> Keys = Base.Regions;
  for (const CtaState *A : Arms)
    for (const auto &[Slot, Phases] : A->Regions)
      Keys.insert(Slot, 0);
  for (const auto &[Slot, Unused] : Keys) {
    PhaseSet B = Base.phases(Slot), Changed = 0;
    bool OtherRoleFrees = false, KeepUnallocated = false;
    for (const CtaState *A : Arms) {
      PhaseSet P = A->phases(Slot);
      if (P == B)
        continue;
      Changed |= P;
      // An arm that, on all its paths, freed what another arm allocated;
      // or that skipped the free only in CTAs that never allocated.
      bool Frees = (P & PhaseFreedForOtherRole) && !(P & PhaseAnyAllocated);
      if (Frees && !(P & PhaseUnallocated))
        OtherRoleFrees = true;
      else if (Frees && (P & PhaseFreedWhereAllocated))
        OtherRoleFrees = KeepUnallocated = true;
    }
    // The role that frees uses the address the allocating role stored, so
    // in the CTA the free follows the alloc: the region ends freed (or, in
    // CTAs that skipped both, unallocated).
    if (OtherRoleFrees && (Changed & PhaseAnyAllocated) &&
        !(B & PhaseAnyAllocated))
      Changed = (Changed & ~(PhaseUnallocated | PhaseAnyAllocated |
                             PhaseFreedForOtherRole |
                             PhaseFreedWhereAllocated)) |
                PhaseFreed | (KeepUnallocated ? PhaseUnallocated : 0);
    R.Regions[Slot] = Changed ? Changed : B;
  }
  uint8_t Relinquished = 0;
  for (const CtaState *A : Arms)
    if (A->Relinquished != Base.Relinquished)
      Relinquished |= A->Relinquished;
  R.Relinquished = Relinquished ? Relinquished : Base.Relinquished;
  return R;
}

} // namespace

uint64_t allocSlot(const Event &E) {
  if (!isTmem(E, TmemOpKind::Alloc))
    return 0;
  const AbstractValue *V = operandValue(E, E.Op->SlotOperand);
  return V && V->isSlotAddress() ? V->Slot : 0;
}

const AbstractValue *tmemAddressOperand(const Event &E) {
  if (E.K != Event::Kind::Tmem || !E.Op)
    return nullptr;
  return operandValue(E, E.Op->TmemAddrOperand);
}

std::vector<const AbstractValue *> tmemAccessOperands(const Event &E) {
  std::vector<const AbstractValue *> Out;
  if (E.K != Event::Kind::Tmem || !E.Op)
    return Out;
  switch (E.Op->Kind) {
  case TmemOpKind::Load:
  case TmemOpKind::Store:
  case TmemOpKind::Copy:
  case TmemOpKind::Shift:
    if (const AbstractValue *V = operandValue(E, E.Op->TmemAddrOperand))
      Out.push_back(V);
    break;
  case TmemOpKind::Mma:
    for (int I :
         {E.Op->TmemAddrOperand, E.Op->SfaOperand, E.Op->SfbOperand,
          E.Op->SparseMetaOperand, E.Op->ATmem ? E.Op->ADescOrTmemOperand : -1})
      if (const AbstractValue *V = operandValue(E, I))
        Out.push_back(V);
    break;
  default:
    break;
  }
  return Out;
}

std::optional<int64_t> columnCount(const Event &E) {
  if (E.K != Event::Kind::Tmem || !E.Op)
    return std::nullopt;
  const AbstractValue *V = operandValue(E, E.Op->NColsOperand);
  return V ? V->Constant : std::nullopt;
}

LifecycleAnalysis::LifecycleAnalysis(const KernelGraph &G,
                                     const ControlDependence &CD,
                                     KernelBudget &Budget)
    : G(G), CD(CD) {
  collectRegions();
  const unsigned N = G.Blocks.size();
  if (N == 0)
    return;
  // The lattice is finite (a few bits per region), so this terminates.
  ForwardSolution<CtaState> Sol = solveForward<CtaState>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<CtaState> &Outs) {
        return joinInto(B, Reached, Outs);
      },
      [&](const Event &E, CtaState &S) { transfer(E, S); });
  replayForward(
      G, Sol, [&](const Event &E, CtaState &S) { transfer(E, S); },
      [&](const Event &E, const CtaState &S) {
        if (E.K != Event::Kind::VariableRead)
          Before[E.Id] = S;
      });
  In = std::move(Sol.In);
  Out = std::move(Sol.Out);
  Done = std::move(Sol.Reached);
  if (G.Exit < N)
    Exit = In[G.Exit];
}

void LifecycleAnalysis::collectRegions() {
  G.forEachEvent([&](const Event &E) {
    if (E.K == Event::Kind::OpaqueCall)
      Complete = false;
    if (isTmem(E, TmemOpKind::RelinquishAllocPermit))
      Relinquishes.push_back(&E);
    if (!isTmem(E, TmemOpKind::Alloc))
      return;
    uint64_t Slot = allocSlot(E);
    if (!Slot) {
      UnresolvedAlloc = true;
      return;
    }
    auto [It, Inserted] = RegionIndex.insert({Slot, Regions.size()});
    if (Inserted) {
      Region R;
      R.Slot = Slot;
      R.Name = operandValue(E, E.Op->SlotOperand)->SlotName;
      Regions.push_back(std::move(R));
    }
    Regions[It->second].Allocs.push_back(&E);
  });
  G.forEachEvent([&](const Event &E) {
    if (!isTmem(E, TmemOpKind::Dealloc))
      return;
    const AbstractValue *V = tmemAddressOperand(E);
    if (V && V->isTmemAddress())
      if (auto It = RegionIndex.find(V->Slot); It != RegionIndex.end())
        Regions[It->second].Deallocs.push_back(&E);
  });
  auto ById = [](const Event *A, const Event *B) { return A->Id < B->Id; };
  for (Region &R : Regions) {
    std::sort(R.Allocs.begin(), R.Allocs.end(), ById);
    std::sort(R.Deallocs.begin(), R.Deallocs.end(), ById);
    std::optional<int64_t> Cols = columnCount(*R.Allocs.front());
    for (const Event *A : R.Allocs)
      if (columnCount(*A) != Cols)
        Cols = std::nullopt;
    R.Columns = Cols;
  }
  std::sort(Relinquishes.begin(), Relinquishes.end(), ById);
  if (UnresolvedAlloc || G.Truncated)
    Complete = false;
  findOtherRoleDeallocs();
}

void LifecycleAnalysis::findOtherRoleDeallocs() {
  const std::vector<unsigned> BlockOf = EventIndex(G).BlockOf;
  std::map<unsigned, std::vector<uint8_t>> Reach;
  auto Reaches = [&](unsigned From, unsigned To) {
    auto It = Reach.find(From);
    if (It == Reach.end())
      It = Reach.emplace(From, G.reachableFrom(From)).first;
    return bool(It->second[To]);
  };
  auto RoleBranch = [&](unsigned C) {
    const Block &B = G.Blocks[C];
    return B.Succs.size() == 2 && B.BranchUniformity &&
           (*B.BranchUniformity == Uniformity::WarpUniform ||
            *B.BranchUniformity == Uniformity::ThreadVariant);
  };
  for (const Region &R : Regions)
    for (const Event *D : R.Deallocs) {
      unsigned BD = BlockOf[D->Id];
      const std::vector<unsigned> &CtlD = CD.allControllers(BD);
      for (const Event *A : R.Allocs) {
        unsigned BA = BlockOf[A->Id];
        if (BA == BD || Reaches(BA, BD) || Reaches(BD, BA))
          continue;
        const std::vector<unsigned> &CtlA = CD.allControllers(BA);
        bool Split = false;
        for (unsigned C : CtlD)
          Split |=
              RoleBranch(C) && std::binary_search(CtlA.begin(), CtlA.end(), C);
        if (Split) {
          FreedForOtherRole.insert(D->Id);
          break;
        }
      }
      if (!FreedForOtherRole.count(D->Id))
        continue;
      // Does it run wherever an alloc ran? Below the innermost role branch
      // the two share, the dealloc may only be under CTA-uniform conditions
      // that every alloc is under too.
      bool Correlated = true;
      for (const Event *A : R.Allocs) {
        unsigned BA = BlockOf[A->Id];
        const std::vector<unsigned> &CtlA = CD.allControllers(BA);
        std::optional<unsigned> Role;
        for (unsigned C : CtlD)
          if (RoleBranch(C) &&
              std::binary_search(CtlA.begin(), CtlA.end(), C) &&
              (!Role || std::binary_search(CD.allControllers(C).begin(),
                                           CD.allControllers(C).end(), *Role)))
            Role = C; // the innermost shared role branch
        if (!Role) {
          Correlated = false;
          break;
        }
        if (!runsWhereAllocated(conditionsBelow(BD, *Role),
                                conditionsBelow(BA, *Role))) {
          Correlated = false;
          break;
        }
      }
      if (Correlated)
        FreedWhereAllocated.insert(D->Id);
    }
}

LifecycleAnalysis::RoleConditions
LifecycleAnalysis::conditionsBelow(unsigned Block, unsigned Role) const {
  RoleConditions Conds;
  const std::vector<unsigned> &Above = CD.allControllers(Role);
  CD.forEachControllingArm(Block, [&](unsigned C, unsigned K) {
    if (C == Role || std::binary_search(Above.begin(), Above.end(), C))
      return false;
    const tmemcheck::Block &Br = G.Blocks[C];
    // Warp and lane tests select threads, not CTAs: the arms are merged
    // per thread route anyway.
    if (Br.BranchUniformity &&
        (*Br.BranchUniformity == Uniformity::WarpUniform ||
         *Br.BranchUniformity == Uniformity::ThreadVariant))
      return true;
    // A value key is the same in every iteration, so a loop guard on it
    // (`if (tile_valid)` around a rotated loop) is a condition like any.
    if (Br.BranchUniformity == Uniformity::CtaUniform && Br.BranchKeyIsValue &&
        !Br.BranchKey.empty())
      Conds.Keyed.insert({Br.BranchKey, K});
    else
      Conds.Unkeyed = true; // a flag set in a loop, a value from memory
    return true;
  });
  return Conds;
}

bool LifecycleAnalysis::runsWhereAllocated(const RoleConditions &Free,
                                           const RoleConditions &Alloc) {
  if (!Free.Unkeyed && !Alloc.Unkeyed)
    return std::includes(Alloc.Keyed.begin(), Alloc.Keyed.end(),
                         Free.Keyed.begin(), Free.Keyed.end());
  // Conditions that cannot be compared (CUTLASS's persistent loops: the
  // MMA warp allocates at its first valid tile, `if (!allocated)`, and the
  // epilogue frees `if (has_valid)`, a flag it set at its first valid
  // tile): when the alloc is conditional too, the two are taken to be the
  // same condition rather than report a leak that cannot be shown. An
  // unconditional alloc freed under a condition is still a leak.
  return Alloc.Unkeyed || !Alloc.Keyed.empty();
}

const Region *LifecycleAnalysis::region(uint64_t Slot) const {
  auto It = RegionIndex.find(Slot);
  return It == RegionIndex.end() ? nullptr : &Regions[It->second];
}

const CtaState &LifecycleAnalysis::stateBefore(const Event &E) const {
  auto It = Before.find(E.Id);
  return It == Before.end() ? Empty : It->second;
}

void LifecycleAnalysis::transfer(const Event &E, CtaState &S) const {
  // After a barrier every thread sees the alloc's store (rule A3).
  if (E.acquires()) {
    for (auto &[Slot, Phases] : S.Regions)
      if (Phases & PhaseAllocatedUnpublished)
        Phases = (Phases & ~PhaseAllocatedUnpublished) | PhaseAllocated;
    return;
  }
  if (E.K == Event::Kind::OpaqueCall) {
    // It may free any live region: never report a leak past it.
    for (auto &[Slot, Phases] : S.Regions)
      if (Phases & PhaseAnyAllocated)
        Phases = (Phases & ~PhaseAnyAllocated) | PhaseFreedUnknown;
    return;
  }
  if (E.K != Event::Kind::Tmem || !E.Op)
    return;
  switch (E.Op->Kind) {
  case TmemOpKind::Alloc:
    if (uint64_t Slot = allocSlot(E))
      S.Regions[Slot] = PhaseAllocatedUnpublished;
    break;
  case TmemOpKind::Dealloc: {
    const AbstractValue *V = tmemAddressOperand(E);
    if (V && V->isTmemAddress() && RegionIndex.count(V->Slot)) {
      bool OtherRole = (S.phases(V->Slot) & PhaseUnallocated) &&
                       FreedForOtherRole.count(E.Id);
      S.Regions[V->Slot] =
          PhaseFreed | (OtherRole ? PhaseFreedForOtherRole : 0) |
          (OtherRole && FreedWhereAllocated.count(E.Id)
               ? PhaseFreedWhereAllocated
               : 0);
      break;
    }
    // An address we could not resolve may free any live region: never
    // report a leak for it, never count it as a definite free.
    for (auto &[Slot, Phases] : S.Regions)
      if (Phases & PhaseAnyAllocated)
        Phases = (Phases & ~PhaseAnyAllocated) | PhaseFreedUnknown;
    break;
  }
  case TmemOpKind::RelinquishAllocPermit:
    S.Relinquished = 2;
    break;
  default:
    break;
  }
}

std::vector<LifecycleAnalysis::Incoming>
LifecycleAnalysis::incoming(unsigned Block, const std::vector<uint8_t> &Done,
                            const std::vector<CtaState> &Out) const {
  std::vector<Incoming> Items;
  for (unsigned P : G.Blocks[Block].Preds)
    if (Done[P])
      Items.push_back({P, Out[P]});
  // Merge the arms of each divergent branch that ends here, innermost
  // first; the merged state stands for the branch block in outer merges.
  for (unsigned D : CD.divergentBranchesJoiningAt(Block)) {
    if (!Done[D])
      continue;
    // The states reaching here through one arm of D are CTA-uniform
    // alternatives of the same threads (a nested `if (flag)`): their union
    // is that arm's effect; the arms themselves ran for different threads.
    std::map<std::pair<int, std::set<std::pair<unsigned, unsigned>>>, CtaState>
        ArmStates;
    std::vector<Incoming> Rest;
    bool Any = false;
    for (Incoming &I : Items) {
      const std::vector<unsigned> &Ctl = CD.allControllers(I.From);
      if (!(I.From == D || std::binary_search(Ctl.begin(), Ctl.end(), D)))
        continue;
      Any = true;
      // Only states that the same threads reach (the same arms of every
      // branch that is not CTA-uniform) are alternatives of one arm.
      auto Key =
          std::make_pair(armOf(D, I.From, Block), threadRoute(I.From, Block));
      auto [It, New] = ArmStates.try_emplace(std::move(Key), I.State);
      if (!New)
        unionInto(It->second, I.State);
    }
    if (!Any)
      continue;
    std::vector<const CtaState *> Arms;
    for (const auto &[K, S] : ArmStates)
      Arms.push_back(&S);
    CtaState Merged = mergeArms(Out[D], Arms);
    for (Incoming &I : Items) {
      const std::vector<unsigned> &Ctl = CD.allControllers(I.From);
      if (!(I.From == D || std::binary_search(Ctl.begin(), Ctl.end(), D)))
        Rest.push_back(std::move(I));
    }
    Rest.push_back({D, std::move(Merged)});
    Items = std::move(Rest);
  }
  return Items;
}

std::set<std::pair<unsigned, unsigned>>
LifecycleAnalysis::threadRoute(unsigned From, unsigned To) const {
  std::set<std::pair<unsigned, unsigned>> Route;
  auto ThreadDependent = [&](unsigned C) {
    const Block &B = G.Blocks[C];
    return B.Succs.size() == 2 && B.BranchUniformity &&
           *B.BranchUniformity != Uniformity::CtaUniform;
  };
  const Block &Br = G.Blocks[From];
  if (ThreadDependent(From))
    for (unsigned K = 0; K < Br.Succs.size(); ++K)
      if (Br.Succs[K] == To)
        Route.insert({From, K});
  CD.forEachControllingArm(From, [&](unsigned C, unsigned K) {
    if (ThreadDependent(C))
      Route.insert({C, K});
    return true;
  });
  return Route;
}

int LifecycleAnalysis::armOf(unsigned D, unsigned From, unsigned To) const {
  const Block &Br = G.Blocks[D];
  if (From == D) {
    // The edge D -> To itself is the arm (an `if` without an else).
    for (unsigned K = 0; K < Br.Succs.size(); ++K)
      if (Br.Succs[K] == To && (K == 0 || Br.Succs[0] != To))
        return K;
    return -1 - int(From);
  }
  // Walk up the control dependences of From to D.
  std::set<unsigned> Seen{From};
  std::vector<unsigned> Work{From};
  int Found = -1;
  while (!Work.empty()) {
    unsigned X = Work.back();
    Work.pop_back();
    for (auto [C, K] : CD.controllingArms(X)) {
      if (C == D) {
        if (Found >= 0 && Found != int(K))
          return -1 - int(From); // both arms: an arm of its own
        Found = K;
      } else if (Seen.insert(C).second) {
        Work.push_back(C);
      }
    }
  }
  return Found >= 0 ? Found : -1 - int(From);
}

CtaState LifecycleAnalysis::joinInto(unsigned Block,
                                     const std::vector<uint8_t> &Done,
                                     const std::vector<CtaState> &Out) const {
  // No divergent branch ends here (most blocks): the union of the
  // predecessors' states, without copying each of them first.
  if (llvm::none_of(CD.divergentBranchesJoiningAt(Block),
                    [&](unsigned D) { return Done[D] != 0; })) {
    CtaState R;
    bool First = true;
    for (unsigned P : G.Blocks[Block].Preds) {
      if (!Done[P])
        continue;
      if (First)
        R = Out[P];
      else
        unionInto(R, Out[P]);
      First = false;
    }
    return R;
  }
  std::vector<Incoming> Items = incoming(Block, Done, Out);
  if (Items.empty())
    return CtaState();
  CtaState R = std::move(Items.front().State);
  for (size_t I = 1; I < Items.size(); ++I)
    unionInto(R, Items[I].State);
  return R;
}

std::vector<SourceLoc> LifecycleAnalysis::leakingExits(uint64_t Slot) const {
  std::vector<SourceLoc> Result;
  if (G.Exit >= G.Blocks.size())
    return Result;
  for (const Incoming &I : incoming(G.Exit, Done, Out)) {
    if (!(I.State.phases(Slot) & PhaseAnyAllocated))
      continue;
    SourceLoc Loc = G.EndLoc;
    for (const Event &E : G.Blocks[I.From].Events)
      if (E.K == Event::Kind::Return)
        Loc = E.Loc;
    if (std::find(Result.begin(), Result.end(), Loc) == Result.end())
      Result.push_back(Loc);
  }
  std::sort(Result.begin(), Result.end());
  return Result;
}

std::vector<const Region *>
regionsCertainlyHeldBefore(const LifecycleAnalysis &L, const Event &E) {
  std::vector<const Region *> Held;
  const CtaState &S = L.stateBefore(E);
  for (const Region &Reg : L.regions()) {
    PhaseSet P = S.phases(Reg.Slot);
    if (Reg.Columns && P && !(P & ~PhaseAnyAllocated))
      Held.push_back(&Reg);
  }
  return Held;
}

std::optional<int64_t> peakAllocatedColumns(const KernelGraph &G,
                                            const LifecycleAnalysis &L,
                                            const Event **At) {
  std::optional<int64_t> Peak;
  G.forEachEvent([&](const Event &E) {
    if (E.K != Event::Kind::Tmem || !E.Op || E.Op->Kind != TmemOpKind::Alloc)
      return;
    std::optional<int64_t> Cols = columnCount(E);
    if (!Cols)
      return;
    int64_t Live = *Cols;
    for (const Region *Reg : regionsCertainlyHeldBefore(L, E))
      Live += *Reg->Columns;
    if (!Peak || Live > *Peak) {
      Peak = Live;
      if (At)
        *At = &E;
    }
  });
  return Peak;
}

} // namespace tmemcheck
