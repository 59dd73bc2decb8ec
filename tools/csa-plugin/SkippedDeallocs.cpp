//===- SkippedDeallocs.cpp - Deallocs other threads may have run ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "SkippedDeallocs.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace clang::ento;

namespace tmemcheck::csa {
namespace {

/// Exploded nodes visited per question before giving up (and answering
/// "maybe freed").
constexpr unsigned NodeBudget = 200000;
/// Call depth followed when looking for a dealloc inside called functions.
constexpr unsigned MaxCallDepth = 8;

/// Looks for a statement that may deallocate in a function body.
class DeallocFinder : public RecursiveASTVisitor<DeallocFinder> {
public:
  explicit DeallocFinder(llvm::function_ref<bool(const Stmt *)> Check)
      : Check(Check) {}
  bool Found = false;

  bool VisitStmt(Stmt *S) {
    if (isa<GCCAsmStmt, CallExpr, CXXConstructExpr>(S) && Check(S))
      Found = true;
    return !Found;
  }

private:
  llvm::function_ref<bool(const Stmt *)> Check;
};

} // namespace

bool SkippedDeallocs::mayBeFreedByOtherThreads(const ExplodedNode *End) {
  // Where every path into End branched, and which way.
  Decisions Taken;
  llvm::DenseSet<const ExplodedNode *> Visited;
  llvm::SmallVector<const ExplodedNode *, 64> Worklist{End};
  while (!Worklist.empty()) {
    const ExplodedNode *N = Worklist.pop_back_val();
    if (!Visited.insert(N).second)
      continue;
    if (Visited.size() > NodeBudget)
      return true;
    for (const ExplodedNode *Pred : N->preds())
      Worklist.push_back(Pred);
    std::optional<BlockEdge> Edge = N->getLocationAs<BlockEdge>();
    if (!Edge || Edge->getSrc()->succ_size() < 2)
      continue;
    auto &Succs =
        Taken[{N->getLocationContext()->getStackFrame(), Edge->getSrc()}];
    if (!llvm::is_contained(Succs, Edge->getDst()))
      Succs.push_back(Edge->getDst());
  }

  // Threads that went the other way at a branch that is not CTA-uniform.
  llvm::DenseMap<FrameBlock, bool> UniformBranches;
  for (const auto &[FB, Succs] : Taken) {
    if (isUniformBranch(FB, UniformBranches))
      continue;
    unsigned Arm = 0;
    for (const CFGBlock::AdjacentBlock &Succ : FB.second->succs()) {
      const CFGBlock *Other = Succ.getReachableBlock();
      if (Other && !llvm::is_contained(Succs, Other) &&
          reachesDealloc(FB, Arm, Taken, UniformBranches))
        return true;
      ++Arm;
    }
  }
  return false;
}

const Expr *SkippedDeallocs::conditionOf(const CFGBlock *B) {
  return B->succ_size() == 2
             ? dyn_cast_or_null<Expr>(B->getTerminatorCondition())
             : nullptr;
}

bool SkippedDeallocs::reachesDealloc(
    FrameBlock Branch, unsigned Arm, const Decisions &Taken,
    llvm::DenseMap<FrameBlock, bool> &UniformBranches) {
  const Expr *BranchCond = conditionOf(Branch.second);
  auto ArmOf = [](const CFGBlock *B, unsigned I) {
    return (B->succ_begin() + I)->getReachableBlock();
  };
  llvm::DenseSet<FrameBlock> Seen;
  // A block entered at its first element, or (returning from a callee) the
  // caller's block after the call.
  llvm::SmallVector<std::pair<FrameBlock, unsigned>, 32> Worklist;
  if (const CFGBlock *Start = ArmOf(Branch.second, Arm))
    Worklist.push_back({{Branch.first, Start}, 0});
  while (!Worklist.empty()) {
    auto [FB, FirstElement] = Worklist.pop_back_val();
    auto [Frame, B] = FB;
    if (FirstElement == 0 && !Seen.insert(FB).second)
      continue;
    if (FirstElement == 0) {
      if (blockDeallocates(*B))
        return true;
    } else {
      for (unsigned I = FirstElement; I < B->size(); ++I)
        if (std::optional<CFGStmt> S = (*B)[I].getAs<CFGStmt>();
            S && stmtDeallocates(S->getStmt(), 0))
          return true;
    }

    if (B->succ_empty()) {
      // The exit of an inlined function: continue in the caller.
      if (Frame->inTopFrame() || !Frame->getCallSiteBlock())
        continue;
      const StackFrameContext *Caller = Frame->getParent()->getStackFrame();
      Worklist.push_back(
          {{Caller, Frame->getCallSiteBlock()}, Frame->getIndex() + 1});
      continue;
    }
    // The same condition as the branch these threads left by: same arm.
    if (Frame == Branch.first && BranchCond &&
        B->succ_size() == Branch.second->succ_size() &&
        (B == Branch.second ||
         Uniformity.isSameStableCondition(conditionOf(B), BranchCond))) {
      if (const CFGBlock *S = ArmOf(B, Arm))
        Worklist.push_back({{Frame, S}, 0});
      continue;
    }
    // At a CTA-uniform branch this path decided, every thread decides alike.
    auto It = Taken.find(FB);
    if (It != Taken.end() && isUniformBranch(FB, UniformBranches)) {
      for (const CFGBlock *S : It->second)
        Worklist.push_back({{Frame, S}, 0});
      continue;
    }
    for (const CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const CFGBlock *S = Succ.getReachableBlock())
        Worklist.push_back({{Frame, S}, 0});
  }
  return false;
}

bool SkippedDeallocs::isUniformBranch(
    FrameBlock FB, llvm::DenseMap<FrameBlock, bool> &UniformBranches) {
  auto [It, Inserted] = UniformBranches.try_emplace(FB, false);
  if (!Inserted)
    return It->second;
  // Blocks that branch on no condition (the guard of a static local's
  // initialisation) do not separate threads.
  const auto *Cond =
      dyn_cast_or_null<Expr>(FB.second->getTerminatorCondition());
  bool Uniform = !Cond || Uniformity.isUniform(Cond, FB.first);
  UniformBranches[FB] = Uniform;
  return Uniform;
}

bool SkippedDeallocs::blockDeallocates(const CFGBlock &B) {
  for (const CFGElement &E : B) {
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
      if (stmtDeallocates(S->getStmt(), 0))
        return true;
    } else if (std::optional<CFGImplicitDtor> D = E.getAs<CFGImplicitDtor>()) {
      if (functionDeallocates(D->getDestructorDecl(Ctx), 0))
        return true;
    }
  }
  return false;
}

