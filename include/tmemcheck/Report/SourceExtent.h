//===- SourceExtent.h - Where a finding's code ends -------------*- C++ -*-===//
//
// Part of tmemcheck. Findings carry only the position where their code
// starts; code-scanning services underline a whole region (SARIF's
// endLine/endColumn) and count columns in UTF-16 code units, while Clang
// and the PTX front end count bytes. This recovers the end of the code at
// a position from the file's text and converts byte columns.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_SOURCEEXTENT_H
#define TMEMCHECK_REPORT_SOURCEEXTENT_H

#include "tmemcheck/Analysis/SourceLoc.h"
#include "tmemcheck/Report/SourceFiles.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tmemcheck {

/// A range of a file: 1-based lines and byte columns, End exclusive (the
/// column after the last byte of the code).
struct SourceExtent {
  LineColumn Begin;
  LineColumn End;
};

/// The code at \p Loc as far as the text shows it:
///   - in a PTX file (.ptx), the instruction, up to and including the `;`
///     that ends it on its line (without a `;`, the rest of the line
///     before any comment);
///   - inside a string literal (the PTX template of an asm statement,
///     where findings on inline asm point), the instruction up to and
///     including its `;`, else up to the literal's closing quote;
///   - in C/C++/CUDA, the token at Loc; when the token starts a call or a
///     member access chain (`tmem_ld(r, a)`, `alloc.free(p, 32)`,
///     `cute::TMEM::Allocator1Sm{}.allocate(...)`), the whole call up to
///     its closing parenthesis (lines after Loc's included, at most
///     MaxExtentLines); a string literal (an asm statement's template) up
///     to its closing quote.
/// Nullopt when the file or the line cannot be read or Loc is past its
/// line's end.
std::optional<SourceExtent> extentAt(SourceFiles &Files, const SourceLoc &Loc);

/// How many lines a call's extent may span.
constexpr unsigned MaxExtentLines = 64;

/// The text of line \p Line of \p Path, without its line break.
std::optional<llvm::StringRef> lineText(SourceFiles &Files,
                                        llvm::StringRef Path, unsigned Line);

/// The 1-based column, in UTF-16 code units, of 1-based byte column
/// \p ByteColumn of \p LineText (SARIF's and GitHub's default columnKind
/// "utf16CodeUnits"): each UTF-8 sequence before it counts one unit, two
/// for characters outside the Basic Multilingual Plane, and each byte that
/// is not valid UTF-8 counts one. Columns past the end of the line count
/// one unit per byte beyond it.
unsigned utf16Column(llvm::StringRef LineText, unsigned ByteColumn);

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_SOURCEEXTENT_H
