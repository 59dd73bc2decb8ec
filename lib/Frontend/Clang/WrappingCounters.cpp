//===- WrappingCounters.cpp - Fields kept below a bound -------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "WrappingCounters.h"

#include "LoopTrips.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <vector>

using namespace clang;

namespace tmemcheck {

namespace {

/// `this->FD` (the `this` implicit or written), through parentheses and
/// implicit casts.
bool isThisField(const Expr *E, const FieldDecl *FD) {
  const auto *ME =
      dyn_cast_or_null<MemberExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return ME && ME->getMemberDecl() == FD &&
         isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
}

} // namespace

/// Counts, over the whole translation unit, the references to each field
/// that are not plain reads of its value: assignments, increments,
/// references bound to it, its address taken. A field written outside its
/// class's member functions (a public field) has writes the limit scan
/// cannot vouch for.
class FieldUseCounter : public RecursiveASTVisitor<FieldUseCounter> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      ++References[FD];
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_LValueToRValue)
      if (const auto *ME =
              dyn_cast<MemberExpr>(C->getSubExpr()->IgnoreParens()))
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          ++Reads[FD];
    return true;
  }

  /// References that are not reads (a member call's object, a write, a
  /// reference bound to it, a sub-object's access are all counted here).
  unsigned nonReads(const FieldDecl *FD) const {
    auto R = References.find(FD);
    auto V = Reads.find(FD);
    unsigned All = R == References.end() ? 0 : R->second;
    unsigned Read = V == Reads.end() ? 0 : V->second;
    return All > Read ? All - Read : 0;
  }

private:
  llvm::DenseMap<const FieldDecl *, unsigned> References, Reads;
};

namespace {

/// Walks one member function's body for the writes of a field.
class WriteScan {
public:
  WriteScan(const FieldDecl *FD, const CXXRecordDecl *RD, ASTContext &Ctx)
      : FD(FD), RD(RD), Ctx(Ctx) {}

  /// False when a write breaks the pattern.
  bool scan(const Stmt *S) {
    if (!S)
      return true;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      std::vector<const Stmt *> Body(CS->body_begin(), CS->body_end());
      for (size_t I = 0; I < Body.size(); ++I) {
        if (const auto *UO = dyn_cast<UnaryOperator>(Body[I]);
            UO && UO->isIncrementOp() && isThisField(UO->getSubExpr(), FD)) {
          if (!wrapsAfter(llvm::ArrayRef(Body).drop_front(I + 1)))
            return false;
          ++Writes;
          continue;
        }
        if (!scan(Body[I]))
          return false;
      }
      return true;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
          isThisField(UO->getSubExpr(), FD))
        return false; // not a statement of its own, or a decrement
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isCompoundAssignmentOp() && isThisField(BO->getLHS(), FD))
        return false;
      if (BO->getOpcode() == BO_Assign && isThisField(BO->getLHS(), FD)) {
        if (!acceptValue(BO->getRHS()))
          return false;
        ++Writes;
        return scan(BO->getRHS());
      }
    }
    for (const Stmt *Child : S->children())
      if (!scan(Child))
        return false;
    return true;
  }

  /// `if (f == K) { ... f = 0; ... }` (or `f >= K`) among \p Rest: the
  /// increment before it wraps at K.
  bool wrapsAfter(llvm::ArrayRef<const Stmt *> Rest) {
    for (const Stmt *S : Rest) {
      const auto *If = dyn_cast<IfStmt>(S);
      if (!If || If->getInit() || If->getConditionVariable() ||
          If->isConsteval())
        continue;
      const auto *Cond =
          dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
      if (!Cond || (Cond->getOpcode() != BO_EQ && Cond->getOpcode() != BO_GE) ||
          !isThisField(Cond->getLHS(), FD))
        continue;
      std::optional<int64_t> K = constantOf(Cond->getRHS(), Ctx);
      if (!K || *K <= 0 || !resetsToZero(If->getThen()))
        continue;
      return noteLimit(*K);
    }
    return false;
  }

  std::optional<int64_t> Limit;
  std::vector<int64_t> Constants;
  /// Writes of the field accepted (each a reference the use counter saw).
  unsigned Writes = 0;

private:
  bool noteLimit(int64_t K) {
    if (Limit && *Limit != K)
      return false;
    Limit = K;
    return true;
  }

  bool resetsToZero(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign && isThisField(BO->getLHS(), FD)) {
      std::optional<int64_t> C = constantOf(BO->getRHS(), Ctx);
      return C && *C == 0;
    }
    for (const Stmt *Child : S->children())
      if (resetsToZero(Child))
        return true;
    return false;
  }

  /// A value a write may store: see WrappingCounters::limitOf.
  bool acceptValue(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (std::optional<int64_t> C = constantOf(E, Ctx)) {
      Constants.push_back(*C);
      return true;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Rem &&
        BO->getType()->isUnsignedIntegerType())
      if (std::optional<int64_t> K = constantOf(BO->getRHS(), Ctx); K && *K > 0)
        return noteLimit(*K);
    // The same field of another object of the class.
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl() == FD &&
             !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      const FunctionDecl *Def = nullptr;
      if (!M || M->getParent() != RD || !M->hasBody(Def) || !Def ||
          isa<CXXThisExpr>(
              MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
        return false;
      const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
      const auto *Ret = Body && Body->size() == 1
                            ? dyn_cast<ReturnStmt>(Body->body_front())
                            : nullptr;
      return Ret && isThisField(Ret->getRetValue(), FD);
    }
    return false;
  }

  const FieldDecl *FD;
  const CXXRecordDecl *RD;
  ASTContext &Ctx;
};

} // namespace

std::optional<int64_t> WrappingCounters::limitOf(const FieldDecl *FD) {
  if (!FD)
    return std::nullopt;
  auto [It, New] = Limits.try_emplace(FD);
  if (New)
    It->second = computeLimit(FD);
  return It->second;
}

std::optional<int64_t> WrappingCounters::computeLimit(const FieldDecl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD || !FD->getType()->isIntegerType() || FD->isBitField() ||
      FD->isMutable())
    return std::nullopt;
  WriteScan Scan(FD, RD, Ctx);
  unsigned ConstructorWrites = 0;
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!M->hasBody(Def) || !Def)
      continue;
    // A constructor's writes are the object's first value, which the
    // caller checks; count them as seen.
    if (isa<CXXConstructorDecl>(M)) {
      if (const auto *Body = dyn_cast<CompoundStmt>(Def->getBody()))
        for (const Stmt *S : Body->body())
          if (const auto *BO = dyn_cast<BinaryOperator>(S);
              BO && BO->getOpcode() == BO_Assign &&
              isThisField(BO->getLHS(), FD))
            ++ConstructorWrites;
      continue;
    }
    if (!Scan.scan(Def->getBody()))
      return std::nullopt;
  }
  if (!Scan.Limit)
    return std::nullopt;
  for (int64_t C : Scan.Constants)
    if (C < 0 || C >= *Scan.Limit)
      return std::nullopt;
  // Every reference to the field that is not a read must be one of the
  // writes above: nothing outside the class changes it.
  if (!Uses) {
    Uses = std::make_unique<FieldUseCounter>();
    Uses->TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  // The wrap's reset `f = 0` is a write the scan accepted as a constant.
  if (Uses->nonReads(FD) != Scan.Writes + ConstructorWrites)
    return std::nullopt;
  return Scan.Limit;
}

WrappingCounters::WrappingCounters(ASTContext &Ctx) : Ctx(Ctx) {}
WrappingCounters::~WrappingCounters() = default;

} // namespace tmemcheck
