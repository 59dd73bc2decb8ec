//===- LastIteration.h - Loops that leave through their last test -*- C++
//-*-===//
//
// Part of tmemcheck. `for (int i = 0; i < N; ++i) { ld(i); if (i == N - 1)
// wait_ld(); }` with a constant N waits in its last iteration, and every
// path out of the loop has taken that arm (ThunderKittens' epilogues). A
// graph that lets the loop exit after any iteration would say a load is
// still pending after the loop. The graph builder rewrites such a loop so
// that the exit is reached only through the true arm: the arm, the rest of
// the body and the loop test are copied, the copy of the test leaves the
// loop, and the original test only continues it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_LASTITERATION_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_LASTITERATION_H

#include "tmemcheck/Analysis/KernelGraph.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace tmemcheck {

/// An `if (i == Last)` that holds exactly in the last iteration of its loop.
struct LastIterationTest {
  const clang::ForStmt *Loop;
};

/// \p If when it is a statement of the body of a `for (T i = C0; i < C1;
/// ++i)` loop of constant trip count N >= 1 (not nested in another
/// statement of the body, so every iteration reaches it), its condition
/// is `i == C0 + N - 1` (either side), and the body neither writes `i`,
/// takes its address, `continue`s nor jumps. \p Parents is the parent map
/// of the body of the function \p If is in.
std::optional<LastIterationTest>
findLastIterationTest(const clang::IfStmt &If, const clang::ParentMap &Parents,
                      clang::ASTContext &Ctx);

/// Rewrites the graph of such a loop (graph blocks: the block ending in the
/// test, the entry of its true arm, the block ending in the loop condition,
/// the loop's exit): the exit is reached only through the true arm. False
/// when the shape is not the expected one (nothing is changed then).
bool peelLastIteration(KernelGraph &G, unsigned TestBlock, unsigned ThenEntry,
                       unsigned HeaderLast, unsigned LoopExit);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_LASTITERATION_H
