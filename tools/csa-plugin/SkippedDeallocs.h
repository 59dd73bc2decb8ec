//===- SkippedDeallocs.h - Deallocs other threads may have run --*- C++ -*-===//
//
// Part of tmemcheck. A path is one thread's path, but TMEM is freed for the
// whole CTA by whichever warp runs tcgen05.dealloc: DeepGEMM allocates in
// one warp and frees in another (rules A7). Before the plugin calls an
// allocation leaked at kernel exit, it asks this class whether another
// thread of the CTA may have run a dealloc this thread did not.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_SKIPPEDDEALLOCS_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_SKIPPEDDEALLOCS_H

#include "CtaUniformity.h"
#include "TmemInstructionRecognizer.h"

#include "clang/Analysis/CFG.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/ExplodedGraph.h"
#include "llvm/ADT/DenseMap.h"

namespace tmemcheck::csa {

/// Other threads part from this thread's path at the branches whose
/// condition may differ between the threads of a CTA (CtaUniformity cannot
/// prove it uniform). From the successor this path did not take they may go
/// anywhere the CFG leads (through the code after the arms join, back into
/// the callers), except that at a CTA-uniform branch this path decided,
/// they decide the same way, and at a branch on the same stable condition as
/// the one they left by (`if (warp == 0)` twice) they take the same arm
/// again. If a tcgen05.dealloc (in asm, a modelled wrapper, a called
/// function, or an unknown call that might free) lies on that way, some
/// other thread may have freed the allocation.
class SkippedDeallocs {
public:
  SkippedDeallocs(clang::ASTContext &Ctx,
                  const TmemInstructionRecognizer &Recognizer)
      : Ctx(Ctx), Recognizer(Recognizer), Uniformity(Ctx) {}

  /// True if some thread that left this thread's path (any path into
  /// \p End) may reach a dealloc. Exploring more than a fixed budget of
  /// nodes also answers true (precision first).
  bool mayBeFreedByOtherThreads(const clang::ento::ExplodedNode *End);

private:
  /// A CFG block in one stack frame of the analysis.
  using FrameBlock =
      std::pair<const clang::StackFrameContext *, const clang::CFGBlock *>;
  /// The successors this path took out of each block it branched in.
  using Decisions =
      llvm::DenseMap<FrameBlock, llvm::SmallVector<const clang::CFGBlock *, 2>>;

  /// Whether threads that left this path at \p Branch through its
  /// successor number \p Arm may reach a dealloc.
  bool reachesDealloc(FrameBlock Branch, unsigned Arm, const Decisions &Taken,
                      llvm::DenseMap<FrameBlock, bool> &UniformBranches);
  /// The branch condition of \p B, if it has one.
  static const clang::Expr *conditionOf(const clang::CFGBlock *B);
  bool isUniformBranch(FrameBlock FB,
                       llvm::DenseMap<FrameBlock, bool> &UniformBranches);
  bool blockDeallocates(const clang::CFGBlock &B);
  bool stmtDeallocates(const clang::Stmt *S, unsigned Depth);
  bool functionDeallocates(const clang::FunctionDecl *FD, unsigned Depth);

  clang::ASTContext &Ctx;
  const TmemInstructionRecognizer &Recognizer;
  // Only facts keyed by the AST outlive one question: the analyzer frees
  // the CFGs and stack frames of a top-level function when it is done, and
  // their addresses are reused for the next one.
  CtaUniformity Uniformity;
  /// Functions known to (possibly) deallocate; false while in progress.
  llvm::DenseMap<const clang::FunctionDecl *, bool> FunctionResults;
};

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_SKIPPEDDEALLOCS_H
