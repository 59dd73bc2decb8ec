//===- CtaIdentity.h - Does an expression read the CTA's identity -*- C++
//-*-===//
//
// Part of tmemcheck. The two CTAs of a cta_group::2 pair run the same code
// but have different blockIdx / %cluster_ctarank values: a CTA-uniform
// branch on such a value may send them different ways (one returns early,
// the other waits for it in a paired tcgen05.alloc). The Clang front end
// records that fact per branch (Block::BranchReadsCtaId).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_CTAIDENTITY_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_CTAIDENTITY_H

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace tmemcheck {

/// Whether a condition reads the CTA's own identity.
enum class CtaIdentityRead {
  No,
  /// Yes, and every other part of it is known to be the same in all threads
  /// of the CTA (constants, kernel parameters, locals made of them).
  Only,
  /// Yes, next to parts whose value was not followed (struct fields, calls,
  /// threadIdx): the branch is per CTA only if its uniformity says so.
  AmongOthers,
};

/// Whether \p E reads the CTA's own identity: `blockIdx`, the ctaid and
/// cluster-rank special registers (builtins, or inline asm of a helper it
/// calls), `cute::block_rank_in_cluster()`, followed through the
/// initialisers of local variables and aggregate fields. A read that is
/// only divided or shifted right by a constant (`blockIdx.x / 2`, a pair
/// index) does not count.
CtaIdentityRead readsCtaIdentity(const clang::Expr *E,
                                 const clang::ASTContext &Ctx);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_CTAIDENTITY_H
