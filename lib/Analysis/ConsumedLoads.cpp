//===- ConsumedLoads.cpp - tcgen05.ld registers all read ------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ConsumedLoads.h"

#include "tmemcheck/Analysis/ForwardDataflow.h"
#include "tmemcheck/Analysis/SortedSet.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace tmemcheck {

namespace {

/// A destination register of a load: its variable and, for one element of
/// an array at a constant index (`regs[3]`), that index (AnyElement: the
/// whole variable, or an index that is not a constant).
constexpr int64_t AnyElement = std::numeric_limits<int64_t>::min();
using Register = std::pair<uint64_t, int64_t>;

/// Per outstanding load (event id), the registers not yet read. Variable
/// id 0 stands for a register without identity: never read. Flat maps and
/// sets: the state is copied at every block of the fixpoint, and a kernel
/// has a few loads outstanding at a time.
using RegisterSet = SortedSet<Register, 8>;
using UnreadMap = SortedMap<unsigned, RegisterSet, 2>;

Register registerOf(const AbstractValue &V) {
  return {V.VariableId, V.VariableElement.value_or(AnyElement)};
}

/// A read of \p Read covers the registers of its variable it may be: its
/// element, or every element when its index is not a constant (a loop
/// `for (i...) use(regs[i])`); a register written at an unknown element
/// is covered by any read of the variable.
void eraseRead(RegisterSet &Unread, uint64_t Var,
               std::optional<int64_t> Element) {
  // Most reads are of variables no load wrote: a binary search says so.
  auto First =
      std::lower_bound(Unread.begin(), Unread.end(), Register(Var, AnyElement));
  if (First == Unread.end() || First->first != Var)
    return;
  Unread.eraseIf([&](const Register &R) {
    return R.first == Var &&
           (!Element || R.second == AnyElement || R.second == *Element);
  });
}

struct UnreadState {
  UnreadMap Unread;
  /// At the test of a `for` loop that runs at least once: the state of its
  /// back edges alone, which is what reaches the loop's exit (reads in the
  /// body of `for (i = 0; i < 8; ++i)` happen before it). Kept in the state
  /// so that a change on the back edge reaches the exit through the test.
  std::optional<UnreadMap> AfterIteration;

  bool operator==(const UnreadState &O) const {
    return Unread == O.Unread && AfterIteration == O.AfterIteration;
  }
};

void joinInto(UnreadMap &Into, const UnreadMap &From) {
  if (Into.empty()) {
    Into = From;
    return;
  }
  for (const auto &[Load, Unread] : From)
    Into[Load].unionWith(Unread);
}

void transfer(const Event &E, UnreadMap &State) {
  if (E.K == Event::Kind::VariableRead) {
    // A copy moves the value on without using it; the copy is not
    // followed, so its later uses do not count either (conservative).
    if (E.VariableId == 0 || E.VariableCopy)
      return;
    for (auto &[Load, Unread] : State)
      eraseRead(Unread, E.VariableId, E.VariableElement);
    return;
  }
  if (E.K != Event::Kind::Tmem || !E.Op)
    return;
  if (E.Op->Kind == TmemOpKind::WaitLoad) {
    State.clear();
    return;
  }
  if (E.Op->Kind != TmemOpKind::Load)
    return;
  RegisterSet &Unread = State[E.Id];
  Unread.clear();
  int D = E.Op->DataOperand;
  if (D < 0 || static_cast<size_t>(D) >= E.Operands.size()) {
    Unread.insert({0, AnyElement});
    return;
  }
  const OperandValue &Data = E.Operands[D];
  if (Data.Elements.empty())
    Unread.insert(registerOf(Data.Value));
  for (const AbstractValue &El : Data.Elements)
    Unread.insert(registerOf(El));
  // ld.red's reduction result is a register of the load as well.
  if (int R = E.Op->RedValOperand;
      R >= 0 && static_cast<size_t>(R) < E.Operands.size())
    Unread.insert(registerOf(E.Operands[R].Value));
}

} // namespace

ConsumedLoads::ConsumedLoads(const KernelGraph &G, KernelBudget &Budget) {
  std::vector<unsigned> Position(G.Blocks.size(), 0);
  {
    std::vector<unsigned> Order = G.reversePostOrder();
    for (unsigned I = 0; I < Order.size(); ++I)
      Position[Order[I]] = I;
  }
  // A loop test whose exit is reached only after an iteration; its events
  // are not about TMEM (a read of the counter), so skipping them on the
  // exit edge drops nothing but register reads (conservative).
  auto RunsOnce = [&](unsigned P) {
    const Block &Test = G.Blocks[P];
    return Test.LoopRunsAtLeastOnce && Test.Succs.size() == 2 &&
           Test.Succs[0] != Test.Succs[1] &&
           llvm::none_of(Test.Events, [](const Event &E) {
             return E.K == Event::Kind::Tmem;
           });
  };
  ForwardSolution<UnreadState> Sol = solveForward<UnreadState>(
      G, Budget,
      [&](unsigned B, const std::vector<uint8_t> &Reached,
          const std::vector<UnreadState> &Outs) {
        UnreadState S;
        for (unsigned P : G.Blocks[B].Preds) {
          if (!Reached[P])
            continue;
          if (RunsOnce(P) && G.Blocks[P].Succs[1] == B &&
              Outs[P].AfterIteration)
            joinInto(S.Unread, *Outs[P].AfterIteration);
          else
            joinInto(S.Unread, Outs[P].Unread);
        }
        if (RunsOnce(B))
          for (unsigned L : G.Blocks[B].Preds)
            if (Reached[L] && Position[L] >= Position[B]) {
              if (!S.AfterIteration)
                S.AfterIteration.emplace();
              joinInto(*S.AfterIteration, Outs[L].Unread);
            }
        return S;
      },
      [&](const Event &E, UnreadState &S) { transfer(E, S.Unread); });
  replayForward(
      G, Sol, [&](const Event &E, UnreadState &S) { transfer(E, S.Unread); },
      [&](const Event &E, const UnreadState &Before) {
        if (E.K != Event::Kind::Tmem || !E.Op ||
            E.Op->Kind != TmemOpKind::Dealloc)
          return;
        for (const auto &[Load, Unread] : Before.Unread)
          if (Unread.empty())
            Consumed.insert({Load, E.Id});
      });
}

} // namespace tmemcheck
