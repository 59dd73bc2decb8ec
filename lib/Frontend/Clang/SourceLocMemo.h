//===- SourceLocMemo.h - Clang positions made once per file -----*- C++ -*-===//
//
// Part of tmemcheck. Every event of a kernel graph carries the position of
// its statement, and an inlined helper's statements are translated again
// at each of its call sites: making a SourceLoc (presumed line and column,
// the file's name, the end of the range's last token, which re-lexes it)
// at every one of them was about a sixth of graph construction. This memo
// makes each distinct position once per translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_SOURCELOCMEMO_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_SOURCELOCMEMO_H

#include "tmemcheck/Analysis/SourceLoc.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <tuple>

namespace tmemcheck {

/// toSourceLoc (ClangSourceLoc.h), remembered by the raw encodings of the
/// location or range. Positions do not change while the AST lives, so the
/// memo lives as long as the translation unit's graph builder.
class SourceLocMemo {
public:
  SourceLocMemo(const clang::SourceManager &SM, const clang::LangOptions &LO)
      : SM(SM), LO(LO) {}

  /// toSourceLoc(SM, Loc).
  SourceLoc of(clang::SourceLocation Loc);
  /// toSourceLoc(SM, LO, Range).
  SourceLoc of(clang::CharSourceRange Range);
  /// toSourceLoc(SM, LO, Range): the range of whole tokens.
  SourceLoc of(clang::SourceRange Range) {
    return of(clang::CharSourceRange::getTokenRange(Range));
  }
  /// The same positions, not remembered: for what is asked once (a
  /// kernel's own statements; remembering them only costs memory).
  SourceLoc make(clang::SourceLocation Loc) const;
  SourceLoc make(clang::CharSourceRange Range) const;
  SourceLoc make(clang::SourceRange Range) const {
    return make(clang::CharSourceRange::getTokenRange(Range));
  }

private:
  /// Begin, end, and whether the range ends at a token's start.
  using RangeKey = std::tuple<clang::SourceLocation::UIntTy,
                              clang::SourceLocation::UIntTy, unsigned>;

  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  llvm::DenseMap<clang::SourceLocation::UIntTy, SourceLoc> Locations;
  llvm::DenseMap<RangeKey, SourceLoc> Ranges;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_SOURCELOCMEMO_H
