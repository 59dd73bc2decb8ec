//===- Lexer.cpp - Tokens of PTX text and inline-asm templates ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tmemcheck::ptx {

void addDiagnostic(std::vector<ParseDiagnostic> &Diags,
                   ParseDiagnostic::Severity Level, std::string Message,
                   TextRange Range) {
  if (Diags.size() > MaxParseDiagnostics)
    return;
  if (Diags.size() == MaxParseDiagnostics) {
    Diags.push_back({ParseDiagnostic::Severity::Error,
                     "too many problems in this text; further diagnostics "
                     "are suppressed",
                     Range});
    return;
  }
  Diags.push_back({Level, std::move(Message), Range});
}

static_assert(sizeof(Token) <= 32, "a token should stay small");

namespace {

/// Character classes of the scanner, one table lookup per byte.
enum CharClass : uint8_t {
  CSpace = 1,
  CWordStart = 2, ///< letters, '_', '$', '.'
  CWordChar = 4,  ///< CWordStart and digits
  CDigit = 8,
  CPunct = 16,
  /// Ends a run of bytes that cannot start a token.
  CTokenStart = 32,
};

struct CharTable {
  uint8_t C[256] = {};
  constexpr CharTable() {
    for (unsigned I = 0; I < 256; ++I) {
      bool Alpha = (I >= 'a' && I <= 'z') || (I >= 'A' && I <= 'Z');
      bool Digit = I >= '0' && I <= '9';
      if (Alpha || I == '_' || I == '$' || I == '.')
        C[I] |= CWordStart | CWordChar;
      if (Digit)
        C[I] |= CDigit | CWordChar;
    }
    for (char P : {';', ',', '{', '}', '[', ']', '(', ')', '+', '-', '!', '@',
                   '|', ':', '<', '>', '=', '*', '/'})
      C[uint8_t(P)] |= CPunct;
    for (char S : {' ', '\t', '\n', '\r', '\v', '\f'})
      C[uint8_t(S)] |= CSpace;
    for (unsigned I = 0; I < 256; ++I)
      if (C[I] || I == '%' || I == '"')
        C[I] |= CTokenStart;
  }
};
constexpr CharTable Classes;

bool is(char C, uint8_t Class) { return Classes.C[uint8_t(C)] & Class; }
bool isWordChar(char C) { return is(C, CWordChar); }
bool isSpace(char C) { return is(C, CSpace); }

} // namespace

Lexer::Lexer(StringRef Text, bool InlineAsm, ArrayRef<AsmOperandInfo> Operands)
    : Text(Text), Buf(Text.data()), Size(Text.size()), InlineAsm(InlineAsm),
      Operands(Operands) {}

void Lexer::error(const Twine &Msg, size_t Begin, size_t End) {
  addDiagnostic(Diags, ParseDiagnostic::Severity::Error, Msg.str(),
                {unsigned(Begin), unsigned(End - Begin)});
}

void Lexer::warning(const Twine &Msg, size_t Begin, size_t End) {
  addDiagnostic(Diags, ParseDiagnostic::Severity::Warning, Msg.str(),
                {unsigned(Begin), unsigned(End - Begin)});
}

void Lexer::push(Token::Kind K, size_t Begin, StringRef Spelling,
                 int AsmIndex) {
  Token &T = *Out;
  T.K = K;
  T.Spelling = Spelling;
  T.Offset = unsigned(Begin);
  T.Length = unsigned(Pos - Begin);
  T.NewlineBefore = SawNewline;
  T.PunctChar = K == Token::Kind::Punct ? Spelling[0] : '\0';
  T.AsmIndex = AsmIndex;
  SawNewline = false;
  if (K == Token::Kind::Invalid)
    Invalid.push_back({T.Offset, T.Length});
}

/// Consumes word characters (and `::` pairs) starting at Pos.
void Lexer::scanWordTail() {
  while (true) {
    // (A local cursor: the member would be stored on every byte.)
    const char *P = Buf + Pos, *E = Buf + Size;
    while (P != E && isWordChar(*P))
      ++P;
    Pos = P - Buf;
    if (P == E)
      return;
    char C = Buf[Pos];
    if (C == ':' && peek(1) == ':') {
      Pos += 2;
      continue;
    }
    if (!InlineAsm || C != '%')
      return;
    // `LABEL_%=`: GCC's unique-per-asm-instance number inside a label.
    if (peek(1) == '=') {
      Pos += 2;
      continue;
    }
    // `cta_group::%2`: an immediate asm operand inside a modifier (the
    // compiler prints the constant there); wordSpelling substitutes it.
    if (isDigit(peek(1)) && Pos > 0 &&
        (Buf[Pos - 1] == ':' || isWordChar(Buf[Pos - 1]))) {
      Pos += 2;
      while (!atEnd() && isDigit(peek()))
        ++Pos;
      continue;
    }
    return;
  }
}

