//===- CtaIdentity.cpp - Does an expression read the CTA's identity -------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "CtaIdentity.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace tmemcheck {

namespace {

/// Calls whose result is the CTA's position in the grid or cluster.
bool isIdentityCall(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"__nvvm_read_ptx_sreg_ctaid_x", "__nvvm_read_ptx_sreg_ctaid_y",
              "__nvvm_read_ptx_sreg_ctaid_z",
              "__nvvm_read_ptx_sreg_cluster_ctarank"},
             true)
      .Cases({"__nvvm_read_ptx_sreg_cluster_ctaid_x",
              "__nvvm_read_ptx_sreg_cluster_ctaid_y",
              "__nvvm_read_ptx_sreg_cluster_ctaid_z", "block_rank_in_cluster",
              "block_id_in_cluster", "__clusterRelativeBlockRank"},
             true)
      .Default(false);
}

/// An asm template that reads a CTA-identity special register.
bool asmReadsIdentity(llvm::StringRef Text) {
  return Text.contains("%ctaid") || Text.contains("%cluster_ctarank") ||
         Text.contains("%cluster_ctaid");
}

class Scanner {
public:
  explicit Scanner(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool scan(const Expr *E, bool UnderPairIndex, unsigned Depth) {
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if ((BO->getOpcode() == BO_Div || BO->getOpcode() == BO_Shr) &&
          isPairDivisor(BO)) {
        // `blockIdx.x / 2`, `rank >> 1`: the same for both CTAs of a pair.
        return scan(BO->getLHS(), true, Depth) ||
               scan(BO->getRHS(), UnderPairIndex, Depth);
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return false;
      if (VD->getName() == "blockIdx")
        return !UnderPairIndex;
      if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || Depth > 6 ||
          !Visited.insert(VD).second)
        return false;
      return scan(VD->getInit(), UnderPairIndex, Depth + 1);
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        if (scan(MC->getImplicitObjectArgument(), UnderPairIndex, Depth))
          return true;
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return false;
      if (isIdentityCall(FD->getName()) || FD->getName() == "block_rank")
        return !UnderPairIndex;
      if (Depth > 3 || !FD->hasBody())
        return false;
      return !UnderPairIndex && bodyReadsIdentity(FD->getBody(), Depth + 1);
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (scan(CE, UnderPairIndex, Depth))
          return true;
    return false;
  }

private:
  /// A helper's body returns the identity or reads it with inline asm.
  bool bodyReadsIdentity(const Stmt *S, unsigned Depth) {
    if (!S)
      return false;
    if (const auto *A = dyn_cast<GCCAsmStmt>(S))
      return asmReadsIdentity(A->getAsmString());
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      return scan(R->getRetValue(), false, Depth);
    for (const Stmt *Child : S->children())
      if (bodyReadsIdentity(Child, Depth))
        return true;
    return false;
  }

  bool isPairDivisor(const BinaryOperator *BO) const {
    const Expr *R = BO->getRHS();
    Expr::EvalResult Res;
    if (R->isValueDependent() || !R->EvaluateAsInt(Res, Ctx))
      return false;
    int64_t V = Res.Val.getInt().getExtValue();
    return BO->getOpcode() == BO_Div ? V >= 2 : V >= 1;
  }

  const ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Visited;
};

} // namespace

bool readsCtaIdentity(const Expr *E, const ASTContext &Ctx) {
  return Scanner(Ctx).scan(E, false, 0);
}

} // namespace tmemcheck
