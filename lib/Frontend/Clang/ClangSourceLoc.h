//===- ClangSourceLoc.h - Clang locations to SourceLocs ---------*- C++ -*-===//
//
// Part of tmemcheck. The analysis core sees plain file/line/column
// positions (SourceLoc); this is where the C++ front end makes them from
// Clang's locations and source ranges.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_CLANGSOURCELOC_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_CLANGSOURCELOC_H

#include "tmemcheck/Analysis/SourceLoc.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace tmemcheck {

/// The position of \p Loc: its file location (the macro's call site for a
/// location inside a macro body, the argument as written for one inside a
/// macro argument), with no end.
SourceLoc toSourceLoc(const clang::SourceManager &SM,
                      clang::SourceLocation Loc);

/// The position of \p Range's start, as toSourceLoc(SM, Loc) gives it,
/// with the end of the range in the file (SourceLoc::EndLine/EndColumn,
/// just past its last character). A range that begins or ends inside a
/// macro expansion ends where the macro's call site ends (`TMEM_LD(a)` up to
/// its closing parenthesis), unless it lies within one macro argument (then
/// the argument as written). No end when the end lands in another file or
/// before the start.
SourceLoc toSourceLoc(const clang::SourceManager &SM,
                      const clang::LangOptions &LO,
                      clang::CharSourceRange Range);

/// toSourceLoc of the token range \p Range (a statement's or expression's
/// getSourceRange(): its end is the start of its last token).
inline SourceLoc toSourceLoc(const clang::SourceManager &SM,
                             const clang::LangOptions &LO,
                             clang::SourceRange Range) {
  return toSourceLoc(SM, LO, clang::CharSourceRange::getTokenRange(Range));
}

/// The absolute path of file \p Name as an include closure records it (the
/// result cache, a PCH's inputs): `.` removed, `..` kept (through a symbolic
/// link it names another directory).
std::string inputFilePath(clang::FileManager &FM, llvm::StringRef Name);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_CLANGSOURCELOC_H
