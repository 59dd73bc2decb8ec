//===- SourceFiles.h - Input files as the reports see them ------*- C++ -*-===//
//
// Part of tmemcheck. Findings carry lines and columns, fix-its byte
// offsets; clang-tidy's YAML wants offsets for both, text and SARIF lines
// and columns for both. This reads each file once and converts between the
// two (columns are 1-based byte columns, as clang counts them).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_REPORT_SOURCEFILES_H
#define TMEMCHECK_REPORT_SOURCEFILES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <utility>

namespace tmemcheck {

/// A 1-based line and byte column.
struct LineColumn {
  unsigned Line = 0;
  unsigned Column = 0;
};

/// The text of input files, read on first use, with position conversions.
class SourceFiles {
public:
  /// The contents of \p Path, or nullopt if it cannot be read.
  std::optional<llvm::StringRef> text(llvm::StringRef Path);
  /// The line and column of byte \p Offset of \p Path (Offset may be the
  /// size of the file: the position after its last byte).
  std::optional<LineColumn> lineColumn(llvm::StringRef Path, unsigned Offset);
  /// The byte offset of \p Line : \p Column of \p Path.
  std::optional<unsigned> offset(llvm::StringRef Path, unsigned Line,
                                 unsigned Column);

private:
  /// The buffer id of \p Path in Buffers, or 0 if it cannot be read.
  unsigned bufferOf(llvm::StringRef Path);

  llvm::SourceMgr Buffers;
  llvm::StringMap<unsigned> Ids;
};

} // namespace tmemcheck

#endif // TMEMCHECK_REPORT_SOURCEFILES_H
