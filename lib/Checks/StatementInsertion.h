//===- StatementInsertion.h - Fix-its that add a statement ------*- C++ -*-===//
//
// Part of tmemcheck. The fix-its of tmem-missing-wait-ld and
// tmem-missing-relinquish put one warp-collective tcgen05 statement on a
// line of its own next to a statement of the kernel body. This says where
// that is certainly right and how the new statement is spelled.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_CHECKS_STATEMENTINSERTION_H
#define TMEMCHECK_LIB_CHECKS_STATEMENTINSERTION_H

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tmemcheck {

/// An edit that puts \p Code on a line of its own before \p S, indented
/// like S; nullopt when S does not start its line.
std::optional<FixIt> insertLineBefore(const KernelStatement &S,
                                      llvm::StringRef Code);

/// An edit that puts \p Code on a line of its own after \p S, indented like
/// S; nullopt when S does not end its line.
std::optional<FixIt> insertLineAfter(const KernelStatement &S,
                                     llvm::StringRef Code);

/// True when the lanes of a warp reach event \p E (in block \p B)
/// together, so that a `.sync.aligned` statement may be added next to it
/// (rule A2): no lane-dependent condition decides whether B runs. A
/// condition of unknown uniformity is accepted for a loop (lanes leave the
/// loops of kernels together, as tmem-divergent-collective assumes too) and
/// when E is itself warp-collective (the code already needs the lanes
/// converged there).
bool isWarpConverged(AnalysisContext &Ctx, const Event &E, unsigned B);

/// tcgen05.wait::ld as a statement, spelled the way the kernel's file
/// already does (KernelGraph::WaitLdCall), else as raw inline asm.
std::string waitLdStatement(const KernelGraph &G);

/// tcgen05.relinquish_alloc_permit for \p Group (One or Two) as a
/// statement: through CCCL's wrapper when \p ThroughCccl, else raw asm.
std::string relinquishStatement(CtaGroup Group, bool ThroughCccl);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_CHECKS_STATEMENTINSERTION_H