bool SkippedDeallocs::stmtDeallocates(const Stmt *S, unsigned Depth) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return Recognizer.deallocates(*Asm);
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) // through a pointer: anything may happen
      return true;
    if (const ApiModel *M = TmemInstructionRecognizer::lifecycleModel(FD))
      return M->Op.Kind == TmemOpKind::Dealloc;
    return functionDeallocates(FD, Depth + 1);
  }
  if (const auto *CC = dyn_cast<CXXConstructExpr>(S))
    return functionDeallocates(CC->getConstructor(), Depth + 1);
  return false;
}

bool SkippedDeallocs::functionDeallocates(const FunctionDecl *FD,
                                          unsigned Depth) {
  if (!FD)
    return false;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def)) {
    // Builtins, compiler-generated members and declarations in system
    // headers do not free TMEM; a user function compiled elsewhere (-rdc)
    // might.
    return FD->getBuiltinID() == 0 && !FD->isImplicit() && !FD->isDefaulted() &&
           !FD->isDeleted() &&
           !Ctx.getSourceManager().isInSystemHeader(FD->getLocation());
  }
  if (Depth > MaxCallDepth)
    return true;
  auto It = FunctionResults.find(Def);
  if (It != FunctionResults.end())
    return It->second;
  FunctionResults[Def] = false; // recursion: what is found below decides
  auto Check = [this, Depth](const Stmt *S) {
    return stmtDeallocates(S, Depth);
  };
  DeallocFinder Finder(Check);
  Finder.TraverseStmt(Def->getBody());
  FunctionResults[Def] = Finder.Found;
  return Finder.Found;
}

} // namespace tmemcheck::csa
