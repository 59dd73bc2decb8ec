//===- SkippedDeallocs.h - Deallocs other threads may have run --*- C++ -*-===//
//
// Part of tmemcheck. A path is one thread's path, but TMEM is freed for the
// whole CTA by whichever warp runs tcgen05.dealloc: DeepGEMM allocates in
// one warp and frees in another (rules A7). Before the plugin calls an
// allocation leaked at kernel exit, it asks this class whether the path
// skipped a dealloc that other threads of the CTA may have executed.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_SKIPPEDDEALLOCS_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_SKIPPEDDEALLOCS_H

#include "CtaUniformity.h"
#include "TmemInstructionRecognizer.h"

#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ExplodedGraph.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace tmemcheck::csa {

/// Finds, on the paths leading to an exploded node, branches whose
/// condition may differ between the threads of a CTA (CtaUniformity says
/// "not provably uniform") and whose arm not taken contains a
/// tcgen05.dealloc — directly, in a called function, or as an unknown call
/// that might. The arm is the part of the CFG between the branch and its
/// immediate post-dominator, so a dealloc after the arms join (which this
/// thread would have run too) does not count.
class SkippedDeallocs {
public:
  SkippedDeallocs(clang::ASTContext &Ctx,
                  const TmemInstructionRecognizer &Recognizer)
      : Ctx(Ctx), Recognizer(Recognizer), Uniformity(Ctx) {}

  /// True if some path into \p End skipped such an arm. Exploring more
  /// nodes than a fixed budget also answers true (precision first).
  bool mayBeFreedByOtherThreads(const clang::ento::ExplodedNode *End);

private:
  bool armDeallocates(const clang::CFGBlock *Branch,
                      const clang::CFGBlock *Taken, clang::CFG &Cfg);
  bool blockDeallocates(const clang::CFGBlock &B);
  bool stmtDeallocates(const clang::Stmt *S, unsigned Depth);
  bool functionDeallocates(const clang::FunctionDecl *FD, unsigned Depth);

  clang::ASTContext &Ctx;
  const TmemInstructionRecognizer &Recognizer;
  CtaUniformity Uniformity;
  llvm::DenseMap<const clang::CFG *, std::unique_ptr<clang::CFGPostDomTree>>
      PostDominators;
  llvm::DenseMap<const clang::CFGBlock *, bool> BlockResults;
  /// Functions known to (possibly) deallocate; absent while in progress.
  llvm::DenseMap<const clang::FunctionDecl *, bool> FunctionResults;
};

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_SKIPPEDDEALLOCS_H