/// The spelling of the word at [Begin, Pos): the text, with each `%N` of
/// an operand whose immediate value is known replaced by that value (an
/// unknown one stays as written, so the word fails to decode visibly).
StringRef Lexer::wordSpelling(size_t Begin) {
  StringRef W = Text.slice(Begin, Pos);
  // Only asm templates put '%' inside a word (scanWordTail).
  if (!InlineAsm || !W.contains('%'))
    return W;
  std::string Word;
  for (size_t I = 0; I < W.size();) {
    if (W[I] != '%' || I + 1 >= W.size() || !isDigit(W[I + 1])) {
      Word += W[I++];
      continue;
    }
    size_t J = I + 1;
    unsigned Index = 0;
    while (J < W.size() && isDigit(W[J]) && Index < 1000)
      Index = Index * 10 + unsigned(W[J++] - '0');
    if (Index < Operands.size() && Operands[Index].Immediate)
      Word += std::to_string(*Operands[Index].Immediate);
    else
      Word += W.slice(I, J).str();
    I = J;
  }
  return Rewritten.emplace_back(std::move(Word));
}

/// Skips blanks and comments. Returns false at end of input.
bool Lexer::skipSpaceAndComments() {
  while (Pos < Size) {
    const char *P = Buf + Pos, *E = Buf + Size;
    bool Newline = false;
    while (P != E && isSpace(*P))
      Newline |= *P++ == '\n';
    SawNewline |= Newline;
    Pos = P - Buf;
    if (P == E)
      return false;
    char C = *P;
    if (C == '/' && peek(1) == '/') {
      size_t NL = Text.find('\n', Pos);
      Pos = NL == StringRef::npos ? Text.size() : NL;
      continue;
    }
    if (C == '/' && peek(1) == '*') {
      size_t Close = Text.find("*/", Pos + 2);
      if (Close == StringRef::npos) {
        error("unterminated '/*' comment", Pos, Pos + 2);
        Pos = Text.size();
        return false;
      }
      if (Text.slice(Pos, Close).contains('\n'))
        SawNewline = true;
      Pos = Close + 2;
      continue;
    }
    return true;
  }
  return false;
}

void Lexer::lexAsmOperandNumber(size_t Begin, size_t DigitsBegin) {
  while (isDigit(peek()))
    ++Pos;
  StringRef Digits = Text.slice(DigitsBegin, Pos);
  unsigned Index = 0;
  int Resolved = -1;
  if (Digits.size() > 9 || Digits.getAsInteger(10, Index)) {
    error("asm operand reference '%" + Digits + "' is too large", Begin, Pos);
  } else if (Index >= Operands.size()) {
    error("asm operand reference '%" + Digits +
              "' is out of range (the "
              "statement has " +
              Twine(Operands.size()) + " operand" +
              (Operands.size() == 1 ? "" : "s") + ")",
          Begin, Pos);
  } else {
    Resolved = int(Index);
  }
  push(Token::Kind::AsmOperand, Begin, Text.slice(Begin, Pos), Resolved);
}

