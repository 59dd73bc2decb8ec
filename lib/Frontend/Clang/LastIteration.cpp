//===- LastIteration.cpp - Loops that leave through their last test -------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "LastIteration.h"

#include "LoopTrips.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

using namespace clang;

namespace tmemcheck {

namespace {

/// The induction variable, first value and step 1 of `for (T i = C; i < N;
/// ++i)` (LoopTripCounter::constantTripCount's forms with step 1).
std::optional<std::pair<const VarDecl *, int64_t>>
unitStepStart(const ForStmt &For, ASTContext &Ctx) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(For.getInit());
  if (!DS || !DS->isSingleDecl())
    return std::nullopt;
  const auto *Var = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!Var)
    return std::nullopt;
  std::optional<int64_t> Start = constantOf(Var->getInit(), Ctx);
  if (!Start)
    return std::nullopt;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(For.getInc())) {
    if (UO->isIncrementOp() && referencedVar(UO->getSubExpr()) == Var)
      return std::make_pair(Var, *Start);
  } else if (const auto *CA =
                 dyn_cast_or_null<CompoundAssignOperator>(For.getInc())) {
    if (CA->getOpcode() == BO_AddAssign && referencedVar(CA->getLHS()) == Var &&
        constantOf(CA->getRHS(), Ctx) == 1)
      return std::make_pair(Var, *Start);
  }
  return std::nullopt;
}

/// True when \p S writes \p Var or takes its address, or holds a
/// `continue` of the loop it is the body of (not of a nested loop).
bool disturbsIteration(const Stmt *S, const VarDecl *Var, bool InNestedLoop) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S) && !InNestedLoop)
    return true;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        referencedVar(UO->getSubExpr()) == Var)
      return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && referencedVar(BO->getLHS()) == Var)
      return true;
  bool Nested = InNestedLoop || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    if (disturbsIteration(Child, Var, Nested))
      return true;
  return false;
}

void removeEdge(KernelGraph &G, unsigned From, unsigned To) {
  auto &S = G.Blocks[From].Succs;
  S.erase(std::remove(S.begin(), S.end(), To), S.end());
  auto &P = G.Blocks[To].Preds;
  P.erase(std::remove(P.begin(), P.end(), From), P.end());
}

/// Blocks reachable from \p From through edges (\p From included), not
/// going past \p Stop and never entering \p Avoid.
std::vector<uint8_t> reachableWithin(const KernelGraph &G, unsigned From,
                                     unsigned Stop, unsigned Avoid) {
  std::vector<uint8_t> Seen(G.Blocks.size(), 0);
  std::vector<unsigned> Work = {From};
  Seen[From] = 1;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (B == Stop)
      continue;
    for (unsigned S : G.Blocks[B].Succs)
      if (S != Avoid && !Seen[S]) {
        Seen[S] = 1;
        Work.push_back(S);
      }
  }
  return Seen;
}

} // namespace

std::optional<LastIterationTest>
findLastIterationTest(const IfStmt &If, const ParentMap &PM, ASTContext &Ctx) {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      If.getCond() ? If.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_EQ || If.getConditionVariable() ||
      If.isConstexpr())
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(PM.getParent(&If));
  const auto *For =
      Body ? dyn_cast_or_null<ForStmt>(PM.getParent(Body)) : nullptr;
  if (!For || For->getBody() != Body)
    return std::nullopt;
  std::optional<uint64_t> Trips = LoopTripCounter::constantTripCount(*For, Ctx);
  std::optional<std::pair<const VarDecl *, int64_t>> Var =
      unitStepStart(*For, Ctx);
  if (!Trips || !*Trips || !Var)
    return std::nullopt;
  const int64_t Last = Var->second + static_cast<int64_t>(*Trips) - 1;
  const Expr *Other = nullptr;
  if (referencedVar(Cond->getLHS()) == Var->first)
    Other = Cond->getRHS();
  else if (referencedVar(Cond->getRHS()) == Var->first)
    Other = Cond->getLHS();
  if (constantOf(Other, Ctx) != Last)
    return std::nullopt;
  if (disturbsIteration(Body, Var->first, /*InNestedLoop=*/false))
    return std::nullopt;
  return LastIterationTest{For};
}

bool peelLastIteration(KernelGraph &G, unsigned TestBlock, unsigned ThenEntry,
                       unsigned HeaderLast, unsigned LoopExit) {
  // The blocks from the true arm to the loop test: those reachable from
  // ThenEntry without leaving the loop that lead back to the test.
  std::vector<uint8_t> Fwd =
      reachableWithin(G, ThenEntry, HeaderLast, LoopExit);
  if (!Fwd[HeaderLast] || Fwd[LoopExit])
    return false;
  std::vector<uint8_t> ToHeader = G.reaching(HeaderLast);
  ToHeader[HeaderLast] = 1;
  std::vector<unsigned> Region;
  for (unsigned B = 0; B < G.Blocks.size(); ++B)
    if (Fwd[B] && ToHeader[B])
      Region.push_back(B);
  // A test the loop's other paths can reach only through the true arm is
  // not one executed once per iteration; a region beyond a small bound is
  // not copied (the loop then keeps its exit edge, as before).
  constexpr size_t MaxRegion = 4096;
  if (Region.size() > MaxRegion || !llvm::is_contained(Region, ThenEntry))
    return false;
  bool ExitFromHeader =
      llvm::is_contained(G.Blocks[HeaderLast].Succs, LoopExit);
  if (!ExitFromHeader)
    return false;

  llvm::DenseMap<unsigned, unsigned> Copy;
  for (unsigned B : Region) {
    unsigned C = G.addBlock();
    Block Clone = G.Blocks[B];
    Clone.Succs.clear();
    Clone.Preds.clear();
    G.Blocks[C] = std::move(Clone);
    Copy[B] = C;
  }
  for (unsigned B : Region) {
    // The copy of the loop test leaves the loop: the last iteration is over.
    if (B == HeaderLast) {
      G.addEdge(Copy[B], LoopExit);
      G.Blocks[Copy[B]].BranchUniformity.reset();
      continue;
    }
    llvm::SmallVector<unsigned, 2> Succs(G.Blocks[B].Succs);
    for (unsigned S : Succs) {
      auto It = Copy.find(S);
      G.addEdge(Copy[B], It != Copy.end() ? It->second : S);
    }
  }
  // The true arm is taken in the last iteration only: it continues in the
  // copy; the other iterations never leave through the test.
  removeEdge(G, TestBlock, ThenEntry);
  G.addEdge(TestBlock, Copy[ThenEntry]);
  removeEdge(G, HeaderLast, LoopExit);
  G.Blocks[HeaderLast].BranchUniformity.reset();
  return true;
}

} // namespace tmemcheck
