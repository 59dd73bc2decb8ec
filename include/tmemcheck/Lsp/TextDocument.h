//===- TextDocument.h - An editor's buffer and its positions ----*- C++ -*-===//
//
// Part of tmemcheck. The language server analyses what the editor shows,
// not what is on disk: the buffer of each open document, kept up to date
// from full and incremental changes. LSP positions count characters in
// UTF-16 code units by default (or bytes, when both sides agree on UTF-8),
// while Clang counts bytes; this is the one place that converts.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LSP_TEXTDOCUMENT_H
#define TMEMCHECK_LSP_TEXTDOCUMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tmemcheck {
namespace lsp {

/// How the client counts characters within a line.
enum class PositionEncoding { Utf16, Utf8 };

/// An LSP position: 0-based line, 0-based character in the encoding.
struct Position {
  unsigned Line = 0;
  unsigned Character = 0;
  friend bool operator==(const Position &A, const Position &B) {
    return A.Line == B.Line && A.Character == B.Character;
  }
};

/// An LSP range, End exclusive.
struct Range {
  Position Start;
  Position End;
};

/// The text of one open document and the version the editor gave it.
class TextDocument {
public:
  TextDocument() = default;
  TextDocument(std::string Text, int64_t Version)
      : Text(std::move(Text)), Version(Version) {
    indexLines();
  }

  llvm::StringRef text() const { return Text; }
  int64_t version() const { return Version; }

  /// Replaces \p R by \p NewText (an incremental change), or the whole text
  /// when \p R is null (a full change), and takes \p NewVersion. Fails,
  /// leaving the document as it was, when \p R lies outside the text or
  /// ends before it starts.
  llvm::Error applyChange(const Range *R, llvm::StringRef NewText,
                          int64_t NewVersion, PositionEncoding Enc);

  /// The byte offset of \p P; a character past the end of its line is the
  /// end of the line (as LSP says), a line past the end fails.
  llvm::Expected<size_t> offsetOf(Position P, PositionEncoding Enc) const;

  /// The position of 1-based line \p Line and 1-based byte column
  /// \p ByteColumn (Clang's SourceLoc), clamped to the text.
  Position positionOf(unsigned Line, unsigned ByteColumn,
                      PositionEncoding Enc) const;
  /// The position of byte offset \p Offset, clamped to the text.
  Position positionAtOffset(size_t Offset, PositionEncoding Enc) const;

  /// Number of lines (a text ending in a line break has an empty last
  /// line).
  unsigned lineCount() const { return LineStarts.size(); }
  /// Line \p Line (0-based) without its line break.
  llvm::StringRef line(unsigned Line) const;

private:
  void indexLines();

  std::string Text;
  int64_t Version = 0;
  std::vector<size_t> LineStarts;
};

/// The number of code units of \p Enc in the first \p Bytes bytes of
/// \p LineText (invalid UTF-8 counts a unit per byte).
unsigned unitsInBytes(llvm::StringRef LineText, size_t Bytes,
                      PositionEncoding Enc);
/// The number of bytes of \p LineText that \p Units code units of \p Enc
/// span, at most the line's length.
size_t bytesInUnits(llvm::StringRef LineText, unsigned Units,
                    PositionEncoding Enc);

} // namespace lsp
} // namespace tmemcheck

#endif // TMEMCHECK_LSP_TEXTDOCUMENT_H
