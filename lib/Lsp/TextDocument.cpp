//===- TextDocument.cpp - An editor's buffer and its positions ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Lsp/TextDocument.h"

#include "llvm/Support/ConvertUTF.h"

#include <algorithm>

namespace tmemcheck {
namespace lsp {

namespace {

/// The length of the UTF-8 sequence that starts with \p Lead, or 1 for a
/// byte that cannot start one (counted as one unit of its own).
size_t sequenceLength(llvm::StringRef S, size_t At) {
  unsigned char Lead = S[At];
  size_t Len = llvm::getNumBytesForUTF8(Lead);
  if (Len < 1 || Len > 4 || At + Len > S.size())
    return 1;
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(S.data() + At);
  if (!llvm::isLegalUTF8Sequence(Begin, Begin + Len))
    return 1;
  return Len;
}

/// UTF-16 code units of the sequence of \p Len bytes.
unsigned utf16Units(size_t Len) { return Len == 4 ? 2 : 1; }

} // namespace

unsigned unitsInBytes(llvm::StringRef LineText, size_t Bytes,
                      PositionEncoding Enc) {
  Bytes = std::min(Bytes, LineText.size());
  if (Enc == PositionEncoding::Utf8)
    return Bytes;
  unsigned Units = 0;
  for (size_t I = 0; I < Bytes;) {
    size_t Len = sequenceLength(LineText, I);
    Units += Len == 1 ? 1 : utf16Units(Len);
    I += Len;
  }
  return Units;
}

size_t bytesInUnits(llvm::StringRef LineText, unsigned Units,
                    PositionEncoding Enc) {
  if (Enc == PositionEncoding::Utf8)
    return std::min<size_t>(Units, LineText.size());
  size_t I = 0;
  unsigned Counted = 0;
  while (I < LineText.size() && Counted < Units) {
    size_t Len = sequenceLength(LineText, I);
    unsigned U = Len == 1 ? 1 : utf16Units(Len);
    // A position inside a surrogate pair points at the character.
    if (Counted + U > Units)
      break;
    Counted += U;
    I += Len;
  }
  return I;
}

void TextDocument::indexLines() {
  LineStarts.assign(1, 0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

llvm::StringRef TextDocument::line(unsigned Line) const {
  if (Line >= LineStarts.size())
    return {};
  size_t Begin = LineStarts[Line];
  size_t End =
      Line + 1 < LineStarts.size() ? LineStarts[Line + 1] - 1 : Text.size();
  llvm::StringRef L(Text.data() + Begin, End - Begin);
  return L.ends_with("\r") ? L.drop_back() : L;
}

llvm::Expected<size_t> TextDocument::offsetOf(Position P,
                                              PositionEncoding Enc) const {
  if (P.Line >= LineStarts.size()) {
    // The position just after the last line break is the end.
    if (P.Line == LineStarts.size() && P.Character == 0)
      return Text.size();
    return llvm::createStringError("line " + std::to_string(P.Line) +
                                   " is past the end of the document (" +
                                   std::to_string(LineStarts.size()) +
                                   " lines)");
  }
  return LineStarts[P.Line] + bytesInUnits(line(P.Line), P.Character, Enc);
}

Position TextDocument::positionAtOffset(size_t Offset,
                                        PositionEncoding Enc) const {
  Offset = std::min(Offset, Text.size());
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  unsigned Line = std::distance(LineStarts.begin(), It) - 1;
  return {Line, unitsInBytes(line(Line), Offset - LineStarts[Line], Enc)};
}

Position TextDocument::positionOf(unsigned Line, unsigned ByteColumn,
                                  PositionEncoding Enc) const {
  if (Line == 0)
    return {0, 0};
  if (Line > LineStarts.size())
    return positionAtOffset(Text.size(), Enc);
  unsigned L = Line - 1;
  size_t Bytes = ByteColumn ? ByteColumn - 1 : 0;
  return {L, unitsInBytes(line(L), Bytes, Enc)};
}

llvm::Error TextDocument::applyChange(const Range *R, llvm::StringRef NewText,
                                      int64_t NewVersion,
                                      PositionEncoding Enc) {
  if (!R) {
    Text = NewText.str();
  } else {
    llvm::Expected<size_t> Begin = offsetOf(R->Start, Enc);
    if (!Begin)
      return Begin.takeError();
    llvm::Expected<size_t> End = offsetOf(R->End, Enc);
    if (!End)
      return End.takeError();
    if (*End < *Begin)
      return llvm::createStringError("the change's range ends before it "
                                     "starts");
    Text.replace(*Begin, *End - *Begin, NewText.str());
  }
  Version = NewVersion;
  indexLines();
  return llvm::Error::success();
}

} // namespace lsp
} // namespace tmemcheck
