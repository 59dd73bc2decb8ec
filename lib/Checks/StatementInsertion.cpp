//===- StatementInsertion.cpp - Fix-its that add a statement --------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "StatementInsertion.h"

#include <fmt/format.h>

namespace tmemcheck {

std::optional<FixIt> insertLineBefore(const KernelStatement &S,
                                      llvm::StringRef Code) {
  if (!S.LineStart)
    return std::nullopt;
  return FixIt{S.File, *S.LineStart, 0, S.Indent + Code.str() + S.lineBreak()};
}

std::optional<FixIt> insertLineAfter(const KernelStatement &S,
                                     llvm::StringRef Code) {
  if (!S.NextLineStart || !S.LineStart)
    return std::nullopt;
  return FixIt{S.File, *S.NextLineStart, 0,
               S.Indent + Code.str() + S.lineBreak()};
}

bool isWarpConverged(AnalysisContext &Ctx, const Event &E, unsigned B) {
  const KernelGraph &G = Ctx.graph();
  const bool Collective = E.Op && E.Op->isWarpCollective();
  for (unsigned C : Ctx.control().allControllers(B)) {
    const Block &Cond = G.Blocks[C];
    Uniformity U = Cond.BranchUniformity.value_or(Uniformity::Unknown);
    if (U == Uniformity::ThreadVariant ||
        (U == Uniformity::Unknown && !Cond.BranchIsLoop && !Collective))
      return false;
  }
  return true;
}

std::string waitLdStatement(const KernelGraph &G) {
  if (!G.WaitLdCall.empty())
    return G.WaitLdCall + ";";
  return R"(asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");)";
}

std::string relinquishStatement(CtaGroup Group, bool ThroughCccl) {
  int N = Group == CtaGroup::Two ? 2 : 1;
  if (ThroughCccl)
    return fmt::format(
        "cuda::ptx::tcgen05_relinquish_alloc_permit(cuda::ptx::cta_group_{});",
        N);
  return fmt::format("asm volatile(\"tcgen05.relinquish_alloc_permit.cta_"
                     "group::{}.sync.aligned;\" ::: \"memory\");",
                     N);
}

} // namespace tmemcheck
