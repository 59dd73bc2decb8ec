//===- SourceExtent.cpp - Where a finding's code ends ---------------------===//
//
// Part of tmemcheck. A scan of the text, not a parse: it only has to find
// where the token, call or PTX instruction at a known start ends, and it
// gives up (the token alone) whenever brackets do not match.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/SourceExtent.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"

using namespace llvm;

namespace tmemcheck {

namespace {

bool isIdentifierChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

/// The C/C++ text of one file from a start offset, with a bound on how far
/// a scan may go (MaxExtentLines lines).
class Scanner {
public:
  Scanner(StringRef Text, size_t Start) : Text(Text) {
    size_t Lines = 0, P = Start;
    for (; P < Text.size() && Lines < MaxExtentLines; ++P)
      if (Text[P] == '\n')
        ++Lines;
    Limit = P;
  }

  size_t limit() const { return Limit; }
  char at(size_t P) const { return P < Limit ? Text[P] : '\0'; }

  size_t identifierEnd(size_t P) const {
    while (P < Limit && isIdentifierChar(Text[P]))
      ++P;
    return P;
  }

  size_t skipSpace(size_t P) const {
    while (P < Limit && isSpace(Text[P]))
      ++P;
    return P;
  }

  /// The end of the string or character literal whose quote is at \p P,
  /// or npos if it does not end within the limit.
  size_t quotedEnd(size_t P) const {
    char Quote = Text[P];
    for (++P; P < Limit; ++P) {
      if (Text[P] == '\\') {
        ++P;
        continue;
      }
      if (Text[P] == '\n')
        return StringRef::npos;
      if (Text[P] == Quote)
        return P + 1;
    }
    return StringRef::npos;
  }

  /// The end of the raw string literal whose quote is at \p P (after R).
  size_t rawStringEnd(size_t P) const {
    size_t Open = Text.find('(', P);
    if (Open == StringRef::npos || Open >= Limit || Open - P > 17)
      return StringRef::npos;
    std::string Close = (")" + Text.slice(P + 1, Open) + "\"").str();
    size_t End = Text.find(Close, Open);
    if (End == StringRef::npos || End + Close.size() > Limit)
      return StringRef::npos;
    return End + Close.size();
  }

