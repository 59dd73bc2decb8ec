//===- LoopTrips.h - Constant trip counts around a statement ----*- C++ -*-===//
//
// Part of tmemcheck. How many times a statement runs per iteration of the
// loops around it whose trip count is not a constant (the persistent tile
// loop): the product of the constant trip counts of the `for` loops around
// it, through the calls it was inlined from. The resource report's
// readback cost per tile multiplies each tcgen05.ld by it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_LOOPTRIPS_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_LOOPTRIPS_H

#include "ValueEvaluator.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>

namespace tmemcheck {

/// The variable \p E names (through parentheses and casts), or nullptr.
const clang::VarDecl *referencedVar(const clang::Expr *E);
/// The integer constant \p E evaluates to, if it is one.
std::optional<int64_t> constantOf(const clang::Expr *E, clang::ASTContext &Ctx);

/// Counts the constant-trip `for` loops around statements, one parent map
/// per function body, built when first asked.
class LoopTripCounter {
public:
  explicit LoopTripCounter(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The product of the constant trip counts of the `for` loops whose body
  /// holds \p S (a statement of \p F's function) or the call sites \p F was
  /// inlined through; loops of unknown count count once. Capped at 2^20.
  unsigned tripsAround(const clang::Stmt *S, const Frame &F);

  /// `for (i = C0; i < C1; i += S)` and its `<=`, `!=`, `++i` variants with
  /// constant bounds and step: the number of iterations.
  static std::optional<uint64_t> constantTripCount(const clang::ForStmt &For,
                                                   clang::ASTContext &Ctx);

  /// The parent map of \p FD's body (built once), or nullptr.
  clang::ParentMap *parentsOf(const clang::FunctionDecl *FD);
  /// Drops \p FD's parent map (a kernel's, once its graph is built).
  void forget(const clang::FunctionDecl *FD) { Parents.erase(FD); }

private:

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<clang::ParentMap>>
      Parents;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_LOOPTRIPS_H
