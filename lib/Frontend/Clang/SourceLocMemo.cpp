//===- SourceLocMemo.cpp - Clang positions made once per file -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "SourceLocMemo.h"

#include "ClangSourceLoc.h"

namespace tmemcheck {

SourceLoc SourceLocMemo::of(clang::SourceLocation Loc) {
  auto [It, Inserted] = Locations.try_emplace(Loc.getRawEncoding());
  if (Inserted)
    It->second = toSourceLoc(SM, Loc);
  return It->second;
}

SourceLoc SourceLocMemo::of(clang::CharSourceRange Range) {
  auto [It, Inserted] = Ranges.try_emplace(
      RangeKey(Range.getBegin().getRawEncoding(),
               Range.getEnd().getRawEncoding(), Range.isTokenRange()));
  if (Inserted)
    It->second = toSourceLoc(SM, LO, Range);
  return It->second;
}

SourceLoc SourceLocMemo::make(clang::SourceLocation Loc) const {
  return toSourceLoc(SM, Loc);
}

SourceLoc SourceLocMemo::make(clang::CharSourceRange Range) const {
  return toSourceLoc(SM, LO, Range);
}

} // namespace tmemcheck
