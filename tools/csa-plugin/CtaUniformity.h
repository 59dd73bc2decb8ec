//===- CtaUniformity.h - Is a branch uniform across a CTA? ------*- C++ -*-===//
//
// Part of tmemcheck. The analyzer follows one thread; TMEM belongs to the
// CTA. A branch whose condition has the same value in every thread of the
// CTA (kernel parameters, blockIdx, loop counters with a uniform start and
// step) sends all threads the same way; any other branch may send other
// threads into the arm this path skipped (design.md, "Semantics" §3).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_CTAUNIFORMITY_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_CTAUNIFORMITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>

namespace tmemcheck::csa {

/// Decides, from the source alone, whether an expression evaluated in an
/// analyzer stack frame is provably the same in every thread of the CTA.
/// "No" means "maybe not": callers use it to stay silent, never to report.
/// Parameters of an inlined callee are judged by the argument at the call
/// site; a local variable by every assignment to it and the conditions
/// those assignments are nested in.
class CtaUniformity {
public:
  explicit CtaUniformity(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  bool isUniform(const clang::Expr *E, const clang::StackFrameContext *Frame);

  /// True if \p A and \p B are the same condition, written alike and
  /// reading only variables that never change after their initialisation
  /// and the CUDA index variables: a thread that evaluates both in one
  /// stack frame gets the same value twice (`if (warp == 0)` ... `if (warp
  /// == 0)`). Calls (which may answer differently) never qualify.
  bool isSameStableCondition(const clang::Expr *A, const clang::Expr *B);

private:
  bool uniform(const clang::Expr *E, const clang::StackFrameContext *Frame,
               unsigned Depth);
  bool stable(const clang::Expr *E);
  bool uniformVariable(const clang::VarDecl *V,
                       const clang::StackFrameContext *Frame, unsigned Depth);
  bool uniformParameter(const clang::ParmVarDecl *P,
                        const clang::StackFrameContext *Frame, unsigned Depth);
  /// The conditions of the statements enclosing \p S in its function are
  /// all uniform.
  bool uniformControl(const clang::Stmt *S, const clang::Stmt *Body,
                      const clang::StackFrameContext *Frame, unsigned Depth);
  clang::ParentMap &parents(const clang::Stmt *Body);

  /// What a function does to one of its local variables.
  struct VariableDefs {
    llvm::SmallVector<const clang::Expr *, 4> Values; ///< init, `=`, `op=`
    llvm::SmallVector<const clang::Stmt *, 4> Sites;  ///< where each is
    bool Escapes = false; ///< address taken, non-const reference, asm output
  };
  const VariableDefs &definitions(const clang::VarDecl *V,
                                  const clang::Stmt *Body);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Stmt *, std::unique_ptr<clang::ParentMap>>
      ParentMaps;
  llvm::DenseMap<const clang::VarDecl *, VariableDefs> Defs;
  /// Variables being judged: assumed uniform while in progress, so that a
  /// loop counter `i += gridDim.x` is uniform when its start is.
  llvm::DenseSet<const clang::VarDecl *> InProgress;
};

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_CTAUNIFORMITY_H
