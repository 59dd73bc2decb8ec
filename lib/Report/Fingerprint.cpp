//===- Fingerprint.cpp - Stable identities of findings --------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/Fingerprint.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace tmemcheck {

namespace {

bool isWordChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

/// A small C++ lexer state machine: normalises text fed to it (see
/// normalizeStatementText) and tracks what statementTextAt needs to find the
/// end of a statement (open parentheses, the last code character).
class StatementScanner {
public:
  void feed(StringRef Text) {
    for (size_t I = 0; I < Text.size(); ++I) {
      char C = Text[I];
      char Next = I + 1 < Text.size() ? Text[I + 1] : '\0';
      switch (St) {
      case State::Code:
        if (C == '/' && (Next == '/' || Next == '*')) {
          St = Next == '/' ? State::LineComment : State::BlockComment;
          PendingSpace = true;
          ++I;
          continue;
        }
        if (isSpace(C)) {
          PendingSpace = true;
          continue;
        }
        // A quote after a digit is a digit separator (1'024), not a
        // character literal.
        if (C == '"' || (C == '\'' && !(Out.size() && isDigit(Out.back()))))
          St = C == '"' ? State::String : State::Char;
        else if (C == '(' || C == '[')
          ++Depth;
        else if (C == ')' || C == ']')
          --Depth;
        emit(C);
        LastCode = C;
        break;
      case State::String:
      case State::Char:
        if (C == '\n') { // unterminated literal: C++ literals end here
          St = State::Code;
          PendingSpace = true;
          continue;
        }
        if (isSpace(C)) {
          PendingSpace = true;
          continue;
        }
        emit(C);
        if (C == '\\' && Next != '\0' && Next != '\n') {
          emit(Next);
          ++I;
        } else if (C == (St == State::String ? '"' : '\'')) {
          St = State::Code;
          LastCode = C;
        }
        break;
      case State::LineComment:
        if (C == '\n')
          St = State::Code;
        break;
      case State::BlockComment:
        if (C == '*' && Next == '/') {
          St = State::Code;
          ++I;
        }
        break;
      }
    }
  }

  /// After a whole line: does the statement end here?
  bool atStatementEnd() const {
    return St == State::Code && Depth <= 0 &&
           (LastCode == ';' || LastCode == '{' || LastCode == '}' ||
            LastCode == ':');
  }

  std::string take() { return std::move(Out); }

private:
  void emit(char C) {
    if (PendingSpace && !Out.empty() && isWordChar(Out.back()) && isWordChar(C))
      Out += ' ';
    PendingSpace = false;
    Out += C;
  }

  enum class State { Code, String, Char, LineComment, BlockComment };
  State St = State::Code;
  std::string Out;
  bool PendingSpace = false;
  int Depth = 0;
  char LastCode = '\0';
};

} // namespace

std::string normalizeStatementText(StringRef Text) {
  StatementScanner S;
  S.feed(Text);
  return S.take();
}

std::string statementTextAt(ArrayRef<std::string> Lines, unsigned Line) {
  if (Line == 0 || Line > Lines.size())
    return "";
  StatementScanner S;
  // A preprocessor line is a statement of its own.
  if (StringRef(Lines[Line - 1]).ltrim().starts_with("#")) {
    S.feed(Lines[Line - 1]);
    return S.take();
  }
  for (unsigned L = Line; L <= Lines.size() && L < Line + MaxStatementLines;
       ++L) {
    S.feed(Lines[L - 1]);
    S.feed("\n");
    if (S.atStatementEnd())
      break;
  }
  return S.take();
}

namespace {

/// \p Path made absolute, without `.`/`..`, symlinks resolved when it
/// exists.
SmallString<256> canonicalPath(StringRef Path) {
  SmallString<256> Abs(Path.empty() ? StringRef(".") : Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> Real;
  if (!sys::fs::real_path(Abs, Real))
    return Real;
  return Abs;
}

} // namespace

Fingerprinter::Fingerprinter(StringRef Dir)
    : BaseDir(canonicalPath(Dir).str()) {}

std::string Fingerprinter::displayPath(StringRef Path) const {
  SmallString<256> Abs = canonicalPath(Path);
  StringRef Rel = Abs;
  if (Rel.consume_front(BaseDir) &&
      (sys::path::is_separator(BaseDir.back()) ||
       (!Rel.empty() && sys::path::is_separator(Rel.front())))) {
    Rel = Rel.ltrim("/\\");
    return sys::path::convert_to_slash(Rel);
  }
  SmallString<256> Given(Path);
  sys::path::remove_dots(Given, /*remove_dot_dot=*/true);
  return sys::path::convert_to_slash(Given);
}

const std::vector<std::string> &
Fingerprinter::linesOf(const std::string &Path) {
  auto It = FileLines.find(Path);
  if (It != FileLines.end())
    return It->second;
  std::vector<std::string> Lines;
  if (auto Buf = MemoryBuffer::getFile(Path)) {
    SmallVector<StringRef, 0> Parts;
    (*Buf)->getBuffer().split(Parts, '\n');
    for (StringRef P : Parts)
      Lines.push_back(P.rtrim("\r").str());
  }
  return FileLines.insert({Path, std::move(Lines)}).first->second;
}

FindingIdentity Fingerprinter::identify(const Finding &F) {
  FindingIdentity Id;
  Id.CheckName = F.CheckName;
  Id.File = F.Loc.File.empty() ? "" : displayPath(F.Loc.File);
  Id.Kernel = F.Kernel;
  if (F.Loc.isValid())
    Id.Statement = statementTextAt(linesOf(F.Loc.File), F.Loc.Line);
  std::string Key =
      Id.CheckName + '\0' + Id.File + '\0' + Id.Kernel + '\0' + Id.Statement;
  Id.Occurrence = Occurrences[Key]++;
  Id.Fingerprint = computeFingerprint(Id);
  return Id;
}

std::string computeFingerprint(const FindingIdentity &Id) {
  SHA256 Hash;
  auto Field = [&Hash](StringRef S) {
    Hash.update(S);
    Hash.update(StringRef("\0", 1));
  };
  Field("tmemcheck-fingerprint-v1");
  Field(Id.CheckName);
  Field(Id.File);
  Field(Id.Kernel);
  Field(Id.Statement);
  Field(std::to_string(Id.Occurrence));
  std::array<uint8_t, 32> Digest = Hash.final();
  return toHex(ArrayRef<uint8_t>(Digest), /*LowerCase=*/true);
}

} // namespace tmemcheck
