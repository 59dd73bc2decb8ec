//===- WrappingCounters.h - Fields kept below a bound -----------*- C++ -*-===//
//
// Part of tmemcheck. A pipeline's stage index is a field its methods move
// (CUTLASS's PipelineState: `++index_; if (index_ == Stages) index_ = 0;`,
// `index_ = (index_ + n) % Stages`, `index_ = other.index()`), so no one
// value of it is known where it is read. Every such write keeps it in
// [0, Stages) once it is there, though: with one stage (the depth-1
// OrderedSequenceBarrier between two softmax warpgroups) it is always 0,
// and the barrier `barrier_ptr_[stage.index() * 2 + group_id]` is the
// group's own.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_WRAPPINGCOUNTERS_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_WRAPPINGCOUNTERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace tmemcheck {

class FieldUseCounter;

/// Finds the fields whose every change by their class's member functions
/// keeps them in [0, K) when they start there.
class WrappingCounters {
public:
  explicit WrappingCounters(clang::ASTContext &Ctx);
  ~WrappingCounters();

  /// K, when every write of \p FD in the member functions of its class is
  /// one of: `++f` followed in the same block by `if (f == K) f = 0;` (or
  /// `f >= K`), `f = e % K` of an unsigned `e`, a constant in [0, K), or
  /// the same field of another object of the class (`f = other.f`,
  /// `f = other.index()` with index() returning f). The constructors' and
  /// the in-class initial values are the caller's to check.
  std::optional<int64_t> limitOf(const clang::FieldDecl *FD);

private:
  std::optional<int64_t> computeLimit(const clang::FieldDecl *FD);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FieldDecl *, std::optional<int64_t>> Limits;
  /// The translation unit's field references, counted when first needed.
  std::unique_ptr<FieldUseCounter> Uses;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_WRAPPINGCOUNTERS_H