void Lexer::lexPercent() {
  size_t Begin = Pos;
  ++Pos; // '%'
  if (!InlineAsm) {
    size_t NameBegin = Pos;
    scanWordTail();
    if (Pos == NameBegin) {
      error("'%' is not followed by a register name", Begin, Pos);
      push(Token::Kind::Invalid, Begin, "%");
      return;
    }
    push(Token::Kind::Register, Begin, Text.slice(Begin, Pos));
    return;
  }

  char C = peek();
  if (C == '%') {
    // `%%name`: a PTX register written through the asm escape.
    ++Pos;
    size_t NameBegin = Pos;
    scanWordTail();
    if (Pos == NameBegin) {
      error("'%%' is not followed by a register name", Begin, Pos);
      push(Token::Kind::Invalid, Begin, "%");
      return;
    }
    // The escape's second '%' and the name: `%%r1` is spelt `%r1`.
    push(Token::Kind::Register, Begin, Text.slice(NameBegin - 1, Pos));
    return;
  }
  if (isDigit(C)) {
    lexAsmOperandNumber(Begin, Pos);
    return;
  }
  if (C == '[') {
    size_t Close = Pos + 1;
    while (Close < Text.size() && (isAlnum(Text[Close]) || Text[Close] == '_'))
      ++Close;
    if (Close >= Text.size() || Text[Close] != ']') {
      Pos = Close;
      error("malformed symbolic asm operand reference (expected "
            "'%[name]')",
            Begin, Pos);
      push(Token::Kind::Invalid, Begin, Text.slice(Begin, Pos));
      return;
    }
    StringRef Name = Text.slice(Pos + 1, Close);
    Pos = Close + 1;
    int Resolved = -1;
    for (size_t I = 0, E = Operands.size(); I != E; ++I)
      if (!Name.empty() && Operands[I].Name == Name) {
        Resolved = int(I);
        break;
      }
    if (Resolved < 0)
      error("unknown symbolic asm operand name '%[" + Name + "]'", Begin, Pos);
    push(Token::Kind::AsmOperand, Begin, Text.slice(Begin, Pos),
         Resolved);
    return;
  }
  if (isAlpha(C) && isDigit(peek(1))) {
    // GCC operand modifiers (`%c0`, `%h1`): not meaningful for NVPTX, but
    // the operand binding is still clear.
    warning(Twine("asm operand modifier '") + Text.substr(Pos, 1) +
                "' is ignored",
            Begin, Pos + 1);
    size_t DigitsBegin = ++Pos;
    lexAsmOperandNumber(Begin, DigitsBegin);
    return;
  }
  error("'%' in an asm template must be followed by an operand number, "
        "'[name]' or '%'",
        Begin, Pos);
  push(Token::Kind::Invalid, Begin, "%");
}

/// Lexes one token (End at the end of the text) into *Out.
void Lexer::lexOne() {
  if (!skipSpaceAndComments()) {
    Pos = Size;
    push(Token::Kind::End, Pos, "");
    Done = true;
    return;
  }
  size_t Begin = Pos;
  char C = Buf[Pos];
  uint8_t Class = Classes.C[uint8_t(C)];
  if (Class & CWordStart) {
    ++Pos;
    scanWordTail();
    push(Token::Kind::Word, Begin, wordSpelling(Begin));
    return;
  }
  if (Class & CPunct) {
    ++Pos;
    push(Token::Kind::Punct, Begin, Text.substr(Begin, 1));
    return;
  }
  if (C == '%') {
    lexPercent();
    return;
  }
  if (Class & CDigit) {
    const char *P = Buf + Pos + 1, *E = Buf + Size;
    while (P != E && isWordChar(*P))
      ++P;
    Pos = P - Buf;
    push(Token::Kind::Number, Begin, Text.slice(Begin, Pos));
    return;
  }
  if (C == '"') {
    ++Pos;
    while (!atEnd() && peek() != '"' && peek() != '\n') {
      if (peek() == '\\')
        ++Pos;
      ++Pos;
    }
    if (atEnd() || peek() != '"') {
      Pos = std::min(Pos, Size);
      error("unterminated string literal", Begin, Pos);
    } else {
      ++Pos;
    }
    push(Token::Kind::String, Begin, Text.slice(Begin, Pos));
    return;
  }
  // A run of bytes that cannot start a token: one token, one diagnostic.
  while (Pos < Size && !is(Buf[Pos], CTokenStart))
    ++Pos;
  error("unexpected character" + Twine(Pos - Begin > 1 ? "s" : "") +
            " in PTX text",
        Begin, Pos);
  push(Token::Kind::Invalid, Begin, Text.slice(Begin, Pos));
}

size_t Lexer::lex(Token *Dest, size_t Max) {
  size_t N = 0;
  while (N < Max && !Done) {
    Out = Dest + N++;
    lexOne();
  }
  return N;
}

TokenList lexPtx(StringRef Text, bool InlineAsm,
                 ArrayRef<AsmOperandInfo> Operands) {
  Lexer L(Text, InlineAsm, Operands);
  TokenList Out;
  Token T;
  while (L.lex(&T, 1))
    Out.Tokens.push_back(T);
  Out.Rewritten = L.takeRewritten();
  Out.Diagnostics = std::move(L.diagnostics());
  return Out;
}

} // namespace tmemcheck::ptx
