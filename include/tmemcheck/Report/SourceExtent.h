//===- SourceExtent.h - Where a finding's code ends -------------*- C++ -*-===//
//
// Part of tmemcheck. Code-scanning services underline a whole region
// (SARIF's endLine/endColumn) and count columns in UTF-16 code units, while
// Clang and the PTX front end count bytes. The C++ front end knows where its
// code ends (SourceLoc::EndLine); this recovers the end of a PTX
// instruction of a .ptx file from the file's text, and converts byte
// columns.
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

/// The PTX instruction at \p Loc of a .ptx file, up to and including the
/// `;` that ends it on its line (without a `;`, the rest of the line before
/// any comment). Nullopt for other files (the C++ front end gives its
/// positions their ends from Clang's source ranges, SourceLoc::EndLine), or
/// when the file or the line cannot be read or Loc is past its line's end.
std::optional<SourceExtent> ptxExtentAt(SourceFiles &Files,
                                        const SourceLoc &Loc);

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
