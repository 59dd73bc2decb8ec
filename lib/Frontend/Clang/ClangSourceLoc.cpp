//===- ClangSourceLoc.cpp - Clang locations to SourceLocs -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "ClangSourceLoc.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <tuple>

using namespace clang;

namespace tmemcheck {

SourceLoc toSourceLoc(const SourceManager &SM, SourceLocation Loc) {
  SourceLoc Out;
  if (Loc.isInvalid())
    return Out;
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(FileLoc);
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.Line = P.getLine();
  Out.Column = P.getColumn();
  Out.InSystemHeader = SM.isInSystemHeader(FileLoc);
  return Out;
}

SourceLoc toSourceLoc(const SourceManager &SM, const LangOptions &LO,
                      CharSourceRange Range) {
  SourceLoc Out = toSourceLoc(SM, Range.getBegin());
  if (!Out.isValid() || Range.getEnd().isInvalid())
    return Out;
  // The range as file text: makeFileCharRange maps a range within one
  // macro argument to its spelling and one that spans whole expansions to
  // theirs; otherwise the expansion range (the macro call sites).
  CharSourceRange File = Lexer::makeFileCharRange(Range, SM, LO);
  if (File.isInvalid()) {
    File = SM.getExpansionRange(Range);
    if (File.isTokenRange())
      File = CharSourceRange::getCharRange(
          File.getBegin(),
          Lexer::getLocForEndOfToken(File.getEnd(), 0, SM, LO));
  }
  if (File.isInvalid() || File.getEnd().isInvalid())
    return Out;
  PresumedLoc End = SM.getPresumedLoc(File.getEnd());
  if (End.isInvalid() || Out.File != End.getFilename() ||
      std::make_tuple(End.getLine(), End.getColumn()) <=
          std::make_tuple(Out.Line, Out.Column))
    return Out;
  Out.EndLine = End.getLine();
  Out.EndColumn = End.getColumn();
  return Out;
}

std::string inputFilePath(clang::FileManager &FM, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Name);
  FM.makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  return std::string(Path);
}

} // namespace tmemcheck
