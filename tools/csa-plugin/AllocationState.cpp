//===- AllocationState.cpp - Per-path TMEM allocation state ---------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllocationState.h"

#include "clang/StaticAnalyzer/Core/PathSensitive/ProgramStateTrait.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/SymbolManager.h"

using namespace clang;
using namespace clang::ento;

/// Allocation symbol -> its lifecycle on this path.
REGISTER_MAP_WITH_PROGRAMSTATE(TmemAllocations, SymbolRef,
                               tmemcheck::csa::TmemAllocation)
/// cta_group -> the relinquish_alloc_permit that gave up its permit.
REGISTER_MAP_WITH_PROGRAMSTATE(RelinquishedPermits, unsigned, const Stmt *)

namespace tmemcheck::csa {

const TmemAllocation *getAllocation(ProgramStateRef State, SymbolRef Handle) {
  return Handle ? State->get<TmemAllocations>(Handle) : nullptr;
}

ProgramStateRef setAllocation(ProgramStateRef State, SymbolRef Handle,
                              const TmemAllocation &A) {
  return State->set<TmemAllocations>(Handle, A);
}

llvm::SmallVector<std::pair<SymbolRef, TmemAllocation>, 4>
allAllocations(ProgramStateRef State) {
  llvm::SmallVector<std::pair<SymbolRef, TmemAllocation>, 4> Out;
  for (const auto &[Sym, A] : State->get<TmemAllocations>())
    Out.push_back({Sym, A});
  return Out;
}

namespace {

/// Operators that move a TMEM address within its allocation (rules M2: the
/// lane field is bits 31..16, the column field bits 15..0).
bool isAddressArithmetic(BinaryOperator::Opcode Op, bool HandleOnLeft) {
  return Op == BO_Add || Op == BO_Or || (HandleOnLeft && Op == BO_Sub);
}

SymbolRef rootHandle(ProgramStateRef State, const SymExpr *Sym,
                     unsigned Depth) {
  if (!Sym || Depth > 16)
    return nullptr;
  if (State->contains<TmemAllocations>(Sym))
    return Sym;
  if (const auto *SI = dyn_cast<SymIntExpr>(Sym))
    return isAddressArithmetic(SI->getOpcode(), /*HandleOnLeft=*/true)
               ? rootHandle(State, SI->getLHS(), Depth + 1)
               : nullptr;
  if (const auto *IS = dyn_cast<IntSymExpr>(Sym))
    return isAddressArithmetic(IS->getOpcode(), /*HandleOnLeft=*/false)
               ? rootHandle(State, IS->getRHS(), Depth + 1)
               : nullptr;
  if (const auto *SS = dyn_cast<SymSymExpr>(Sym)) {
    SymbolRef L = rootHandle(State, SS->getLHS(), Depth + 1);
    SymbolRef R = rootHandle(State, SS->getRHS(), Depth + 1);
    // `base + lane_offset` with a symbolic offset; an expression mixing two
    // allocations names neither.
    if (L && !R && isAddressArithmetic(SS->getOpcode(), true))
      return L;
    if (R && !L && isAddressArithmetic(SS->getOpcode(), false))
      return R;
    return nullptr;
  }
  if (const auto *SC = dyn_cast<SymbolCast>(Sym))
    return rootHandle(State, SC->getOperand(), Depth + 1);
  return nullptr;
}

} // namespace

SymbolRef findAllocationHandle(ProgramStateRef State, SVal V) {
  return rootHandle(State, V.getAsSymbol(), 0);
}

const Stmt *getRelinquish(ProgramStateRef State, CtaGroup Group) {
  const Stmt *const *Site =
      State->get<RelinquishedPermits>(static_cast<unsigned>(Group));
  return Site ? *Site : nullptr;
}

ProgramStateRef setRelinquished(ProgramStateRef State, CtaGroup Group,
                                const Stmt *Site) {
  if (getRelinquish(State, Group))
    return State;
  return State->set<RelinquishedPermits>(static_cast<unsigned>(Group), Site);
}

} // namespace tmemcheck::csa
