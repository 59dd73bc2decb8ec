//===- CtaUniformity.cpp - Is a branch the same for the whole CTA? --------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "CtaUniformity.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace tmemcheck::csa {
namespace {

constexpr unsigned MaxDepth = 24;

/// The variable an lvalue designates: `x`, `x[i]`, `x.f`, `(x)`.
const VarDecl *rootVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else
      break;
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// `threadIdx`, `blockIdx`, ... in `threadIdx.x` (a property reference of
/// Clang's CUDA built-in variables) or a plain member access on them.
const VarDecl *builtinVariableOf(const Expr *E) {
  const Expr *Base = nullptr;
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    if (const auto *MP =
            dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      Base = MP->getBaseExpr();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Base = ME->getBase();
  }
  if (!Base)
    return nullptr;
  Base = Base->IgnoreParenImpCasts();
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(Base))
    if (OV->getSourceExpr())
      Base = OV->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !V->getDeclContext()->isTranslationUnit())
    return nullptr;
  return llvm::StringSwitch<bool>(V->getName())
                 .Cases({"threadIdx", "blockIdx", "blockDim", "gridDim"}, true)
                 .Default(false)
             ? V
             : nullptr;
}

/// Special-register builtins that read the same value in every thread of a
/// CTA.
bool isUniformRegisterBuiltin(StringRef Name) {
  if (!Name.consume_front("__nvvm_read_ptx_sreg_"))
    return false;
  return Name.starts_with("ctaid_") || Name.starts_with("nctaid_") ||
         Name.starts_with("ntid_") || Name.starts_with("clusterid_") ||
         Name.starts_with("nclusterid_") ||
         Name.starts_with("cluster_ctaid_") ||
         Name.starts_with("cluster_nctaid_") || Name == "cluster_ctarank" ||
         Name == "cluster_nctarank";
}

/// Collects the definitions of one variable in a function body.
class DefinitionFinder : public RecursiveASTVisitor<DefinitionFinder> {
public:
  DefinitionFinder(const VarDecl *V,
                   llvm::SmallVectorImpl<const Expr *> &Values,
                   llvm::SmallVectorImpl<const Stmt *> &Sites, bool &Escapes)
      : V(V), Values(Values), Sites(Sites), Escapes(Escapes) {}

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && rootVariable(BO->getLHS()) == V) {
      Values.push_back(BO->getRHS());
      Sites.push_back(BO);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (rootVariable(UO->getSubExpr()) != V)
      return true;
    if (UO->isIncrementDecrementOp()) {
      Values.push_back(nullptr); // a constant step
      Sites.push_back(UO);
    } else if (UO->getOpcode() == UO_AddrOf) {
      Escapes = true;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *Arg = CE->getArg(I);
      if (rootVariable(Arg) != V)
        continue;
      if (V->getType()->isArrayType() || !FD || I >= FD->getNumParams()) {
        Escapes = true;
        continue;
      }
      QualType T = FD->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        Escapes = true;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
      if (rootVariable(MC->getImplicitObjectArgument()) == V)
        Escapes = true;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      if (OC->getNumArgs() > 0 && rootVariable(OC->getArg(0)) == V)
        Escapes = true;
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    for (unsigned I = 0; I < S->getNumOutputs(); ++I)
      if (rootVariable(S->getOutputExpr(I)) == V)
        Escapes = true;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V &&
          C.getCaptureKind() == LCK_ByRef)
        Escapes = true;
    return true;
  }

private:
  const VarDecl *V;
  llvm::SmallVectorImpl<const Expr *> &Values;
  llvm::SmallVectorImpl<const Stmt *> &Sites;
  bool &Escapes;
};

const Stmt *bodyOf(const Decl *D) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
  return FD ? FD->getBody() : nullptr;
}

} // namespace

bool CtaUniformity::isUniform(const Expr *E, const StackFrameContext *Frame) {
  return uniform(E, Frame, 0);
}

