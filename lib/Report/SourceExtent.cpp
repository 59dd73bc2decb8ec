//===- SourceExtent.cpp - Where a PTX instruction ends --------------------===//
//
// Part of tmemcheck. A scan of one line of a .ptx file, not a parse: it
// only has to find where the instruction at a known start ends.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/SourceExtent.h"

#include "llvm/Support/ConvertUTF.h"

using namespace llvm;

namespace tmemcheck {

namespace {

/// The end offset of the PTX instruction at \p Start (see ptxExtentAt).
size_t ptxExtentEnd(StringRef Text, size_t Start) {
  size_t Eol = Text.find('\n', Start);
  if (Eol == StringRef::npos)
    Eol = Text.size();
  StringRef Line = Text.slice(Start, Eol);
  size_t Semi = Line.find(';');
  size_t Comment = std::min(Line.find("//"), Line.find("/*"));
  if (Semi != StringRef::npos && Semi < Comment)
    return Start + Semi + 1;
  Line = Line.take_front(Comment).rtrim();
  return Start + Line.size();
}

} // namespace

std::optional<StringRef> lineText(SourceFiles &Files, StringRef Path,
                                  unsigned Line) {
  std::optional<StringRef> Text = Files.text(Path);
  std::optional<unsigned> Begin = Files.offset(Path, Line, 1);
  if (!Text || !Begin)
    return std::nullopt;
  StringRef Rest = Text->drop_front(*Begin);
  return Rest.take_until([](char C) { return C == '\n' || C == '\r'; });
}

std::optional<SourceExtent> ptxExtentAt(SourceFiles &Files,
                                        const SourceLoc &Loc) {
  if (!Loc.isValid() || Loc.Column == 0 ||
      !StringRef(Loc.File).ends_with_insensitive(".ptx"))
    return std::nullopt;
  std::optional<StringRef> Text = Files.text(Loc.File);
  std::optional<StringRef> LineStr = lineText(Files, Loc.File, Loc.Line);
  std::optional<unsigned> LineBegin = Files.offset(Loc.File, Loc.Line, 1);
  if (!Text || !LineStr || !LineBegin || Loc.Column > LineStr->size())
    return std::nullopt;
  size_t Start = *LineBegin + Loc.Column - 1;
  size_t End = ptxExtentEnd(*Text, Start);
  if (End <= Start)
    End = Start + 1;
  std::optional<LineColumn> B = Files.lineColumn(Loc.File, Start);
  std::optional<LineColumn> E = Files.lineColumn(Loc.File, End);
  if (!B || !E)
    return std::nullopt;
  return SourceExtent{*B, *E};
}

unsigned utf16Column(StringRef LineText, unsigned ByteColumn) {
  if (ByteColumn == 0)
    return 0;
  size_t Bytes = ByteColumn - 1;
  size_t Prefix = std::min(Bytes, LineText.size());
  const auto *Pos = reinterpret_cast<const UTF8 *>(LineText.data());
  const UTF8 *End = Pos + Prefix;
  unsigned Units = 0;
  while (Pos < End) {
    const UTF8 *Start = Pos;
    UTF32 C = 0;
    if (convertUTF8Sequence(&Pos, End, &C, strictConversion) != conversionOK) {
      Pos = Start + 1; // a stray byte, or a sequence cut by the column
      ++Units;
      continue;
    }
    Units += C >= 0x10000 ? 2 : 1;
  }
  return Units + static_cast<unsigned>(Bytes - Prefix) + 1;
}

} // namespace tmemcheck
