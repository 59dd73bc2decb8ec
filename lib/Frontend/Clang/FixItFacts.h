//===- FixItFacts.h - What fix-its need to know of the source ---*- C++ -*-===//
//
// Part of tmemcheck. Checks never see the AST, but a fix-it that inserts a
// statement or rewrites a literal needs facts that only the AST and the
// source buffer have: the statement of the kernel body an event belongs to
// and how its line is indented, the literal a column count is written as,
// and how the file spells tcgen05.wait::ld. The graph builder asks this
// class and stores the answers in the KernelGraph.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_FIXITFACTS_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_FIXITFACTS_H

#include "ValueEvaluator.h"

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Ptx/Instruction.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// Source facts for fix-its, gathered while the graphs of one translation
/// unit are built.
class FixItFacts {
public:
  FixItFacts(clang::ASTContext &Ctx, ValueEvaluator &Eval)
      : Ctx(Ctx), Eval(Eval) {}

  /// Starts the graph \p G of \p Kernel: statements are numbered per graph.
  void beginKernel(const clang::FunctionDecl *Kernel, KernelGraph &G);
  /// Ends the kernel: resolves the statements of its events (below).
  void endKernel();

  /// A provisional number for the statement of the kernel body that leads
  /// to \p S, a statement of the function of frame \p F (the outermost call
  /// when F is an inlined callee), for Event::Statement; -1 for implicit
  /// calls. endKernel() turns it into an index into the graph's Statements,
  /// or -1 when that statement is not directly in a `{ }` block or comes
  /// from a macro.
  int statementOf(const clang::Stmt *S, const Frame &F);

  /// \p E (evaluated in \p F) as an integer literal written in user code,
  /// followed through the parameters of inlined calls to the argument
  /// written at a call site: an index into the graph's Literals, or -1.
  int literalOf(const clang::Expr *E, const Frame &F);
  /// An immediate operand \p O of the asm template of \p S, when it maps
  /// byte for byte onto the string literal in the source (index or -1).
  int immediateOf(const clang::GCCAsmStmt &S, const ptx::Operand &O);

  /// Records that \p CE, a call in user code, does nothing but
  /// tcgen05.wait::ld: a wrapper the file uses (\p QualifiedName, e.g.
  /// "cuda::ptx::tcgen05_wait_ld"). Calls with arguments, member calls and
  /// explicit template arguments are not spellings a fix-it can reuse.
  void noteWaitLdWrapperCall(const clang::CallExpr *CE,
                             std::string QualifiedName);
  /// The first recorded wrapper call (in source order) whose function is
  /// declared before \p Kernel, as a call expression; empty if none.
  std::string waitLdCallFor(const clang::FunctionDecl *Kernel) const;

private:
  std::optional<KernelStatement> describe(const clang::Stmt *S) const;
  /// True if the body of \p FD names \p P once: a literal passed for P
  /// then feeds nothing but the use being followed.
  bool isUsedOnce(const clang::ParmVarDecl *P, const clang::FunctionDecl *FD);
  std::optional<WrittenLiteral> findLiteral(const clang::Expr *E,
                                            const Frame &F);
  std::optional<WrittenLiteral> findImmediate(const clang::GCCAsmStmt &S,
                                              const ptx::Operand &O);
  /// Adds \p L to the graph's Literals; its index, or -1.
  int add(std::optional<WrittenLiteral> L);

  struct WaitLdWrapperCall {
    std::string Call;
    clang::SourceLocation Declared;
    clang::SourceLocation CalledAt;
  };

  clang::ASTContext &Ctx;
  ValueEvaluator &Eval;
  KernelGraph *G = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  /// The kernel-level nodes statementOf was asked about, numbered.
  llvm::DenseMap<const clang::Stmt *, int> Queried;
  std::vector<const clang::Stmt *> QueriedStmts;
  llvm::DenseMap<const clang::ParmVarDecl *, bool> UsedOnce;
  std::vector<WaitLdWrapperCall> WaitLdWrappers;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_FIXITFACTS_H