bool CtaUniformity::uniform(const Expr *E, const StackFrameContext *Frame,
                            unsigned Depth) {
  if (!E || !Frame || Depth > MaxDepth)
    return false;
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return false;
  if (const auto *C = dyn_cast<CastExpr>(E))
    return uniform(C->getSubExpr(), Frame, Depth + 1);
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return uniform(FE->getSubExpr(), Frame, Depth + 1);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return uniform(MT->getSubExpr(), Frame, Depth + 1);
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return uniform(DA->getExpr(), Frame, Depth + 1);

  Expr::EvalResult Result;
  if (E->EvaluateAsRValue(Result, Ctx) && !Result.HasSideEffects)
    return true;

  if (const VarDecl *Builtin = builtinVariableOf(E))
    return Builtin->getName() != "threadIdx";

  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && FD->getIdentifier() && CE->getNumArgs() == 0 &&
           isUniformRegisterBuiltin(FD->getName());
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return uniformParameter(P, Frame, Depth + 1);
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return V->hasLocalStorage() && uniformVariable(V, Frame, Depth + 1);
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
           uniform(ME->getBase(), Frame, Depth + 1);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return uniform(AS->getBase(), Frame, Depth + 1) &&
           uniform(AS->getIdx(), Frame, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      return false;
    return uniform(UO->getSubExpr(), Frame, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->isCommaOp())
      return false;
    return uniform(BO->getLHS(), Frame, Depth + 1) &&
           uniform(BO->getRHS(), Frame, Depth + 1);
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return uniform(CO->getCond(), Frame, Depth + 1) &&
           uniform(CO->getTrueExpr(), Frame, Depth + 1) &&
           uniform(CO->getFalseExpr(), Frame, Depth + 1);
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : IL->inits())
      if (!uniform(Init, Frame, Depth + 1))
        return false;
    return true;
  }
  return false;
}

bool CtaUniformity::isSameStableCondition(const Expr *A, const Expr *B) {
  if (!A || !B)
    return false;
  if (A != B) {
    llvm::FoldingSetNodeID IdA, IdB;
    A->Profile(IdA, Ctx, /*Canonical=*/true);
    B->Profile(IdB, Ctx, /*Canonical=*/true);
    if (IdA != IdB)
      return false;
  }
  return stable(A);
}

namespace {

/// Finds what makes a condition's value change between two evaluations.
class StabilityFinder : public RecursiveASTVisitor<StabilityFinder> {
public:
  explicit StabilityFinder(llvm::function_ref<bool(const VarDecl *)> Fixed)
      : Fixed(Fixed) {}
  bool Stable = true;

  // `threadIdx.x` is a property whose semantic form calls a getter: look at
  // what is written only.
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    return TraverseStmt(E->getSyntacticForm());
  }
  bool VisitCallExpr(CallExpr *) { return Stable = false; }
  bool VisitCXXThisExpr(CXXThisExpr *) { return Stable = false; }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    return Stable = !UO->isIncrementDecrementOp();
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    return Stable = !BO->isAssignmentOp() && !BO->isCommaOp();
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      Stable = Fixed(V);
    return Stable;
  }

private:
  llvm::function_ref<bool(const VarDecl *)> Fixed;
};

} // namespace

bool CtaUniformity::stable(const Expr *E) {
  auto Fixed = [this](const VarDecl *V) {
    if (V->getDeclContext()->isTranslationUnit())
      return llvm::StringSwitch<bool>(V->getName())
          .Cases({"threadIdx", "blockIdx", "blockDim", "gridDim"}, true)
          .Default(false);
    if (!V->hasLocalStorage() || V->getType()->isReferenceType())
      return false;
    const Decl *Owner = dyn_cast_or_null<Decl>(V->getParentFunctionOrMethod());
    const VariableDefs &D = definitions(V, bodyOf(Owner));
    size_t Initial = !isa<ParmVarDecl>(V) && V->getInit() ? 1 : 0;
    return !D.Escapes && D.Values.size() == Initial;
  };
  StabilityFinder Finder(Fixed);
  Finder.TraverseStmt(const_cast<Expr *>(E));
  return Finder.Stable;
}