  /// The end of the bracketed text whose opening bracket is at \p P, with
  /// strings, character literals and comments skipped; npos if it does
  /// not close (within the limit, with matching brackets).
  size_t bracketEnd(size_t P) const {
    std::string Open;
    for (; P < Limit; ++P) {
      char C = Text[P];
      if (C == '"' || C == '\'') {
        size_t E = (C == '"' && P > 0 && Text[P - 1] == 'R') ? rawStringEnd(P)
                                                             : quotedEnd(P);
        if (E == StringRef::npos)
          return E;
        P = E - 1;
      } else if (C == '/' && at(P + 1) == '/') {
        P = Text.find('\n', P);
        if (P == StringRef::npos || P >= Limit)
          return StringRef::npos;
      } else if (C == '/' && at(P + 1) == '*') {
        P = Text.find("*/", P + 2);
        if (P == StringRef::npos || P + 2 > Limit)
          return StringRef::npos;
        ++P;
      } else if (C == '(' || C == '[' || C == '{') {
        Open.push_back(C == '(' ? ')' : C == '[' ? ']' : '}');
      } else if (C == ')' || C == ']' || C == '}') {
        if (Open.empty() || Open.back() != C)
          return StringRef::npos;
        Open.pop_back();
        if (Open.empty())
          return P + 1;
      }
    }
    return StringRef::npos;
  }

private:
  StringRef Text;
  size_t Limit;
};

/// Words after which a parenthesis is not a call of the word.
bool isStatementKeyword(StringRef W) {
  return StringSwitch<bool>(W)
      .Cases("if", "for", "while", "switch", "return", "else", "do", true)
      .Cases("case", "sizeof", "alignof", "decltype", "co_return", true)
      .Cases("throw", "new", "delete", "static_assert", true)
      .Default(false);
}

/// The end offset of the C/C++ code at \p Start (see extentAt).
size_t cxxExtentEnd(StringRef Text, size_t Start) {
  Scanner S(Text, Start);
  char C = S.at(Start);
  if (C == '"' || C == '\'') {
    size_t E = S.quotedEnd(Start);
    return E == StringRef::npos ? Start + 1 : E;
  }
  if (isDigit(C)) {
    size_t P = Start;
    while (P < S.limit() &&
           (isIdentifierChar(Text[P]) || Text[P] == '.' || Text[P] == '\'' ||
            ((Text[P] == '+' || Text[P] == '-') && P > Start &&
             StringRef("eEpP").contains(Text[P - 1]))))
      ++P;
    return P;
  }
  if (!isIdentifierChar(C))
    return Start + 1; // a punctuator: its first character at least.
  size_t End = S.identifierEnd(Start);
  StringRef Word = Text.slice(Start, End);
  // An encoding prefix of a string literal (u8"...", R"(...)").
  if (S.at(End) == '"') {
    size_t E = Word.ends_with("R") ? S.rawStringEnd(End) : S.quotedEnd(End);
    return E == StringRef::npos ? End : E;
  }
  if (isStatementKeyword(Word))
    return End;
  // A postfix chain: calls, subscripts, braced initialisers, members.
  for (;;) {
    size_t P = S.skipSpace(End);
    char N = S.at(P);
    if (N == '(' || N == '[' || N == '{') {
      size_t E = S.bracketEnd(P);
      if (E == StringRef::npos)
        return End;
      End = E;
      continue;
    }
    size_t Member = StringRef::npos;
    if (N == '.' && !isDigit(S.at(P + 1)))
      Member = P + 1;
    else if ((N == '-' && S.at(P + 1) == '>') ||
             (N == ':' && S.at(P + 1) == ':'))
      Member = P + 2;
    if (Member == StringRef::npos)
      return End;
    Member = S.skipSpace(Member);
    if (!isIdentifierChar(S.at(Member)) || isDigit(S.at(Member)))
      return End;
    End = S.identifierEnd(Member);
  }
}

/// Whether byte \p Column (0-based) of \p Line lies inside a string
/// literal: the PTX text of an asm statement, where findings on inline asm
/// point. Comments and character literals before it are skipped.
bool insideStringLiteral(StringRef Line, size_t Column) {
  char Quote = 0;
  for (size_t P = 0; P < Column && P < Line.size(); ++P) {
    char C = Line[P];
    if (Quote) {
      if (C == '\\')
        ++P;
      else if (C == Quote)
        Quote = 0;
    } else if (C == '"' || C == '\'') {
      Quote = C;
    } else if (C == '/' && P + 1 < Line.size() && Line[P + 1] == '/') {
      return false;
    } else if (C == '/' && P + 1 < Line.size() && Line[P + 1] == '*') {
      size_t E = Line.find("*/", P + 2);
      if (E == StringRef::npos || E >= Column)
        return false;
      P = E + 1;
    }
  }
  return Quote == '"';
}

/// The end offset of the PTX instruction that starts at \p Start inside
/// the string literal of an asm statement: its `;`, else the literal's end.
size_t asmStringExtentEnd(StringRef Text, size_t Start) {
  for (size_t P = Start; P < Text.size(); ++P) {
    char C = Text[P];
    if (C == ';')
      return P + 1;
    if (C == '"' || C == '\n')
      return P;
    if (C == '\\')
      ++P;
  }
  return Text.size();
}

/// The end offset of the PTX instruction at \p Start (see extentAt).
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

std::optional<SourceExtent> extentAt(SourceFiles &Files, const SourceLoc &Loc) {
  if (!Loc.isValid() || Loc.Column == 0)
    return std::nullopt;
  std::optional<StringRef> Text = Files.text(Loc.File);
  std::optional<StringRef> LineStr = lineText(Files, Loc.File, Loc.Line);
  std::optional<unsigned> LineBegin = Files.offset(Loc.File, Loc.Line, 1);
  if (!Text || !LineStr || !LineBegin || Loc.Column > LineStr->size())
    return std::nullopt;
  size_t Start = *LineBegin + Loc.Column - 1;
  size_t End = StringRef(Loc.File).ends_with_insensitive(".ptx")
                   ? ptxExtentEnd(*Text, Start)
               : insideStringLiteral(*LineStr, Loc.Column - 1)
                   ? asmStringExtentEnd(*Text, Start)
                   : cxxExtentEnd(*Text, Start);
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
