//===- PendingLoads.cpp - tcgen05.ld results used before wait::ld ---------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/PendingLoads.h"

#include "tmemcheck/Analysis/ForwardDataflow.h"
#include "tmemcheck/Analysis/SortedSet.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <set>

namespace tmemcheck {

namespace {

/// Variables holding results of loads not yet waited for, with the load
/// that wrote each. Joining keeps the earliest load (by event id) so the
/// result does not depend on visiting order. A flat map: it is copied at
/// every block of the fixpoint and holds a few variables.
using PendingState = SortedMap<uint64_t, const Event *, 4>;

bool joinInto(PendingState &Into, const PendingState &From) {
  if (Into.empty()) {
    Into = From;
    return !From.empty();
  }
  bool Changed = false;
  for (const auto &[Var, Load] : From) {
    auto [It, Inserted] = Into.insert(Var, Load);
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
void transfer(const Event &E, PendingState &State, OnRead Report) {
  if (E.K == Event::Kind::VariableRead) {
    auto It = State.find(E.VariableId);
    if (It != State.end())
      Report(*It->second, E);
    return;
  }
  if (E.K != Event::Kind::Tmem || !E.Op)
    return;
  if (E.Op->Kind == TmemOpKind::WaitLoad) {
    State.clear();
    return;
  }
  if (E.Op->Kind != TmemOpKind::Load || E.Op->DataOperand < 0 ||
      static_cast<size_t>(E.Op->DataOperand) >= E.Operands.size())
    return;
  const OperandValue &Data = E.Operands[E.Op->DataOperand];
  for (const AbstractValue &El : Data.Elements)
    if (El.VariableId)
      State[El.VariableId] = &E;
  if (Data.Value.VariableId)
    State[Data.Value.VariableId] = &E;
}

std::string loadedVariableName(const Event &Load, uint64_t Var) {
  const OperandValue &Data = Load.Operands[Load.Op->DataOperand];
  for (const AbstractValue &El : Data.Elements)
    if (El.VariableId == Var)
      return El.VariableName;
  return Data.Value.VariableName;
}

} // namespace

std::vector<ReadBeforeWaitLoad> findReadsBeforeWaitLoad(const KernelGraph &G,
                                                        KernelBudget &Budget) {
  std::vector<ReadBeforeWaitLoad> Result;
  auto NoReport = [](const Event &, const Event &) {};
  ForwardSolution<PendingState> Sol = solveForward<PendingState>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<PendingState> &Outs) {
        PendingState S;
        for (unsigned P : G.Blocks[B].Preds)
          if (Reached[P])
            joinInto(S, Outs[P]);
        return S;
      },
      [&](const Event &E, PendingState &S) { transfer(E, S, NoReport); });
  // The replay reports each read once.
  std::set<std::pair<unsigned, unsigned>> Seen;
  replayForward(
      G, Sol,
      [&](const Event &E, PendingState &S) {
        transfer(E, S, [&](const Event &Load, const Event &Read) {
          if (Seen.insert({Load.Id, Read.Id}).second)
            Result.push_back(
                {&Load, &Read, loadedVariableName(Load, Read.VariableId)});
        });
      },
      [](const Event &, const PendingState &) {});
  return Result;
}

} // namespace tmemcheck
