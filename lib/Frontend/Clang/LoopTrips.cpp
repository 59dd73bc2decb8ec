//===- LoopTrips.cpp - Constant trip counts around a statement ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "LoopTrips.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace tmemcheck {

namespace {

constexpr uint64_t MaxTrips = uint64_t(1) << 20;

} // namespace

const VarDecl *referencedVar(const Expr *E) {
  if (const auto *DRE =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

std::optional<uint64_t> LoopTripCounter::constantTripCount(const ForStmt &For,
                                                           ASTContext &Ctx) {
  // The induction variable and its start.
  const VarDecl *Var = nullptr;
  std::optional<int64_t> Start;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For.getInit())) {
    if (DS->isSingleDecl())
      if ((Var = dyn_cast<VarDecl>(DS->getSingleDecl())))
        Start = constantOf(Var->getInit(), Ctx);
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For.getInit());
             BO && BO->getOpcode() == BO_Assign) {
    Var = referencedVar(BO->getLHS());
    Start = constantOf(BO->getRHS(), Ctx);
  }
  if (!Var || !Start || !Var->getType()->isIntegerType())
    return std::nullopt;
  // The step.
  std::optional<int64_t> Step;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(For.getInc())) {
    if (UO->isIncrementOp() && referencedVar(UO->getSubExpr()) == Var)
      Step = 1;
  } else if (const auto *CA =
                 dyn_cast_or_null<CompoundAssignOperator>(For.getInc())) {
    if (CA->getOpcode() == BO_AddAssign && referencedVar(CA->getLHS()) == Var)
      Step = constantOf(CA->getRHS(), Ctx);
  }
  if (!Step || *Step <= 0)
    return std::nullopt;
  // The bound: `i < C`, `i <= C`, `i != C`.
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || referencedVar(Cond->getLHS()) != Var)
    return std::nullopt;
  std::optional<int64_t> End = constantOf(Cond->getRHS(), Ctx);
  if (!End)
    return std::nullopt;
  __int128 Span = static_cast<__int128>(*End) - *Start;
  __int128 Trips = 0;
  switch (Cond->getOpcode()) {
  case BO_LT:
    Trips = Span > 0 ? (Span + *Step - 1) / *Step : 0;
    break;
  case BO_LE:
    Trips = Span >= 0 ? Span / *Step + 1 : 0;
    break;
  case BO_NE:
    if (Span < 0 || Span % *Step)
      return std::nullopt;
    Trips = Span / *Step;
    break;
  default:
    return std::nullopt;
  }
  return Trips > static_cast<__int128>(MaxTrips) ? MaxTrips
                                                 : static_cast<uint64_t>(Trips);
}

ParentMap *LoopTripCounter::parentsOf(const FunctionDecl *FD) {
  if (!FD || !FD->getBody())
    return nullptr;
  std::unique_ptr<ParentMap> &PM = Parents[FD];
  if (!PM)
    PM = std::make_unique<ParentMap>(FD->getBody());
  return PM.get();
}

unsigned LoopTripCounter::tripsAround(const Stmt *S, const Frame &F) {
  uint64_t Product = 1;
  const Stmt *Cur = S;
  for (const Frame *Fr = &F; Fr && Cur; Cur = Fr->CallStmt, Fr = Fr->Parent) {
    ParentMap *PM = parentsOf(Fr->Function);
    if (!PM)
      break;
    const Stmt *Child = Cur;
    for (const Stmt *P = PM->getParent(Cur); P; Child = P, P = PM->getParent(P))
      if (const auto *For = dyn_cast<ForStmt>(P);
          For && For->getBody() == Child)
        if (std::optional<uint64_t> N = constantTripCount(*For, Ctx))
          Product = std::min(MaxTrips, Product * std::max<uint64_t>(*N, 1));
  }
  return static_cast<unsigned>(Product);
}

} // namespace tmemcheck