bool CtaUniformity::uniformParameter(const ParmVarDecl *P,
                                     const StackFrameContext *Frame,
                                     unsigned Depth) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Frame->getDecl());
  if (!FD || P->getDeclContext() != FD || P->getType()->isReferenceType())
    return false;
  // The value on entry: a kernel's parameters are the same in every thread;
  // an inlined callee's are the arguments of its call.
  if (Frame->inTopFrame()) {
    if (!FD->hasAttr<CUDAGlobalAttr>())
      return false;
  } else {
    const Stmt *Site = Frame->getCallSite();
    const StackFrameContext *Caller =
        Frame->getParent() ? Frame->getParent()->getStackFrame() : nullptr;
    unsigned Index = P->getFunctionScopeIndex();
    const Expr *Arg = nullptr;
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Site)) {
      if (isa<CXXMethodDecl>(FD))
        ++Index; // argument 0 is the object
      if (Index < OC->getNumArgs())
        Arg = OC->getArg(Index);
    } else if (const auto *CE = dyn_cast_or_null<CallExpr>(Site)) {
      if (Index < CE->getNumArgs())
        Arg = CE->getArg(Index);
    } else if (const auto *CC = dyn_cast_or_null<CXXConstructExpr>(Site)) {
      if (Index < CC->getNumArgs())
        Arg = CC->getArg(Index);
    }
    if (!Arg || !uniform(Arg, Caller, Depth + 1))
      return false;
  }
  // ... and what the body assigns to it later.
  const Stmt *Body = FD->getBody();
  const VariableDefs &D = definitions(P, Body);
  if (D.Escapes)
    return false;
  if (!InProgress.insert(P).second)
    return true;
  bool Uniform = true;
  for (size_t I = 0; I < D.Values.size() && Uniform; ++I)
    Uniform = (!D.Values[I] || uniform(D.Values[I], Frame, Depth + 1)) &&
              uniformControl(D.Sites[I], Body, Frame, Depth + 1);
  InProgress.erase(P);
  return Uniform;
}

bool CtaUniformity::uniformVariable(const VarDecl *V,
                                    const StackFrameContext *Frame,
                                    unsigned Depth) {
  if (InProgress.contains(V))
    return true;
  const Decl *Owner = dyn_cast_or_null<Decl>(V->getParentFunctionOrMethod());
  if (!Owner || Owner != Frame->getDecl() || V->getType()->isReferenceType())
    return false;
  const Stmt *Body = bodyOf(Owner);
  const VariableDefs &D = definitions(V, Body);
  if (D.Escapes || D.Values.empty())
    return false;
  InProgress.insert(V);
  bool Uniform = true;
  for (size_t I = 0; I < D.Values.size() && Uniform; ++I)
    Uniform = (!D.Values[I] || uniform(D.Values[I], Frame, Depth + 1)) &&
              uniformControl(D.Sites[I], Body, Frame, Depth + 1);
  InProgress.erase(V);
  return Uniform;
}

bool CtaUniformity::uniformControl(const Stmt *S, const Stmt *Body,
                                   const StackFrameContext *Frame,
                                   unsigned Depth) {
  if (!S || !Body)
    return false;
  ParentMap &PM = parents(Body);
  const Stmt *Child = S;
  for (const Stmt *P = PM.getParent(Child); P; Child = P, P = PM.getParent(P)) {
    const Expr *Cond = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getCond())
        Cond = If->getCond();
    } else if (const auto *W = dyn_cast<WhileStmt>(P)) {
      if (Child != W->getCond())
        Cond = W->getCond();
    } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
      Cond = Do->getCond();
    } else if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (Child != For->getInit() && Child != For->getCond())
        Cond = For->getCond();
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (Child != Sw->getCond())
        Cond = Sw->getCond();
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child != CO->getCond())
        Cond = CO->getCond();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        Cond = BO->getLHS();
    } else if (isa<CXXForRangeStmt>(P)) {
      return false;
    }
    if (Cond && !uniform(Cond, Frame, Depth + 1))
      return false;
    if (P == Body)
      break;
  }
  return true;
}

ParentMap &CtaUniformity::parents(const Stmt *Body) {
  std::unique_ptr<ParentMap> &PM = ParentMaps[Body];
  if (!PM)
    PM = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  return *PM;
}

const CtaUniformity::VariableDefs &
CtaUniformity::definitions(const VarDecl *V, const Stmt *Body) {
  auto [It, Inserted] = Defs.try_emplace(V);
  VariableDefs &D = It->second;
  if (!Inserted)
    return D;
  if (!isa<ParmVarDecl>(V) && V->getInit()) {
    D.Values.push_back(V->getInit());
    D.Sites.push_back(V->getInit());
  }
  if (Body) {
    DefinitionFinder Finder(V, D.Values, D.Sites, D.Escapes);
    Finder.TraverseStmt(const_cast<Stmt *>(Body));
  } else {
    D.Escapes = true;
  }
  return D;
}

} // namespace tmemcheck::csa
