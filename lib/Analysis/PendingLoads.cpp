//===- PendingLoads.cpp - tcgen05.ld results used before wait::ld ---------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/PendingLoads.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>
#include <map>
#include <set>

namespace tmemcheck {

namespace {

/// Variables holding results of loads not yet waited for, with the load
/// that wrote each. Joining keeps the earliest load (by event id) so the
/// result does not depend on visiting order.
using PendingState = std::map<uint64_t, const Event *>;

bool joinInto(PendingState &Into, const PendingState &From) {
  bool Changed = false;
  for (const auto &[Var, Load] : From) {
    auto [It, Inserted] = Into.insert({Var, Load});
    if (Inserted) {
      Changed = true;
    } else if (Load->Id < It->second->Id) {
      It->second = Load;
      Changed = true;
    }
  }
  return Changed;
}

template <typename OnRead>
void transfer(const Block &B, PendingState &State, OnRead Report) {
  for (const Event &E : B.Events) {
    if (E.K == Event::Kind::VariableRead) {
      auto It = State.find(E.VariableId);
      if (It != State.end())
        Report(*It->second, E);
      continue;
    }
    if (E.K != Event::Kind::Tmem || !E.Op)
      continue;
    if (E.Op->Kind == TmemOpKind::WaitLoad) {
      State.clear();
      continue;
    }
    if (E.Op->Kind != TmemOpKind::Load || E.Op->DataOperand < 0 ||
        static_cast<size_t>(E.Op->DataOperand) >= E.Operands.size())
      continue;
    const OperandValue &Data = E.Operands[E.Op->DataOperand];
    for (const AbstractValue &El : Data.Elements)
      if (El.VariableId)
        State[El.VariableId] = &E;
    if (Data.Value.VariableId)
      State[Data.Value.VariableId] = &E;
  }
}

std::string loadedVariableName(const Event &Load, uint64_t Var) {
  const OperandValue &Data = Load.Operands[Load.Op->DataOperand];
  for (const AbstractValue &El : Data.Elements)
    if (El.VariableId == Var)
      return El.VariableName;
  return Data.Value.VariableName;
}

} // namespace

std::vector<ReadBeforeWaitLoad> findReadsBeforeWaitLoad(const KernelGraph &G) {
  std::vector<ReadBeforeWaitLoad> Result;
  if (G.Blocks.empty())
    return Result;
  std::vector<PendingState> In(G.Blocks.size());
  std::vector<uint8_t> Queued(G.Blocks.size(), 0);
  std::deque<unsigned> Work;
  for (unsigned B : G.reversePostOrder()) {
    Work.push_back(B);
    Queued[B] = 1;
  }
  auto NoReport = [](const Event &, const Event &) {};
  while (!Work.empty()) {
    unsigned B = Work.front();
    Work.pop_front();
    Queued[B] = 0;
    PendingState Out = In[B];
    transfer(G.Blocks[B], Out, NoReport);
    for (unsigned S : G.Blocks[B].Succs)
      if (joinInto(In[S], Out) && !Queued[S]) {
        Queued[S] = 1;
        Work.push_back(S);
      }
  }
  // Second pass over the fixpoint reports each read once.
  std::set<std::pair<unsigned, unsigned>> Seen;
  for (unsigned B : G.reversePostOrder()) {
    PendingState State = In[B];
    transfer(G.Blocks[B], State, [&](const Event &Load, const Event &Read) {
      if (!Seen.insert({Load.Id, Read.Id}).second)
        return;
      Result.push_back(
          {&Load, &Read, loadedVariableName(Load, Read.VariableId)});
    });
  }
  return Result;
}

} // namespace tmemcheck
