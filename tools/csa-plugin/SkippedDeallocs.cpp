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
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ento;

namespace tmemcheck::csa {
namespace {

/// Exploded nodes visited per question before giving up (and answering
/// "maybe freed").
constexpr unsigned NodeBudget = 200000;
/// Call depth followed when looking for a dealloc inside called functions.
constexpr unsigned MaxCallDepth = 8;

/// Looks for a dealloc in a function body: asm, modelled wrappers, and
/// (through the owner) the functions it calls.
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
    const Stmt *Cond = Edge->getSrc()->getTerminatorCondition();
    const auto *CondExpr = dyn_cast_or_null<Expr>(Cond);
    const LocationContext *LC = N->getLocationContext();
    CFG *Cfg = LC->getCFG();
    if (!CondExpr || !Cfg)
      continue;
    if (Uniformity.isUniform(CondExpr, LC->getStackFrame()))
      continue;
    if (armDeallocates(Edge->getSrc(), Edge->getDst(), *Cfg))
      return true;
  }
  return false;
}

bool SkippedDeallocs::armDeallocates(const CFGBlock *Branch,
                                     const CFGBlock *Taken, CFG &Cfg) {
  std::unique_ptr<CFGPostDomTree> &PDT = PostDominators[&Cfg];
  if (!PDT)
    PDT = std::make_unique<CFGPostDomTree>(&Cfg);
  const CFGBlock *Join = nullptr;
  if (auto *Node = PDT->getBase().getNode(const_cast<CFGBlock *>(Branch)))
    if (auto *IDom = Node->getIDom())
      Join = IDom->getBlock();

  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  llvm::SmallVector<const CFGBlock *, 32> Worklist;
  for (const CFGBlock::AdjacentBlock &Succ : Branch->succs())
    if (const CFGBlock *S = Succ.getReachableBlock(); S && S != Taken)
      Worklist.push_back(S);
  while (!Worklist.empty()) {
    const CFGBlock *B = Worklist.pop_back_val();
    if (B == Join || B == Branch || !Seen.insert(B).second)
      continue;
    if (blockDeallocates(*B))
      return true;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const CFGBlock *S = Succ.getReachableBlock())
        Worklist.push_back(S);
  }
  return false;
}

bool SkippedDeallocs::blockDeallocates(const CFGBlock &B) {
  auto [It, Inserted] = BlockResults.try_emplace(&B, false);
  if (!Inserted)
    return It->second;
  bool Result = false;
  for (const CFGElement &E : B) {
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
      Result = stmtDeallocates(S->getStmt(), 0);
    else if (std::optional<CFGImplicitDtor> D = E.getAs<CFGImplicitDtor>())
      Result = functionDeallocates(D->getDestructorDecl(Ctx), 0);
    if (Result)
      break;
  }
  BlockResults[&B] = Result;
  return Result;
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
