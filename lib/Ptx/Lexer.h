//===- Lexer.h - Tokens of PTX text and inline-asm templates ----*- C++ -*-===//
//
// Part of tmemcheck. Private to lib/Ptx.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_PTX_LEXER_H
#define TMEMCHECK_LIB_PTX_LEXER_H

#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace tmemcheck::ptx {

/// One token of PTX text. Each byte is scanned once: the parser reads the
/// tokens as the Lexer makes them, a batch at a time, and may look ahead
/// freely. 32 bytes, members ordered so that no padding comes between.
struct Token {
  enum class Kind : uint8_t {
    Word,       ///< identifier or dotted word: `tcgen05.ld.sync`, `.reg`, `p`.
    Register,   ///< `%r1`, `%tid.x` (PTX text) or `%%r1` (asm template).
    AsmOperand, ///< `%0` / `%[name]` in an asm template.
    Number,     ///< starts with a digit: `16`, `0x10`, `0f3F800000`, `1.5`.
    String,     ///< `"..."` (only in directives such as `.file`).
    Punct,      ///< one of `; , { } [ ] ( ) + - ! @ | : < > =`.
    Invalid,    ///< bytes that cannot start any token (already diagnosed).
    End,        ///< end of input (always the last token).
  };

  /// The PTX spelling. Equal to the source text except for `%%` escapes in
  /// asm templates, which are reduced to one '%', and for immediate asm
  /// operands substituted into a word. Points into the text or into the
  /// lexer's rewritten spellings.
  llvm::StringRef Spelling;
  unsigned Offset = 0; ///< byte offset of the first character in the input.
  unsigned Length = 0; ///< bytes in the input.
  int AsmIndex = -1;   ///< AsmOperand: resolved operand index, -1 if invalid.
  Kind K = Kind::End;
  /// True if a newline separates this token from the previous one.
  bool NewlineBefore = false;
  /// Punct: its character (so the parser's many isPunct() need not read
  /// the text); '\0' for the other kinds.
  char PunctChar = '\0';

  bool is(Kind Other) const { return K == Other; }
  bool isPunct(char C) const { return PunctChar == C && C != '\0'; }
  unsigned end() const { return Offset + Length; }
};

/// Upper bound on diagnostics per parse, so garbage input cannot produce an
/// unbounded list (one per byte).
constexpr unsigned MaxParseDiagnostics = 100;

/// Appends a diagnostic unless the cap is reached; at the cap, appends one
/// final "further problems suppressed" note.
void addDiagnostic(std::vector<ParseDiagnostic> &Diags,
                   ParseDiagnostic::Severity Level, std::string Message,
                   TextRange Range);

/// Turns text into tokens, a batch at a time, so that the parser reads a
/// large module without holding all of its tokens. In inline-asm mode `%N`,
/// `%[name]` and `%%` are operand references and escapes; in PTX mode `%`
/// starts a register. Problems (bad bytes, unterminated comments or
/// strings, unknown operand references) go to diagnostics(), in text order.
class Lexer {
public:
  Lexer(llvm::StringRef Text, bool InlineAsm,
        llvm::ArrayRef<AsmOperandInfo> Operands);

  /// Lexes up to \p Max (> 0) tokens into \p Buf and returns how many.
  /// The End token comes last, once; after it, every call returns 0.
  size_t lex(Token *Buf, size_t Max);

  /// True once the End token has been returned.
  bool done() const { return Done; }
  std::vector<ParseDiagnostic> &diagnostics() { return Diags; }
  /// The rewritten spellings tokens point into (moving a deque keeps them).
  std::deque<std::string> takeRewritten() { return std::move(Rewritten); }
  /// The Invalid tokens so far (bytes that cannot start a token).
  llvm::ArrayRef<TextRange> invalidRanges() const { return Invalid; }

private:
  llvm::StringRef Text;
  const char *Buf; ///< Text.data()
  size_t Size;     ///< Text.size()
  bool InlineAsm;
  llvm::ArrayRef<AsmOperandInfo> Operands;
  std::vector<ParseDiagnostic> Diags;
  std::vector<TextRange> Invalid;
  /// The spellings the lexer rewrote (a deque: their addresses stay put).
  std::deque<std::string> Rewritten;
  Token *Out = nullptr; ///< where push() writes the current token.
  size_t Pos = 0;
  bool SawNewline = false;
  bool Done = false;

  char peek(size_t Ahead = 0) const {
    return Pos + Ahead < Size ? Buf[Pos + Ahead] : '\0';
  }
  bool atEnd() const { return Pos >= Size; }
  void error(const llvm::Twine &Msg, size_t Begin, size_t End);
  void warning(const llvm::Twine &Msg, size_t Begin, size_t End);
  void push(Token::Kind K, size_t Begin, llvm::StringRef Spelling,
            int AsmIndex = -1);
  void scanWordTail();
  llvm::StringRef wordSpelling(size_t Begin);
  bool skipSpaceAndComments();
  void lexOne();
  void lexPercent();
  void lexAsmOperandNumber(size_t Begin, size_t DigitsBegin);
};

/// The tokens of a whole text, lexed at once (for tests and small texts).
struct TokenList {
  std::vector<Token> Tokens;
  std::deque<std::string> Rewritten; ///< spellings Tokens point into.
  std::vector<ParseDiagnostic> Diagnostics;
};
TokenList lexPtx(llvm::StringRef Text, bool InlineAsm,
                 llvm::ArrayRef<AsmOperandInfo> Operands);

} // namespace tmemcheck::ptx

#endif // TMEMCHECK_LIB_PTX_LEXER_H
