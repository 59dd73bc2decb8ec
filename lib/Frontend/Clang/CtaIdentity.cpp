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

  /// Reads of the identity outside a pair index.
  bool Found = false;
  /// Parts whose value could not be followed, or that vary within the
  /// CTA (threadIdx, struct fields of unknown origin, unknown calls).
  bool Other = false;

  void scan(const Expr *E, bool UnderPairIndex, unsigned Depth) {
    if (!E)
      return;
    E = E->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if ((BO->getOpcode() == BO_Div || BO->getOpcode() == BO_Shr) &&
          isPairDivisor(BO)) {
        // `blockIdx.x / 2`, `rank >> 1`: the same for both CTAs of a pair.
        scan(BO->getLHS(), true, Depth);
        scan(BO->getRHS(), UnderPairIndex, Depth);
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return;
      if (VD->getName() == "blockIdx") {
        Found |= !UnderPairIndex;
        return;
      }
      if (VD->getName() == "threadIdx") {
        Other = true;
        return;
      }
      if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
        return; // kernel parameters, constants: the same in both CTAs
      if (Depth > 6 || !Visited.insert(VD).second)
        return;
      scan(VD->getInit(), UnderPairIndex, Depth + 1);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A field of a local aggregate: only that field's initialiser
      // (`is_participant.mma`, not the `is_first_cta_in_cluster` next to it).
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD)) {
            const Expr *Init =
                VD->getInit() ? VD->getInit()->IgnoreParenImpCasts() : nullptr;
            if (const auto *IL = dyn_cast_or_null<InitListExpr>(Init)) {
              if (FD && FD->getFieldIndex() < IL->getNumInits() && Depth <= 6) {
                scan(IL->getInit(FD->getFieldIndex()), UnderPairIndex,
                     Depth + 1);
                return;
              }
            } else if (Init && Depth <= 6 && Visited.insert(VD).second) {
              scan(Init, UnderPairIndex, Depth + 1); // `dim3 b = ...; b.x`
              return;
            }
          }
      if (isa<CallExpr>(Base)) {
        scan(Base, UnderPairIndex, Depth); // `block_id_in_cluster().x`
        return;
      }
      Other = true;
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        scan(MC->getImplicitObjectArgument(), UnderPairIndex, Depth);
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || !FD->getIdentifier()) {
        Other = true;
        return;
      }
      if (isIdentityCall(FD->getName()) || FD->getName() == "block_rank") {
        Found |= !UnderPairIndex;
        return;
      }
      if (Depth > 3 || !FD->hasBody() ||
          !bodyReadsIdentity(FD->getBody(), Depth + 1)) {
        Other = true;
        return;
      }
      Found |= !UnderPairIndex;
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        scan(CE, UnderPairIndex, Depth);
  }

private:
  /// A helper's body returns the identity or reads it with inline asm.
  bool bodyReadsIdentity(const Stmt *S, unsigned Depth) {
    if (!S)
      return false;
    if (const auto *A = dyn_cast<GCCAsmStmt>(S))
      return asmReadsIdentity(A->getAsmString());
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      Scanner Inner(Ctx);
      Inner.scan(R->getRetValue(), false, Depth);
      return Inner.Found;
    }
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

CtaIdentityRead readsCtaIdentity(const Expr *E, const ASTContext &Ctx) {
  Scanner S(Ctx);
  S.scan(E, false, 0);
  if (!S.Found)
    return CtaIdentityRead::No;
  return S.Other ? CtaIdentityRead::AmongOthers : CtaIdentityRead::Only;
}

} // namespace tmemcheck
