//===- KernelGraph.cpp - The event graph of one kernel --------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/KernelGraph.h"

#include <fmt/format.h>

#include <algorithm>

namespace tmemcheck {

SourceLoc Event::userLoc() const {
  if (!Loc.InSystemHeader)
    return Loc;
  for (auto It = Stack.rbegin(); It != Stack.rend(); ++It)
    if (It->CallSite.isValid() && !It->CallSite.InSystemHeader)
      return It->CallSite;
  return Loc;
}

SourceLoc Event::kernelLoc() const {
  for (const CallFrame &C : Stack)
    if (C.CallSite.isValid() && !C.CallSite.InSystemHeader)
      return C.CallSite;
  return userLoc();
}

bool Event::isInWrapper() const { return !(userLoc() == Loc); }

SourceLoc locationSeenFrom(const Event &E, const Event &Viewer) {
  size_t Common = 0;
  while (Common < E.Stack.size() && Common < Viewer.Stack.size() &&
         E.Stack[Common].CallSite == Viewer.Stack[Common].CallSite &&
         E.Stack[Common].Callee == Viewer.Stack[Common].Callee)
    ++Common;
  if (Common < E.Stack.size() && !E.Stack[Common].CallSite.InSystemHeader)
    return E.Stack[Common].CallSite;
  return E.userLoc();
}

bool Event::isAsyncTmemAccess() const {
  if (K != Kind::Tmem || !Op)
    return false;
  switch (Op->Kind) {
  case TmemOpKind::Load:
  case TmemOpKind::Store:
  case TmemOpKind::Mma:
  case TmemOpKind::Copy:
  case TmemOpKind::Shift:
    return true;
  default:
    return false;
  }
}

bool Event::acquires() const {
  if (K != Kind::Sync || !Sync)
    return false;
  switch (Sync->Kind) {
  case SyncOpKind::BarrierSync:
  case SyncOpKind::MbarrierWait:
    return true;
  case SyncOpKind::ClusterBarrier:
    return !Sync->IsArrive;
  default:
    return false;
  }
}

EventIndex::EventIndex(const KernelGraph &G) {
  for (unsigned B = 0; B < G.Blocks.size(); ++B)
    for (const Event &E : G.Blocks[B].Events) {
      if (ById.size() <= E.Id) {
        ById.resize(E.Id + 1, nullptr);
        BlockOf.resize(E.Id + 1, 0);
      }
      ById[E.Id] = &E;
      BlockOf[E.Id] = B;
    }
}

unsigned KernelGraph::addBlock() {
  Blocks.emplace_back();
  return Blocks.size() - 1;
}

void KernelGraph::addEdge(unsigned From, unsigned To) {
  Block &F = Blocks[From];
  if (std::find(F.Succs.begin(), F.Succs.end(), To) != F.Succs.end())
    return;
  F.Succs.push_back(To);
  Blocks[To].Preds.push_back(From);
}

void KernelGraph::rebuildPredecessors() {
  for (Block &B : Blocks)
    B.Preds.clear();
  for (unsigned B = 0; B < Blocks.size(); ++B)
    for (unsigned S : Blocks[B].Succs)
      Blocks[S].Preds.push_back(B);
}

std::vector<unsigned> KernelGraph::reversePostOrder() const {
  std::vector<unsigned> Order;
  if (Blocks.empty())
    return Order;
  std::vector<uint8_t> Seen(Blocks.size(), 0);
  // Iterative DFS: graphs of inlined kernels can be deep.
  std::vector<std::pair<unsigned, unsigned>> Stack;
  Stack.push_back({Entry, 0});
  Seen[Entry] = 1;
  while (!Stack.empty()) {
    auto &[B, NextSucc] = Stack.back();
    if (NextSucc < Blocks[B].Succs.size()) {
      unsigned S = Blocks[B].Succs[NextSucc++];
      if (!Seen[S]) {
        Seen[S] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Order.push_back(B);
    Stack.pop_back();
  }
  std::reverse(Order.begin(), Order.end());
  return Order;
}

namespace {

/// Blocks reachable from \p From through at least one edge of \p Edges
/// (successors or predecessors), going on only from blocks \p Through
/// accepts (the others are reached but not left).
template <typename EdgesFn, typename ThroughFn>
std::vector<uint8_t> closure(const std::vector<Block> &Blocks, unsigned From,
                             EdgesFn Edges, ThroughFn Through) {
  // Each block is marked when first found and expanded once.
  std::vector<uint8_t> Reached(Blocks.size(), 0);
  std::vector<unsigned> Work;
  auto Find = [&](unsigned B) {
    for (unsigned S : Edges(Blocks[B]))
      if (!Reached[S]) {
        Reached[S] = 1;
        Work.push_back(S);
      }
  };
  Find(From);
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (Through(B))
      Find(B);
  }
  return Reached;
}

bool always(unsigned) { return true; }

} // namespace

std::vector<uint8_t> KernelGraph::reachableFrom(unsigned From) const {
  return closure(
      Blocks, From, [](const Block &B) -> const auto & { return B.Succs; },
      always);
}

std::vector<uint8_t> KernelGraph::reachableFrom(
    unsigned From, llvm::function_ref<bool(unsigned)> Through) const {
  return closure(
      Blocks, From, [](const Block &B) -> const auto & { return B.Succs; },
      Through);
}

std::vector<uint8_t> KernelGraph::reaching(unsigned To) const {
  return closure(
      Blocks, To, [](const Block &B) -> const auto & { return B.Preds; },
      always);
}

void KernelGraph::noteCallsWithoutBody(
    const std::vector<CallWithoutBody> &Calls) {
  if (Calls.empty())
    return;
  bool UsesTmem = false;
  forEachEvent([&](const Event &E) { UsesTmem |= E.K == Event::Kind::Tmem; });
  if (!UsesTmem)
    return;
  std::string Others;
  if (size_t More = Calls.size() - 1)
    Others = fmt::format(" and {} other function{}", More, More > 1 ? "s" : "");
  markIncomplete(
      Calls.front().Site,
      fmt::format("kernel '{}' calls '{}'{} declared without a body: what "
                  "{} to TMEM is unknown, so findings that need every alloc "
                  "and dealloc are off past the call; give tmemcheck the "
                  "definition, or describe it with ApiModels in "
                  ".tmemcheck.yaml",
                  Name, Calls.front().Callee, Others,
                  Others.empty() ? "it does" : "they do"));
}

void KernelGraph::removePassThroughBlocks() {
  const unsigned N = Blocks.size();
  std::vector<uint8_t> IsArm(N, 0);
  for (const Block &B : Blocks)
    if (B.ThreadsOnTrueArm && B.TrueArmBlock < N && B.FalseArmBlock < N)
      IsArm[B.TrueArmBlock] = IsArm[B.FalseArmBlock] = 1;
  std::vector<uint8_t> Removed(N, 0);
  bool Any = false;
  for (unsigned B = 0; B < N; ++B) {
    Block &Blk = Blocks[B];
    if (B == Entry || B == Exit || IsArm[B] || !Blk.Events.empty() ||
        Blk.Succs.size() != 1 || Blk.Preds.empty() || Blk.BranchUniformity)
      continue;
    const unsigned S = Blk.Succs.front();
    if (S == B || llvm::any_of(Blk.Preds, [&](unsigned P) {
          return llvm::is_contained(Blocks[P].Succs, S);
        }))
      continue;
    for (unsigned P : Blk.Preds)
      for (unsigned &To : Blocks[P].Succs)
        if (To == B)
          To = S;
    Block &Succ = Blocks[S];
    for (unsigned &From : Succ.Preds)
      if (From == B)
        From = Blk.Preds.front();
    for (unsigned P : llvm::drop_begin(Blk.Preds))
      if (!llvm::is_contained(Succ.Preds, P))
        Succ.Preds.push_back(P);
    Blk.Preds.clear();
    Blk.Succs.clear();
    Removed[B] = 1;
    Any = true;
  }
  if (!Any)
    return;
  std::vector<unsigned> NewId(N, 0);
  unsigned Next = 0;
  for (unsigned B = 0; B < N; ++B)
    if (!Removed[B])
      NewId[B] = Next++;
  std::vector<Block> Kept;
  Kept.reserve(Next);
  for (unsigned B = 0; B < N; ++B) {
    if (Removed[B])
      continue;
    Block &Blk = Blocks[B];
    for (unsigned &To : Blk.Succs)
      To = NewId[To];
    for (unsigned &From : Blk.Preds)
      From = NewId[From];
    if (Blk.ThreadsOnTrueArm) {
      Blk.TrueArmBlock = NewId[Blk.TrueArmBlock];
      Blk.FalseArmBlock = NewId[Blk.FalseArmBlock];
    }
    Kept.push_back(std::move(Blk));
  }
  Blocks = std::move(Kept);
  Entry = NewId[Entry];
  Exit = NewId[Exit];
}

void KernelGraph::numberEventsInProgramOrder() {
  constexpr unsigned Unnumbered = ~0u;
  for (Block &B : Blocks)
    for (Event &E : B.Events)
      E.Id = Unnumbered;
  unsigned Next = 0;
  for (unsigned B : reversePostOrder())
    for (Event &E : Blocks[B].Events)
      E.Id = Next++;
  for (Block &B : Blocks) // unreachable code, numbered last
    for (Event &E : B.Events)
      if (E.Id == Unnumbered)
        E.Id = Next++;
}

void KernelGraph::markIncomplete(SourceLoc Where, std::string Reason) {
  AnalysisRemark R{std::move(Where), std::move(Reason)};
  R.MakesIncomplete = true;
  Remarks.push_back(std::move(R));
}

bool KernelGraph::isIncomplete() const {
  return Truncated || llvm::any_of(Remarks, [](const AnalysisRemark &R) {
           return R.MakesIncomplete;
         });
}

} // namespace tmemcheck
