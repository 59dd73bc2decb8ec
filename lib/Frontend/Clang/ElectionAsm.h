//===- ElectionAsm.h - elect.sync inside inline asm -------------*- C++ -*-===//
//
// Part of tmemcheck. Kernels and libraries elect one lane of a warp with an
// inline-asm `elect.sync` whose predicate they turn into an integer output
// (CuTe's `elect_one_sync`, ThunderKittens' `elect_leader`, learn-cuda's and
// Mirage's `elect_sync`, FlashKDA): `@p mov.s32 %0, 1;` or
// `selp.b32 %0, 1, 0, p;`. Such an output is true in exactly one lane of
// the warp, whatever the helper is called; the value evaluator uses this to
// classify a branch on it as lane-variant (an election) instead of unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_ELECTIONASM_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_ELECTIONASM_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace tmemcheck {

/// An output operand of an asm statement that holds an elect.sync predicate.
struct ElectedOutput {
  unsigned Index = 0; ///< output operand number (%N)
  /// The value the elected lane gets; the other lanes get \c Unelected.
  int64_t Elected = 1;
  /// For `selp`: the value of the other lanes. std::nullopt for a guarded
  /// `mov`, which leaves them with the operand's previous value (with "+r",
  /// the variable's initial value).
  std::optional<int64_t> Unelected;
};

/// The outputs of \p S that receive the predicate of an `elect.sync` of the
/// same asm statement: written by `@p mov %N, imm` or `selp %N, a, b, p`
/// (a != b, both immediates) with `p` the predicate destination of the
/// elect.sync and no other instruction writing %N. The leader's lane id
/// (elect.sync's first destination) is not an election and is not listed.
llvm::SmallVector<ElectedOutput, 2> electedOutputs(const clang::GCCAsmStmt &S);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_ELECTIONASM_H
